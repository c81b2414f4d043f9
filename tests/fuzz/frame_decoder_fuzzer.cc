// Fuzz target: wire::FrameDecoder against a reference decoder written here
// from docs/protocol.md (a 4-byte big-endian length, then that many bytes of
// one protobuf Frame; a length above the maximum is refused before the body
// is buffered, and both errors are final).
//
// Input: byte 0 picks the maximum (small ones, to reach kOversized, or the
// 16 MiB default); byte 1 the frame after which the maximum changes (as the
// daemon may after Hello) and byte 2 the new one; bytes 3..10 seed the chunk
// sizes and the points where the reader pauses; the rest is the stream. Two
// decoders read the same stream in different chunks, interleaved, so they
// contend for the thread's shared scratch buffer as connections do.
//
// Checked: both decoders yield exactly the reference's frames (compared as
// serialized bytes) and then the reference's final state (need more, with
// the same number of bytes left over; oversized, with the announced length;
// or malformed); a decoder waiting for more never holds a whole frame or
// more than a header plus the maximum.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <google/protobuf/stubs/logging.h>

#include "byte_reader.h"
#include "trestle.pb.h"
#include "trestle/wire/frame_decoder.h"
#include "trestle/wire/frame_format.h"

namespace trestle::fuzz {
namespace {

using Result = wire::FrameDecoder::Result;

void Check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "frame_decoder_fuzzer: %s\n", what);
  std::abort();
}

std::uint32_t MaxFrom(std::uint8_t b) {
  if (b == 0xff) return wire::kDefaultMaxFrameBytes;
  return 1 + b * 7u;  // 1 .. 1779: frames in the corpus straddle the limit
}

// What a decoder of the whole stream must produce.
struct Expected {
  std::vector<std::string> frames;  // each re-serialized
  Result end = Result::kNeedMore;
  std::uint32_t last_length = 0;    // for kOversized
  std::size_t left_over = 0;        // for kNeedMore: bytes of a partial frame
};

Expected Reference(const std::string& s, std::uint32_t max, std::size_t switch_after,
                   std::uint32_t max_after) {
  Expected e;
  std::size_t pos = 0;
  while (true) {
    const std::uint32_t limit = e.frames.size() >= switch_after ? max_after : max;
    if (s.size() - pos < 4) break;
    const auto* p = reinterpret_cast<const unsigned char*>(s.data() + pos);
    const std::uint32_t length = (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) |
                                 (std::uint32_t{p[2]} << 8) | p[3];
    if (length > limit) {
      e.end = Result::kOversized;
      e.last_length = length;
      return e;
    }
    if (s.size() - pos - 4 < length) break;
    wire::Frame f;
    if (!f.ParseFromArray(s.data() + pos + 4, static_cast<int>(length))) {
      e.end = Result::kMalformed;
      return e;
    }
    e.frames.push_back(f.SerializeAsString());
    pos += 4 + length;
  }
  e.left_over = s.size() - pos;
  return e;
}

// One decoder reading the stream in chunks, as FramedStream does: space,
// commit, frames until it needs more or the reader pauses, Retain.
class Reader {
 public:
  Reader(std::uint32_t max, std::size_t switch_after, std::uint32_t max_after,
         std::uint32_t seed)
      : decoder_(switch_after == 0 ? max_after : max),
        switch_after_(switch_after),
        max_after_(max_after),
        rng_(seed) {}

  bool done(const std::string& s) const { return fed_ == s.size(); }

  void ReadChunk(const std::string& s, const Expected& e) {
    const std::size_t left = s.size() - fed_;
    std::size_t n = std::uniform_int_distribution<std::size_t>(1, 64)(rng_);
    if (rng_() % 8 == 0) n = left;  // sometimes everything at once
    n = std::min(n, left);
    std::size_t available = 0;
    char* space = decoder_.WritableSpace(n, &available);
    Check(available >= n, "WritableSpace gave less than asked");
    std::memcpy(space, s.data() + fed_, n);
    decoder_.Commit(n);
    fed_ += n;
    // A paused reader stops between frames; the rest waits for the next read.
    const int budget = rng_() % 4 == 0 ? static_cast<int>(rng_() % 3) : 1 << 20;
    Drain(e, budget);
    decoder_.Retain();
  }

  void Finish(const Expected& e) {
    Drain(e, 1 << 20);
    Check(got_ == e.frames.size(), "decoder yielded fewer frames than the reference");
    Check(last_ == e.end, "decoder ended in another state than the reference");
    if (e.end == Result::kOversized) {
      Check(decoder_.last_length() == e.last_length, "kOversized with another length");
    }
    if (e.end == Result::kNeedMore) {
      Check(decoder_.buffered_bytes() == e.left_over, "left-over bytes differ");
    }
    // Errors are final.
    wire::Frame f;
    if (e.end != Result::kNeedMore) Check(decoder_.Next(&f) == e.end, "an error was not final");
  }

 private:
  void Drain(const Expected& e, int budget) {
    wire::Frame frame;
    bool waiting = false;
    for (int i = 0; i < budget; ++i) {
      last_ = decoder_.Next(&frame);
      waiting = last_ == Result::kNeedMore;
      if (last_ != Result::kFrame) break;
      Check(got_ < e.frames.size(), "decoder yielded a frame the reference did not");
      Check(frame.SerializeAsString() == e.frames[got_], "decoder yielded another frame");
      ++got_;
      if (got_ == switch_after_) decoder_.set_max_frame_bytes(max_after_);
    }
    if (waiting) {
      Check(decoder_.buffered_bytes() < wire::kFrameHeaderBytes + decoder_.max_frame_bytes(),
            "a decoder waiting for more holds more than one frame");
    }
    if (last_ == Result::kOversized || last_ == Result::kMalformed) {
      Check(got_ == e.frames.size() && last_ == e.end, "decoder failed where the reference did not");
    }
  }

  wire::FrameDecoder decoder_;
  std::size_t switch_after_;
  std::uint32_t max_after_;
  std::minstd_rand rng_;
  std::size_t fed_ = 0;
  std::size_t got_ = 0;
  Result last_ = Result::kNeedMore;
};

}  // namespace
}  // namespace trestle::fuzz

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  google::protobuf::SetLogHandler(nullptr);  // "invalid UTF-8" on most inputs: expected here
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace trestle::fuzz;
  ByteReader in(data, size);
  const std::uint32_t max = MaxFrom(in.Byte());
  const std::size_t switch_after = in.Byte();
  const std::uint32_t max_after = MaxFrom(in.Byte());
  std::uint32_t seeds[2];
  for (std::uint32_t& seed : seeds) {
    seed = 1;
    for (int i = 0; i < 4; ++i) seed = seed * 257 + in.Byte();
  }
  const std::string stream = in.Bytes(size);
  const Expected expected = Reference(stream, max, switch_after, max_after);
  Reader a(max, switch_after, max_after, seeds[0]);
  Reader b(max, switch_after, max_after, seeds[1]);
  while (!a.done(stream) || !b.done(stream)) {
    if (!a.done(stream)) a.ReadChunk(stream, expected);
    if (!b.done(stream)) b.ReadChunk(stream, expected);
  }
  a.Finish(expected);
  b.Finish(expected);
  return 0;
}
