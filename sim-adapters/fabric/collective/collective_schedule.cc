#include "trestle/fabric/collective_schedule.h"

#include <algorithm>
#include <bit>

#include "absl/status/status.h"
#include "common/text.h"
#include "trestle/platform/enum_names.h"

namespace trestle::fabric {
namespace {

using Kind = StepPattern::Kind;

constexpr platform::EnumName<Collective> kCollectiveNames[] = {
    {Collective::kAllReduce, "allreduce"},
    {Collective::kAllGather, "allgather"},
    {Collective::kReduceScatter, "reducescatter"},
    {Collective::kAllToAll, "alltoall"},
};

constexpr platform::EnumName<CollectiveAlgorithm> kAlgorithmNames[] = {
    {CollectiveAlgorithm::kRing, "ring"},
    {CollectiveAlgorithm::kHalvingDoubling, "halving-doubling"},
    {CollectiveAlgorithm::kDirect, "direct"},
};

}  // namespace

absl::StatusOr<Collective> ParseCollective(std::string_view text) {
  return platform::EnumNames<Collective>(kCollectiveNames).Parse(text, "collective");
}

std::string_view CollectiveName(Collective collective) {
  return platform::EnumNames<Collective>(kCollectiveNames).Name(collective);
}

absl::StatusOr<CollectiveAlgorithm> ParseCollectiveAlgorithm(std::string_view text) {
  return platform::EnumNames<CollectiveAlgorithm>(kAlgorithmNames).Parse(text, "algorithm");
}

std::string_view CollectiveAlgorithmName(CollectiveAlgorithm algorithm) {
  return platform::EnumNames<CollectiveAlgorithm>(kAlgorithmNames).Name(algorithm);
}

absl::StatusOr<CollectiveSchedule> CollectiveSchedule::Build(Collective collective,
                                                             CollectiveAlgorithm algorithm,
                                                             std::uint32_t ranks) {
  if (ranks == 0) return absl::InvalidArgumentError("a collective needs at least one rank");
  if (algorithm == CollectiveAlgorithm::kHalvingDoubling && !std::has_single_bit(ranks)) {
    return absl::InvalidArgumentError(internal::Concat(
        "halving-doubling needs a power-of-two number of ranks, not ", ranks));
  }
  CollectiveSchedule schedule;
  schedule.ranks_ = ranks;
  if (ranks == 1) return schedule;  // Nothing to send.
  switch (collective) {
    case Collective::kAllReduce:
      schedule.AddHalf(algorithm, /*reduce=*/true);
      schedule.AddHalf(algorithm, /*reduce=*/false);
      break;
    case Collective::kAllGather: schedule.AddHalf(algorithm, /*reduce=*/false); break;
    case Collective::kReduceScatter: schedule.AddHalf(algorithm, /*reduce=*/true); break;
    case Collective::kAllToAll: schedule.AddAllToAll(algorithm); break;
  }
  return schedule;
}

// Reduce-scatter and all-gather mirror each other: the same partners and
// sizes, halving-doubling in opposite orders, and only reduce-scatter reduces.
void CollectiveSchedule::AddHalf(CollectiveAlgorithm algorithm, bool reduce) {
  const std::uint32_t n = ranks_;
  switch (algorithm) {
    case CollectiveAlgorithm::kRing:
      steps_.push_back({{Kind::kShift, 1}, 1, n, reduce, n - 1});
      return;
    case CollectiveAlgorithm::kHalvingDoubling: {
      std::vector<CollectiveStep> half;
      for (std::uint32_t span = 1; span < n; span *= 2) {
        half.push_back({{Kind::kXor, span}, span, n, reduce, 1});
      }
      if (reduce) std::reverse(half.begin(), half.end());
      steps_.insert(steps_.end(), half.begin(), half.end());
      return;
    }
    case CollectiveAlgorithm::kDirect:
      for (std::uint32_t d = 1; d < n; ++d) {
        steps_.push_back({{Kind::kShift, d}, 1, n, reduce, 1});
      }
      return;
  }
}

void CollectiveSchedule::AddAllToAll(CollectiveAlgorithm algorithm) {
  const std::uint32_t n = ranks_;
  const std::uint64_t nn = static_cast<std::uint64_t>(n) * n;
  switch (algorithm) {
    case CollectiveAlgorithm::kRing:
      for (std::uint32_t s = 1; s < n; ++s) {
        steps_.push_back({{Kind::kShift, 1}, n - s, nn, false, 1});
      }
      return;
    case CollectiveAlgorithm::kHalvingDoubling:
      for (std::uint32_t span = 1; span < n; span *= 2) {
        steps_.push_back({{Kind::kXor, span}, 1, 2, false, 1});
      }
      return;
    case CollectiveAlgorithm::kDirect:
      AddHalf(algorithm, /*reduce=*/false);  // Same partners and sizes.
      return;
  }
}

}  // namespace trestle::fabric
