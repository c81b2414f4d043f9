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

std::size_t EncodedFrameSize(const Frame& frame) {
  return kFrameHeaderBytes + frame.ByteSizeLong();
}

}  // namespace trestle::wire
