#include "collective_plan.h"

#include <bit>
#include <functional>

#include "absl/strings/str_cat.h"

namespace trestle::mpi {
namespace {

// Labels of the messages a recursive-doubling allreduce exchanges outside
// its rounds (round k is label k).
constexpr std::int32_t kFoldIn = 1000;
constexpr std::int32_t kResultBack = 1001;

bool PowerOfTwo(int n) { return n > 0 && std::has_single_bit(static_cast<unsigned>(n)); }

absl::Status Unknown(const char* collective, Algorithm algorithm) {
  return absl::InvalidArgumentError(absl::StrCat(collective, " has no algorithm '",
                                                 AlgorithmName(algorithm), "'"));
}

absl::Status NeedsPowerOfTwo(const char* collective, int size) {
  return absl::InvalidArgumentError(absl::StrCat(
      collective, " by recursive-doubling needs a power-of-two number of ranks, not ", size));
}

// One step: send `bytes` to `to`, receive from `from`, both labelled `label`.
PlanStep Exchange(int to, int from, std::uint64_t bytes, std::int32_t label,
                  std::uint64_t reduce_bytes = 0) {
  PlanStep step;
  step.sends.push_back({to, bytes, label});
  step.recvs.push_back({from, label});
  step.reduce_bytes = reduce_bytes;
  return step;
}

// One step between the root and every other rank at once: each sends the
// root its bytes (to_root), or the root sends each its bytes.
CollectivePlan LinearRooted(int rank, int size, int root, const std::vector<std::uint64_t>& bytes,
                            bool to_root) {
  CollectivePlan plan;
  if (size == 1) return plan;
  PlanStep step;
  for (int r = 0; r < size; ++r) {
    if (r == root || (rank != root && r != rank)) continue;
    if (to_root == (rank == root)) {
      step.recvs.push_back({rank == root ? r : root, 0});
    } else {
      step.sends.push_back({rank == root ? r : root, bytes[r], 0});
    }
  }
  plan.push_back(std::move(step));
  return plan;
}

// The ring's reduce-scatter, appended to *plan: in step s rank r passes its
// partial of block first - s to r+1 and reduces block first - s - 1 from
// r-1 into its own, so it ends holding block first + 1, fully reduced.
// Labels 0 .. N-2.
void RingReduceScatter(CollectivePlan* plan, int rank, int size, int first,
                       const std::function<std::uint64_t(int block)>& block_bytes) {
  const int next = (rank + 1) % size;
  const int prev = (rank - 1 + size) % size;
  for (int s = 0; s < size - 1; ++s) {
    const int sent = ((first - s) % size + size) % size;
    const int taken = ((first - s - 1) % size + size) % size;
    plan->push_back(Exchange(next, prev, block_bytes(sent), s, block_bytes(taken)));
  }
}

}  // namespace

const char* AlgorithmName(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::kAuto: return "auto";
    case Algorithm::kRing: return "ring";
    case Algorithm::kRecursiveDoubling: return "recursive-doubling";
    case Algorithm::kDissemination: return "dissemination";
    case Algorithm::kBinomial: return "binomial";
    case Algorithm::kLinear: return "linear";
    case Algorithm::kPairwise: return "pairwise";
  }
  return "?";
}

int BinomialParent(int rank, int size, int root) {
  const int vrank = (rank - root + size) % size;
  if (vrank == 0) return -1;
  const int mask = vrank & -vrank;  // the lowest set bit
  return (vrank - mask + root) % size;
}

std::vector<int> BinomialChildren(int rank, int size, int root) {
  const int vrank = (rank - root + size) % size;
  // Children are vrank + m for every power of two m below vrank's lowest set
  // bit (below `size` for the root), largest first.
  int limit = vrank == 0 ? static_cast<int>(std::bit_ceil(static_cast<unsigned>(size)))
                         : (vrank & -vrank);
  std::vector<int> children;
  for (int mask = limit >> 1; mask > 0; mask >>= 1) {
    if (vrank + mask < size) children.push_back((vrank + mask + root) % size);
  }
  return children;
}

