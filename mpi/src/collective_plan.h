// CollectivePlan: one rank's part of a collective algorithm, unrolled into
// the point-to-point messages it mirrors, step by step.
//
// In each step the rank sends its messages (all at its current virtual
// time), then waits for the step's incoming messages; a reduction step then
// charges the bytes it reduced (reduce_bytes) at the reduction bandwidth, if
// one is set. So a send depends on every message received in the steps
// before it, as in the real algorithm. Messages are matched by (label,
// peer): the sender's label for a message is the label its receiver waits
// for, whatever step each side is in.
//
// Peers are ranks in the collective's communicator; sizes are the real
// algorithm's bytes. The algorithms (and Open MPI's names for them):
//   barrier    recursive-doubling (N a power of two), dissemination (Bruck)
//   bcast      binomial (tree rooted at root, largest subtree first), linear
//   reduce     binomial (the bcast tree, children first), linear
//   allreduce  ring (reduce-scatter then allgather, 2(N-1) steps of one
//              block, blocks split by element), recursive-doubling (the
//              ranks beyond a power of two fold in first and get the result
//              back last)
//   allgather  ring (N-1 steps of one block), recursive-doubling (N a power
//              of two: 2^k blocks in step k)
//   alltoall   pairwise (N-1 steps, to r+s, from r-s), linear (all at once)
//   gather, scatter: linear; allgatherv: ring; alltoallv, alltoallw: as
//              alltoall
//   scan, exscan  linear (Open MPI's basic component): rank r takes the
//              prefix of the ranks below it from r-1, combines its own and
//              passes that on to r+1
//   reduce_scatter  ring (the first half of the ring allreduce, on the
//              blocks the ranks receive: rank r ends holding block r)
// Pure functions; no MPI.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"

namespace trestle::mpi {

enum class Algorithm : std::uint8_t {
  kAuto,  // chosen per call (AlgorithmChoice)
  kRing,
  kRecursiveDoubling,
  kDissemination,
  kBinomial,
  kLinear,
  kPairwise,
};
const char* AlgorithmName(Algorithm algorithm);

struct PlanSend {
  int peer = 0;
  std::uint64_t bytes = 0;
  std::int32_t label = 0;
};
struct PlanRecv {
  int peer = 0;
  std::int32_t label = 0;
};
struct PlanStep {
  std::vector<PlanSend> sends;
  std::vector<PlanRecv> recvs;
  std::uint64_t reduce_bytes = 0;
};
using CollectivePlan = std::vector<PlanStep>;

// Each returns rank `rank`'s plan in a communicator of `size` ranks, or
// InvalidArgument naming the algorithm and the problem (an algorithm the
// collective does not have, recursive doubling on a size that is not a
// power of two).
absl::StatusOr<CollectivePlan> BarrierPlan(Algorithm algorithm, int rank, int size);
absl::StatusOr<CollectivePlan> BcastPlan(Algorithm algorithm, int rank, int size, int root,
                                         std::uint64_t bytes);
absl::StatusOr<CollectivePlan> ReducePlan(Algorithm algorithm, int rank, int size, int root,
                                          std::uint64_t bytes);
// `count` elements of `element_bytes` each.
absl::StatusOr<CollectivePlan> AllreducePlan(Algorithm algorithm, int rank, int size,
                                             std::uint64_t count, std::uint64_t element_bytes);
// `block_bytes`: what each rank contributes (allgather) or sends to each
// rank (alltoall).
absl::StatusOr<CollectivePlan> AllgatherPlan(Algorithm algorithm, int rank, int size,
                                             std::uint64_t block_bytes);
absl::StatusOr<CollectivePlan> AlltoallPlan(Algorithm algorithm, int rank, int size,
                                            std::uint64_t block_bytes);

// The vector forms, and gather and scatter (linear: every rank to or from
// the root at once). `bytes[r]`: what rank r contributes (gather,
// allgatherv) or receives (scatter); alltoallv: `to[d]` what this rank
// sends rank d, `from[s]` what it receives from rank s.
absl::StatusOr<CollectivePlan> GatherPlan(int rank, int size, int root,
                                          const std::vector<std::uint64_t>& bytes);
absl::StatusOr<CollectivePlan> ScatterPlan(int rank, int size, int root,
                                           const std::vector<std::uint64_t>& bytes);
// Ring: N-1 steps, in step s rank r passes on block r-s.
absl::StatusOr<CollectivePlan> AllgathervPlan(int rank, int size,
                                              const std::vector<std::uint64_t>& bytes);
absl::StatusOr<CollectivePlan> AlltoallvPlan(Algorithm algorithm, int rank, int size,
                                             const std::vector<std::uint64_t>& to);

// Scan (inclusive) and exscan (`exclusive`) of `bytes` per rank.
absl::StatusOr<CollectivePlan> ScanPlan(int rank, int size, std::uint64_t bytes, bool exclusive);
// Reduce-scatter: `bytes[r]`, the block rank r receives.
absl::StatusOr<CollectivePlan> ReduceScatterPlan(int rank, int size,
                                                 const std::vector<std::uint64_t>& bytes);

// The binomial tree rooted at `root` (as MPICH and Open MPI build it): the
// parent of `rank` (-1 for the root) and its children, largest subtree
// first.
int BinomialParent(int rank, int size, int root);
std::vector<int> BinomialChildren(int rank, int size, int root);

}  // namespace trestle::mpi
