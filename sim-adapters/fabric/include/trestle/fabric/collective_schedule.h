// CollectiveSchedule: a collective algorithm unrolled into the steps every
// rank takes, independent of topology and message size.
//
// Ranks 0..N-1 each send one message per step; all ranks' messages in a step
// travel at once, and a step ends when its slowest message arrives. A step
// names its communication pattern (rank i sends to i + d mod N, or to i XOR m)
// and its message size as a fraction m/d of the collective's size S, where
// S is the size of the full vector (allreduce input, allgather output,
// reducescatter input, alltoall send buffer per rank): ceil(m × S / d)
// bytes, in integers.
//
//   ring               allreduce = reducescatter + allgather, each N-1 steps
//                      of S/N to i+1; alltoall: N-1 steps to i+1 carrying
//                      (N-s)·S/N² (data relayed round the ring).
//   halving-doubling   reducescatter: log2 N steps, partner i^(N/2^(s+1)),
//                      S/2^(s+1); allgather: the reverse; alltoall: log2 N
//                      steps of S/2 to i^2^s. Needs N a power of two.
//   direct             N-1 steps, partner i+s, S/N each (allreduce: both
//                      halves); alltoall likewise.
// Reduce steps (those of reducescatter, and allreduce's first half) also
// charge the receiver size/reduce-bandwidth.
#ifndef TRESTLE_FABRIC_COLLECTIVE_SCHEDULE_H_
#define TRESTLE_FABRIC_COLLECTIVE_SCHEDULE_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace trestle::fabric {

enum class Collective { kAllReduce, kAllGather, kReduceScatter, kAllToAll };
enum class CollectiveAlgorithm { kRing, kHalvingDoubling, kDirect };

absl::StatusOr<Collective> ParseCollective(std::string_view text);
std::string_view CollectiveName(Collective collective);
absl::StatusOr<CollectiveAlgorithm> ParseCollectiveAlgorithm(std::string_view text);
std::string_view CollectiveAlgorithmName(CollectiveAlgorithm algorithm);

// Who rank i sends to in a step.
struct StepPattern {
  enum class Kind : std::uint8_t { kShift, kXor } kind = Kind::kShift;
  std::uint32_t operand = 1;
  std::uint32_t PartnerOf(std::uint32_t rank, std::uint32_t ranks) const {
    return kind == Kind::kShift ? (rank + operand) % ranks : rank ^ operand;
  }
  bool operator==(const StepPattern& other) const {
    return kind == other.kind && operand == other.operand;
  }
  bool operator!=(const StepPattern& other) const { return !(*this == other); }
};

struct CollectiveStep {
  StepPattern pattern;
  std::uint64_t numerator = 1;    // a message is numerator / denominator of S
  std::uint64_t denominator = 1;
  bool reduce = false;
  std::uint32_t repeat = 1;  // Identical consecutive steps, counted once.

  // Message bytes for a collective of `size` bytes: ceil(numerator × size /
  // denominator), exactly (numerator × denominator below 2^64).
  std::uint64_t BytesFor(std::uint64_t size) const {
    const std::uint64_t whole = size / denominator;
    const std::uint64_t rest = size % denominator;
    return numerator * whole + (numerator * rest + denominator - 1) / denominator;
  }
};

class CollectiveSchedule {
 public:
  // Errors: halving-doubling with N not a power of two; N == 0.
  static absl::StatusOr<CollectiveSchedule> Build(Collective collective,
                                                  CollectiveAlgorithm algorithm,
                                                  std::uint32_t ranks);

  std::uint32_t ranks() const { return ranks_; }
  const std::vector<CollectiveStep>& steps() const { return steps_; }

 private:
  // Appends reduce-scatter (reduce) or all-gather (!reduce) steps.
  void AddHalf(CollectiveAlgorithm algorithm, bool reduce);
  void AddAllToAll(CollectiveAlgorithm algorithm);

  std::uint32_t ranks_ = 0;
  std::vector<CollectiveStep> steps_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_COLLECTIVE_SCHEDULE_H_