absl::StatusOr<CollectivePlan> BarrierPlan(Algorithm algorithm, int rank, int size) {
  CollectivePlan plan;
  if (algorithm == Algorithm::kRecursiveDoubling) {
    if (!PowerOfTwo(size)) return NeedsPowerOfTwo("barrier", size);
    for (int mask = 1, k = 0; mask < size; mask <<= 1, ++k) {
      plan.push_back(Exchange(rank ^ mask, rank ^ mask, 0, k));
    }
    return plan;
  }
  if (algorithm != Algorithm::kDissemination) return Unknown("barrier", algorithm);
  for (int dist = 1, k = 0; dist < size; dist <<= 1, ++k) {
    plan.push_back(Exchange((rank + dist) % size, (rank - dist + size) % size, 0, k));
  }
  return plan;
}

absl::StatusOr<CollectivePlan> BcastPlan(Algorithm algorithm, int rank, int size, int root,
                                         std::uint64_t bytes) {
  if (algorithm == Algorithm::kLinear) {
    return ScatterPlan(rank, size, root, std::vector<std::uint64_t>(size, bytes));
  }
  if (algorithm != Algorithm::kBinomial) return Unknown("bcast", algorithm);
  CollectivePlan plan;
  if (size == 1) return plan;
  if (const int parent = BinomialParent(rank, size, root); parent >= 0) {
    PlanStep from_parent;
    from_parent.recvs.push_back({parent, 0});
    plan.push_back(std::move(from_parent));
  }
  PlanStep to_children;
  for (int child : BinomialChildren(rank, size, root)) to_children.sends.push_back({child, bytes, 0});
  if (!to_children.sends.empty()) plan.push_back(std::move(to_children));
  return plan;
}

absl::StatusOr<CollectivePlan> ReducePlan(Algorithm algorithm, int rank, int size, int root,
                                          std::uint64_t bytes) {
  if (algorithm == Algorithm::kLinear) {
    absl::StatusOr<CollectivePlan> plan =
        GatherPlan(rank, size, root, std::vector<std::uint64_t>(size, bytes));
    if (plan.ok() && rank == root && !plan->empty()) {
      plan->front().reduce_bytes = bytes * static_cast<std::uint64_t>(size - 1);
    }
    return plan;
  }
  if (algorithm != Algorithm::kBinomial) return Unknown("reduce", algorithm);
  CollectivePlan plan;
  if (size == 1) return plan;
  const std::vector<int> children = BinomialChildren(rank, size, root);
  if (!children.empty()) {
    PlanStep from_children;
    for (int child : children) from_children.recvs.push_back({child, 0});
    from_children.reduce_bytes = bytes * children.size();
    plan.push_back(std::move(from_children));
  }
  if (const int parent = BinomialParent(rank, size, root); parent >= 0) {
    PlanStep to_parent;
    to_parent.sends.push_back({parent, bytes, 0});
    plan.push_back(std::move(to_parent));
  }
  return plan;
}

absl::StatusOr<CollectivePlan> AllreducePlan(Algorithm algorithm, int rank, int size,
                                             std::uint64_t count, std::uint64_t element_bytes) {
  CollectivePlan plan;
  if (size == 1) return plan;
  const std::uint64_t bytes = count * element_bytes;
  if (algorithm == Algorithm::kRing) {
    const auto n = static_cast<std::uint64_t>(size);
    // Block i holds count / N elements, one more for the first count % N.
    auto block = [&](int i) {
      return (count / n + (static_cast<std::uint64_t>(i) < count % n ? 1 : 0)) * element_bytes;
    };
    const int next = (rank + 1) % size;
    const int prev = (rank - 1 + size) % size;
    RingReduceScatter(&plan, rank, size, rank, block);  // ends holding block rank + 1
    for (int t = 0; t < size - 1; ++t) {  // allgather
      const int sent = (rank + 1 - t + 2 * size) % size;
      plan.push_back(Exchange(next, prev, block(sent), size - 1 + t));
    }
    return plan;
  }
  if (algorithm != Algorithm::kRecursiveDoubling) return Unknown("allreduce", algorithm);
  const int p2 = static_cast<int>(std::bit_floor(static_cast<unsigned>(size)));
  const int extra = size - p2;
  int vrank = rank - extra;
  if (rank < 2 * extra) {
    if (rank % 2 == 0) {  // folds in, then waits for the result
      PlanStep fold;
      fold.sends.push_back({rank + 1, bytes, kFoldIn});
      plan.push_back(std::move(fold));
      PlanStep back;
      back.recvs.push_back({rank + 1, kResultBack});
      plan.push_back(std::move(back));
      return plan;
    }
    PlanStep fold;
    fold.recvs.push_back({rank - 1, kFoldIn});
    fold.reduce_bytes = bytes;
    plan.push_back(std::move(fold));
    vrank = rank / 2;
  }
  auto real_rank = [&](int v) { return v < extra ? 2 * v + 1 : v + extra; };
  for (int mask = 1, k = 0; mask < p2; mask <<= 1, ++k) {
    const int partner = real_rank(vrank ^ mask);
    plan.push_back(Exchange(partner, partner, bytes, k, bytes));
  }
  if (rank < 2 * extra) {
    PlanStep back;
    back.sends.push_back({rank - 1, bytes, kResultBack});
    plan.push_back(std::move(back));
  }
  return plan;
}

