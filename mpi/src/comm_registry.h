// CommRegistry: the communicators libtrestle-mpi models, by handle.
//
// Each has an id that every member computes alike, without talking:
// MPI_COMM_WORLD is 1, MPI_COMM_SELF of world rank K is ChildId(2, 0, K),
// and a communicator made from a parent by the parent's collective creation
// call number `instance` is ChildId(parent id, instance, world rank of its
// rank 0) (members of one new communicator share all three; distinct new
// communicators of one call have distinct first ranks). Mirrors carry the
// id. Each also has a shadow: a duplicate on which the layer's own
// point-to-point traffic (a bcast's data) never meets the program's.
//
// Single-threaded (the rank's main thread).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace trestle::mpi {

struct CommState {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm shadow = MPI_COMM_NULL;  // MPI_COMM_NULL for the predefined ones until Start
  std::uint64_t id = 0;
  int rank = 0;
  int size = 0;
  std::vector<int> world_of;  // comm rank -> world rank
  absl::flat_hash_map<int, int> rank_of_world;  // world rank -> comm rank
  // Point-to-point messages sent to each comm rank (the next one's number).
  std::vector<std::uint32_t> sent_to;
  // Collectives (and creations) begun on it: the next one's instance.
  std::uint32_t instances = 0;
};

class CommRegistry {
 public:
  static constexpr std::uint64_t kWorldId = 1;
  static std::uint64_t ChildId(std::uint64_t parent, std::uint32_t instance, int first_world_rank);

  // Registers `comm` (rank, size and world ranks read from MPI) with its
  // shadow; replaces an earlier entry of the same handle.
  CommState& Add(MPI_Comm comm, MPI_Comm shadow, std::uint64_t id);
  CommState* Find(MPI_Comm comm) const;
  // Forgets `comm` and frees its shadow.
  void Remove(MPI_Comm comm);
  // Frees every shadow (at MPI_Finalize).
  void Clear();

 private:
  absl::flat_hash_map<MPI_Comm, std::unique_ptr<CommState>> comms_;
};

}  // namespace trestle::mpi
