// AlgorithmChoice: which algorithm each collective is mirrored as.
//
// TRESTLE_MPI_COLL (from `trestle mpirun --coll`) forces some, e.g.
// "allreduce=ring,bcast=binomial"; the rest are chosen per call as Open
// MPI's tuned component chooses among the algorithms modelled here (its
// classic fixed decision rules; where Open MPI would segment or pipeline,
// the unsegmented algorithm stands in):
//   barrier    recursive-doubling for a power-of-two size, else dissemination
//   bcast      binomial
//   reduce     linear below 512 bytes with fewer than 20 ranks (or up to
//              1 KiB with fewer than 10), else binomial
//   allreduce  recursive-doubling below 10,000 bytes or for an operation
//              that does not commute, else ring
//   allgather  recursive-doubling below 50,000 bytes in all for a
//              power-of-two size, else ring
//   alltoall   linear below 3,000 bytes per rank, else pairwise (alltoallv
//              likewise, on its average block)
// Gather, scatter and their vector forms are linear, allgatherv a ring.
#pragma once

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "collective_plan.h"

namespace trestle::mpi {

enum class Collective : std::uint8_t { kBarrier, kBcast, kReduce, kAllreduce, kAllgather, kAlltoall };
inline constexpr int kCollectiveCount = 6;
const char* CollectiveName(Collective collective);

class AlgorithmChoice {
 public:
  // Parses "name=algorithm,..." (empty: every collective automatic).
  // InvalidArgument naming the entry: not name=algorithm, an unknown
  // collective, or an algorithm that collective does not have.
  static absl::StatusOr<AlgorithmChoice> Parse(std::string_view text);

  // The algorithm for one call: the forced one, or the rule above for
  // `bytes` (bcast, reduce, allreduce: the message; allgather: one rank's
  // block; alltoall: the block per rank) on `size` ranks.
  Algorithm For(Collective collective, int size, std::uint64_t bytes, bool commutative) const;
  Algorithm forced(Collective collective) const {
    return forced_[static_cast<int>(collective)];
  }

 private:
  Algorithm forced_[kCollectiveCount] = {Algorithm::kAuto, Algorithm::kAuto, Algorithm::kAuto,
                                         Algorithm::kAuto, Algorithm::kAuto, Algorithm::kAuto};
};

}  // namespace trestle::mpi