absl::StatusOr<CollectivePlan> AllgatherPlan(Algorithm algorithm, int rank, int size,
                                             std::uint64_t block_bytes) {
  if (algorithm == Algorithm::kRing) {
    return AllgathervPlan(rank, size, std::vector<std::uint64_t>(size, block_bytes));
  }
  if (algorithm != Algorithm::kRecursiveDoubling) return Unknown("allgather", algorithm);
  CollectivePlan plan;
  if (!PowerOfTwo(size)) return NeedsPowerOfTwo("allgather", size);
  for (int mask = 1, k = 0; mask < size; mask <<= 1, ++k) {
    plan.push_back(Exchange(rank ^ mask, rank ^ mask, block_bytes * mask, k));
  }
  return plan;
}

absl::StatusOr<CollectivePlan> AlltoallPlan(Algorithm algorithm, int rank, int size,
                                            std::uint64_t block_bytes) {
  if (algorithm != Algorithm::kPairwise && algorithm != Algorithm::kLinear) {
    return Unknown("alltoall", algorithm);
  }
  return AlltoallvPlan(algorithm, rank, size, std::vector<std::uint64_t>(size, block_bytes));
}

absl::StatusOr<CollectivePlan> GatherPlan(int rank, int size, int root,
                                          const std::vector<std::uint64_t>& bytes) {
  return LinearRooted(rank, size, root, bytes, /*to_root=*/true);
}

absl::StatusOr<CollectivePlan> ScatterPlan(int rank, int size, int root,
                                           const std::vector<std::uint64_t>& bytes) {
  return LinearRooted(rank, size, root, bytes, /*to_root=*/false);
}

absl::StatusOr<CollectivePlan> AllgathervPlan(int rank, int size,
                                              const std::vector<std::uint64_t>& bytes) {
  CollectivePlan plan;
  for (int s = 0; s < size - 1; ++s) {
    plan.push_back(Exchange((rank + 1) % size, (rank - 1 + size) % size,
                            bytes[(rank - s + size) % size], s));
  }
  return plan;
}

absl::StatusOr<CollectivePlan> AlltoallvPlan(Algorithm algorithm, int rank, int size,
                                             const std::vector<std::uint64_t>& to) {
  CollectivePlan plan;
  if (algorithm == Algorithm::kPairwise) {
    for (int s = 1; s < size; ++s) {
      plan.push_back(Exchange((rank + s) % size, (rank - s + size) % size, to[(rank + s) % size], s));
    }
    return plan;
  }
  if (algorithm != Algorithm::kLinear) return Unknown("alltoallv", algorithm);
  if (size == 1) return plan;
  PlanStep step;
  for (int s = 1; s < size; ++s) {
    step.sends.push_back({(rank + s) % size, to[(rank + s) % size], 0});
    step.recvs.push_back({(rank - s + size) % size, 0});
  }
  plan.push_back(std::move(step));
  return plan;
}

absl::StatusOr<CollectivePlan> ScanPlan(int rank, int size, std::uint64_t bytes, bool exclusive) {
  CollectivePlan plan;
  if (rank > 0) {
    PlanStep from_below;
    from_below.recvs.push_back({rank - 1, 0});
    // Scan combines at every rank but 0; exscan only to pass it on.
    if (!exclusive || rank + 1 < size) from_below.reduce_bytes = bytes;
    plan.push_back(std::move(from_below));
  }
  if (rank + 1 < size) {
    PlanStep up;
    up.sends.push_back({rank + 1, bytes, 0});
    plan.push_back(std::move(up));
  }
  return plan;
}

absl::StatusOr<CollectivePlan> ReduceScatterPlan(int rank, int size,
                                                 const std::vector<std::uint64_t>& bytes) {
  CollectivePlan plan;
  RingReduceScatter(&plan, rank, size, rank - 1, [&](int block) { return bytes[block]; });
  return plan;
}

}  // namespace trestle::mpi
