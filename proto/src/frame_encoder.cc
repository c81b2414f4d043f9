#include "trestle/wire/frame_encoder.h"

#include <cstdint>

#include "trestle/wire/frame_format.h"

namespace trestle::wire {

std::size_t AppendFrame(const Frame& frame, std::string* out) {
  const std::size_t body = frame.ByteSizeLong();
  const std::size_t offset = out->size();
  out->resize(offset + kFrameHeaderBytes + body);
  auto* p = reinterpret_cast<std::uint8_t*>(out->data() + offset);
  p[0] = static_cast<std::uint8_t>(body >> 24);
  p[1] = static_cast<std::uint8_t>(body >> 16);
  p[2] = static_cast<std::uint8_t>(body >> 8);
  p[3] = static_cast<std::uint8_t>(body);
  frame.SerializeWithCachedSizesToArray(p + kFrameHeaderBytes);
  return kFrameHeaderBytes + body;
}

std::size_t AppendFrame(const Frame& frame, std::uint32_t lane, std::string* out) {
  if (lane == 0) return AppendFrame(frame, out);
  // Frame.lane: field 30, varint. A field that comes after the others in an
  // encoding is parsed as if it were in its place.
  std::uint8_t tail[10];
  std::size_t n = 0;
  for (std::uint32_t v : {static_cast<std::uint32_t>(Frame::kLaneFieldNumber) << 3, lane}) {
    for (; v >= 0x80; v >>= 7) tail[n++] = static_cast<std::uint8_t>((v & 0x7f) | 0x80);
    tail[n++] = static_cast<std::uint8_t>(v);
  }
  const std::size_t offset = out->size();
  const std::size_t written = AppendFrame(frame, out);
  const std::size_t body = written - kFrameHeaderBytes + n;
  auto* p = reinterpret_cast<std::uint8_t*>(out->data() + offset);
  p[0] = static_cast<std::uint8_t>(body >> 24);
  p[1] = static_cast<std::uint8_t>(body >> 16);
  p[2] = static_cast<std::uint8_t>(body >> 8);
  p[3] = static_cast<std::uint8_t>(body);
  out->append(reinterpret_cast<const char*>(tail), n);
  return written + n;
}

std::size_t EncodedFrameSize(const Frame& frame) {
  return kFrameHeaderBytes + frame.ByteSizeLong();
}

}  // namespace trestle::wire
