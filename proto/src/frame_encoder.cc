#include "trestle/wire/frame_encoder.h"

#include <cstdint>
#include <cstring>

#include "trestle/wire/frame_format.h"

namespace trestle::wire {
namespace {

// The length prefix: the body's size, big-endian.
void WriteHeader(std::size_t body, std::uint8_t* p) {
  p[0] = static_cast<std::uint8_t>(body >> 24);
  p[1] = static_cast<std::uint8_t>(body >> 16);
  p[2] = static_cast<std::uint8_t>(body >> 8);
  p[3] = static_cast<std::uint8_t>(body);
}

// Frame.lane as the encoding's last field (a field after the others is
// parsed as if in its place): its tag and varint into `tail`; returns the
// bytes written (at most 10).
std::size_t LaneField(std::uint32_t lane, std::uint8_t* tail) {
  std::size_t n = 0;
  for (std::uint32_t v : {static_cast<std::uint32_t>(Frame::kLaneFieldNumber) << 3, lane}) {
    for (; v >= 0x80; v >>= 7) tail[n++] = static_cast<std::uint8_t>((v & 0x7f) | 0x80);
    tail[n++] = static_cast<std::uint8_t>(v);
  }
  return n;
}

}  // namespace

std::size_t AppendFrame(const Frame& frame, std::string* out) {
  return AppendFrame(frame, 0, out);
}

std::size_t AppendFrame(const Frame& frame, std::uint32_t lane, std::string* out) {
  std::uint8_t tail[10];
  const std::size_t n = lane == 0 ? 0 : LaneField(lane, tail);
  const std::size_t body = frame.ByteSizeLong();
  const std::size_t offset = out->size();
  out->resize(offset + kFrameHeaderBytes + body + n);
  auto* p = reinterpret_cast<std::uint8_t*>(out->data() + offset);
  WriteHeader(body + n, p);
  frame.SerializeWithCachedSizesToArray(p + kFrameHeaderBytes);
  if (n > 0) std::memcpy(p + kFrameHeaderBytes + body, tail, n);
  return kFrameHeaderBytes + body + n;
}

std::size_t AppendFrame(const Frame& frame, std::uint32_t lane, OutputBuffer* out) {
  std::uint8_t tail[10];
  const std::size_t n = lane == 0 ? 0 : LaneField(lane, tail);
  const std::size_t body = frame.ByteSizeLong();
  auto* p = reinterpret_cast<std::uint8_t*>(out->Extend(kFrameHeaderBytes + body + n));
  WriteHeader(body + n, p);
  frame.SerializeWithCachedSizesToArray(p + kFrameHeaderBytes);
  if (n > 0) std::memcpy(p + kFrameHeaderBytes + body, tail, n);
  return kFrameHeaderBytes + body + n;
}

std::size_t EncodedFrameSize(const Frame& frame) {
  return kFrameHeaderBytes + frame.ByteSizeLong();
}

}  // namespace trestle::wire
