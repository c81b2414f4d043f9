// Appends length-prefixed frames to a byte buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "trestle.pb.h"
#include "trestle/wire/output_buffer.h"

namespace trestle::wire {

// Appends `frame` to `out` as one length-prefixed frame and returns the
// number of bytes appended (header included). The caller owns `out`; the
// encoder keeps no state, so one buffer can collect many frames and be
// written with a single system call.
std::size_t AppendFrame(const Frame& frame, std::string* out);
// The same, tagged with `lane` (Frame.lane; 0: as AppendFrame) without
// copying or changing `frame`: the field is appended to its encoding.
std::size_t AppendFrame(const Frame& frame, std::uint32_t lane, std::string* out);
// The same into an OutputBuffer, each byte written once.
std::size_t AppendFrame(const Frame& frame, std::uint32_t lane, OutputBuffer* out);

// The encoded size of `frame`, header included, without encoding it.
std::size_t EncodedFrameSize(const Frame& frame);

}  // namespace trestle::wire
