#include "trestle/wire/frame_decoder.h"

#include <cstring>

#include "trestle/wire/frame_format.h"

namespace trestle::wire {

namespace {
// Own buffers above this size are freed once they empty.
constexpr std::size_t kKeepOwnBytes = 16 * 1024;

struct Scratch {
  std::vector<char> bytes;
  const FrameDecoder* holder = nullptr;  // a decoder with unretained bytes in it
};
thread_local Scratch scratch;
}  // namespace

char* FrameDecoder::ScratchData() { return scratch.bytes.data(); }

FrameDecoder::FrameDecoder(std::uint32_t max_frame_bytes)
    : max_frame_bytes_(max_frame_bytes) {}

FrameDecoder::~FrameDecoder() {
  if (scratch.holder == this) scratch.holder = nullptr;
}

char* FrameDecoder::WritableSpace(std::size_t min_bytes,
                                  std::size_t* available) {
  if (in_scratch_) Retain();  // a caller that skipped Retain: stay correct
  if (begin_ == end_ && scratch.holder == nullptr) {
    begin_ = end_ = 0;
    if (scratch.bytes.size() < min_bytes) scratch.bytes.resize(min_bytes);
    in_scratch_ = true;
    scratch.holder = this;
    *available = scratch.bytes.size();
    return scratch.bytes.data();
  }
  // Move the unconsumed tail to the front before growing, so a long-lived
  // connection reuses one buffer instead of growing without bound.
  if (begin_ > 0 && buffer_.size() - end_ < min_bytes) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (buffer_.size() - end_ < min_bytes) buffer_.resize(end_ + min_bytes);
  *available = buffer_.size() - end_;
  return buffer_.data() + end_;
}

void FrameDecoder::Commit(std::size_t n) { end_ += n; }

void FrameDecoder::Retain() {
  if (in_scratch_) {
    in_scratch_ = false;
    scratch.holder = nullptr;
    const std::size_t left = end_ - begin_;
    if (left > 0) {
      if (buffer_.size() < left) buffer_.resize(left);
      std::memcpy(buffer_.data(), scratch.bytes.data() + begin_, left);
    }
    begin_ = 0;
    end_ = left;
  }
  if (begin_ == end_ && buffer_.capacity() > kKeepOwnBytes) {
    std::vector<char>().swap(buffer_);
    begin_ = end_ = 0;
  }
}

FrameDecoder::Result FrameDecoder::Next(Frame* frame) {
  if (failed_ != Result::kNeedMore) return failed_;
  const std::size_t have = end_ - begin_;
  if (have < kFrameHeaderBytes) return Result::kNeedMore;
  const auto* p = reinterpret_cast<const std::uint8_t*>(data() + begin_);
  const std::uint32_t length = (std::uint32_t{p[0]} << 24) |
                               (std::uint32_t{p[1]} << 16) |
                               (std::uint32_t{p[2]} << 8) | std::uint32_t{p[3]};
  last_length_ = length;
  if (length > max_frame_bytes_) return failed_ = Result::kOversized;
  if (have < kFrameHeaderBytes + length) return Result::kNeedMore;
  frame->Clear();
  if (!frame->ParseFromArray(p + kFrameHeaderBytes, static_cast<int>(length))) {
    return failed_ = Result::kMalformed;
  }
  begin_ += kFrameHeaderBytes + length;
  if (begin_ == end_ && !in_scratch_) begin_ = end_ = 0;
  return Result::kFrame;
}

}  // namespace trestle::wire
