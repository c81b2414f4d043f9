// Frame format constants shared by FrameEncoder and FrameDecoder.
//
// A frame on a Trestle socket is:
//   uint32 length   big-endian, the number of body bytes that follow
//   body            `length` bytes: one serialized trestle.wire.Frame
// A length above the receiver's configured maximum is a protocol error that
// is detected before any body byte is buffered. See docs/protocol.md.
#pragma once

#include <cstddef>
#include <cstdint>

namespace trestle::wire {

inline constexpr std::size_t kFrameHeaderBytes = 4;
inline constexpr std::uint32_t kProtocolVersion = 1;
// Default ceiling on a frame body; daemon and clients may configure another.
inline constexpr std::uint32_t kDefaultMaxFrameBytes = 16u * 1024 * 1024;
// Smallest maximum a deployment may configure: room for Hello and Error.
inline constexpr std::uint32_t kMinMaxFrameBytes = 1024;
// Client ids (Hello.client_id) and destinations (Send.dst) are 1 to this
// many bytes: with them, every field of a batch item is bounded, so batches
// can be bounded by bytes.
inline constexpr std::size_t kMaxClientIdBytes = 255;
// Send.model_size is at most this many bytes (1 PiB): a modelled transfer
// time stays far below 2^64 ns even over a 1 Mbit/s link.
inline constexpr std::uint64_t kMaxModelSizeBytes = std::uint64_t{1} << 50;
// PULL: how many Fetch (or Receive) requests may wait at once per session.
// Two let a client ask again before its previous answer arrives, so work that
// comes in meanwhile does not wait for the round trip.
inline constexpr std::uint32_t kMaxWaitingPolls = 2;
// Lanes (Frame.lane): sessions one multiplexed connection may carry, over
// its life (a lane once closed is not opened again).
inline constexpr std::size_t kMaxLanesPerConnection = 65536;

}  // namespace trestle::wire
