// The floor's frames (`trestle bench --floor`): a length prefix and nothing
// else that a relay needs to parse.
//
// On every floor connection a frame is
//   uint32 length   big-endian, the number of body bytes that follow
//   body            `length` bytes
// The first frame a connection sends is its hello: a body of exactly 4
// bytes, the sender's identity (an app index, or kEchoIdentity). Every later
// body is a FloorHeader followed by the payload. The header carries the
// destination the relay routes on and the stage stamps, at fixed offsets, in
// host byte order (every process of a run is on one machine); the relay and
// the echo write their stamps in place. Nothing is serialized, nothing is
// looked up by name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace trestle::bench {

inline constexpr std::size_t kFloorLengthBytes = 4;
inline constexpr std::uint32_t kFloorMaxBody = 16u << 20;
inline constexpr std::size_t kFloorHelloBytes = 4;
inline constexpr std::uint32_t kEchoIdentity = 0xffffffffu;

// The stamps mirror trestle.wire.Stamps, with the floor relay in the
// daemon's place and the floor echo in the simulator's.
struct FloorHeader {
  std::uint32_t dst = 0;  // destination app index
  std::uint32_t src = 0;  // sending app index
  std::uint64_t id = 0;   // the sending generator's message id
  std::uint64_t app_sent = 0;
  std::uint64_t relay_accepted = 0;   // relay parsed it from the app
  std::uint64_t relay_handed = 0;     // relay queued it to the echo
  std::uint64_t echo_posted = 0;      // echo queued it back
  std::uint64_t relay_delivered = 0;  // relay queued it to the destination
};
inline constexpr std::size_t kFloorHeaderBytes = sizeof(FloorHeader);
static_assert(kFloorHeaderBytes == 56, "no padding: the header is copied as bytes");

// Offsets of the fields the relay and the echo stamp in place.
inline constexpr std::size_t kFloorRelayAcceptedAt = offsetof(FloorHeader, relay_accepted);
inline constexpr std::size_t kFloorRelayHandedAt = offsetof(FloorHeader, relay_handed);
inline constexpr std::size_t kFloorEchoPostedAt = offsetof(FloorHeader, echo_posted);
inline constexpr std::size_t kFloorRelayDeliveredAt = offsetof(FloorHeader, relay_delivered);

inline void PutFloorStamp(char* body, std::size_t offset, std::uint64_t value) {
  std::memcpy(body + offset, &value, sizeof(value));
}

inline std::uint32_t FloorDestination(const char* body) {
  std::uint32_t dst = 0;
  std::memcpy(&dst, body + offsetof(FloorHeader, dst), sizeof(dst));
  return dst;
}

}  // namespace trestle::bench
