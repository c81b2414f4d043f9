// Incremental, bounded decoder for length-prefixed frames.
//
// Bytes arrive in arbitrary pieces: a read may hold half a frame or several.
// The decoder buffers them and hands out whole frames one at a time. A length
// prefix above the maximum is reported before the body is buffered, so a
// hostile peer cannot make the decoder allocate more than max + one read.
//
// Memory: when a decoder holds no partial frame, reads land in one scratch
// buffer shared by all decoders of the thread, and only a partial frame left
// at the end of a read is copied into the decoder's own buffer (Retain). An
// idle connection thus costs no read buffer, which matters at 10,000 clients.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "trestle.pb.h"

namespace trestle::wire {

class FrameDecoder {
 public:
  enum class Result {
    kFrame,      // *frame holds the next frame
    kNeedMore,   // no complete frame buffered yet
    kOversized,  // the length prefix exceeds the maximum; stream unusable
    kMalformed,  // the body is not a valid Frame; stream unusable
  };

  explicit FrameDecoder(std::uint32_t max_frame_bytes);
  ~FrameDecoder();
  FrameDecoder(const FrameDecoder&) = delete;
  FrameDecoder& operator=(const FrameDecoder&) = delete;

  // Returns writable space of at least `min_bytes` (for libuv's alloc
  // callback): the thread's shared scratch buffer when nothing is buffered,
  // else the decoder's own. Valid until the next call on the decoder.
  char* WritableSpace(std::size_t min_bytes, std::size_t* available);
  // Marks `n` bytes of the space returned by WritableSpace as filled.
  void Commit(std::size_t n);
  // Call after handling the frames of one read (all, or up to a pause):
  // moves what is left out of the shared scratch into the own buffer, and
  // gives back an own buffer that grew large and is now empty.
  void Retain();

  // Extracts the next whole frame into *frame (cleared first). After
  // kOversized or kMalformed the decoder stays in that state.
  Result Next(Frame* frame);

  // For kOversized: the length the peer announced.
  std::uint32_t last_length() const { return last_length_; }
  std::size_t buffered_bytes() const { return end_ - begin_; }
  std::uint32_t max_frame_bytes() const { return max_frame_bytes_; }
  // Applies from the next frame's length on.
  void set_max_frame_bytes(std::uint32_t max_frame_bytes) { max_frame_bytes_ = max_frame_bytes; }

 private:
  char* data() { return in_scratch_ ? ScratchData() : buffer_.data(); }
  static char* ScratchData();

  std::vector<char> buffer_;  // own: partial frames between reads
  bool in_scratch_ = false;   // the bytes [begin_, end_) are in the scratch
  std::size_t begin_ = 0;  // first unconsumed byte
  std::size_t end_ = 0;    // one past the last filled byte
  std::uint32_t max_frame_bytes_;
  std::uint32_t last_length_ = 0;
  Result failed_ = Result::kNeedMore;  // sticky error, kNeedMore = none
};

}  // namespace trestle::wire
