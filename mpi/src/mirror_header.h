// MirrorHeader: what a mirrored MPI message carries through Trestle in
// place of its data. The real MPI moves the data; the bridge carries these
// 32 bytes with Send.model_size = the real message's size, so the network
// model prices the real size and the receiving rank can tell which real
// message, or which step of which collective, the mirror stands for.
//
// Layout (little-endian, fixed 32 bytes):
//   u8  kind        1: point to point, 2: a collective's step, 3: the
//                   end of a batch of collectives the simulator replayed
//                   (CollectiveBatch; sent to the rank itself, the
//                   fields below 0 but src_world and number: its batch's
//                   number)
//   u8  pad[3]
//   i32 src_world   the sender's rank in MPI_COMM_WORLD
//   u64 comm_id     the communicator's id (CommRegistry), equal on every member
//   i32 label       point to point: the MPI tag; collective: the step's label
//   u32 number      point to point: the message's number among the sender's
//                   messages to this receiver on this communicator (0, 1, ...);
//                   collective: the collective's instance on the communicator
//   u64 bytes       the real message's size
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace trestle::mpi {

struct MirrorHeader {
  enum class Kind : std::uint8_t { kPointToPoint = 1, kCollective = 2, kCollectivesEnd = 3 };
  static constexpr std::size_t kBytes = 32;

  Kind kind = Kind::kPointToPoint;
  std::int32_t src_world = 0;
  std::uint64_t comm_id = 0;
  std::int32_t label = 0;
  std::uint32_t number = 0;
  std::uint64_t bytes = 0;

  // Writes the 32 bytes into `out` (replacing what it held).
  void EncodeTo(std::string* out) const;
  // nullopt when `payload` is not a header: another length or kind.
  static std::optional<MirrorHeader> Decode(std::string_view payload);
};

}  // namespace trestle::mpi
