#include "trestle/wire/frame_decoder.h"

#include <cstring>

#include "trestle/wire/frame_format.h"

namespace trestle::wire {

FrameDecoder::FrameDecoder(std::uint32_t max_frame_bytes)
    : max_frame_bytes_(max_frame_bytes) {}

char* FrameDecoder::WritableSpace(std::size_t min_bytes,
                                  std::size_t* available) {
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

FrameDecoder::Result FrameDecoder::Next(Frame* frame) {
  if (failed_ != Result::kNeedMore) return failed_;
  const std::size_t have = end_ - begin_;
  if (have < kFrameHeaderBytes) return Result::kNeedMore;
  const auto* p = reinterpret_cast<const std::uint8_t*>(buffer_.data() + begin_);
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
  if (begin_ == end_) begin_ = end_ = 0;
  return Result::kFrame;
}

}  // namespace trestle::wire
