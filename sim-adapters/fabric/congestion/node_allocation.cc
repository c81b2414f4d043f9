#include "trestle/fabric/node_allocation.h"

#include <algorithm>
#include <charconv>
#include <random>

#include "absl/status/status.h"
#include "trestle/platform/enum_names.h"
#include "common/text.h"

namespace trestle::fabric {
namespace {

constexpr platform::EnumName<AllocationKind> kAllocationNames[] = {
    {AllocationKind::kLinear, "linear"},
    {AllocationKind::kInterleaved, "interleaved"},
    {AllocationKind::kRandom, "random"},
};

}  // namespace

absl::StatusOr<AllocationKind> ParseAllocationKind(std::string_view text) {
  return platform::EnumNames<AllocationKind>(kAllocationNames).Parse(text, "allocation");
}

std::string_view AllocationKindName(AllocationKind kind) {
  return platform::EnumNames<AllocationKind>(kAllocationNames).Name(kind);
}

absl::StatusOr<NodeSplit> NodeSplit::Parse(std::string_view text) {
  const std::vector<std::string_view> parts = internal::Split(text, ':');
  auto error = [&](std::string_view why) {
    return absl::InvalidArgumentError(internal::Concat("split '", text, "': ", why));
  };
  if (parts.size() != 2) return error("expected VICTIM:AGGRESSOR percentages, e.g. 20:80");
  std::uint32_t value[2] = {0, 0};
  for (int i = 0; i < 2; ++i) {
    auto [end, ec] = std::from_chars(parts[i].data(), parts[i].data() + parts[i].size(), value[i]);
    if (parts[i].empty() || ec != std::errc() || end != parts[i].data() + parts[i].size()) {
      return error(internal::Concat("'", parts[i], "' is not a whole percentage"));
    }
    if (value[i] == 0) return error("each job needs a share above 0");
  }
  if (value[0] + value[1] > 100) return error("the shares add up to more than 100");
  return NodeSplit{value[0], value[1]};
}

std::string NodeSplit::ToString() const {
  return internal::Concat(victim_percent, ":", aggressor_percent);
}

absl::StatusOr<NodeAllocation> NodeAllocation::Make(std::uint32_t endpoints, NodeSplit split,
                                                    AllocationKind kind, std::uint64_t seed) {
  const auto share = [&](std::uint32_t percent) {
    return static_cast<std::uint32_t>(static_cast<std::uint64_t>(endpoints) * percent / 100);
  };
  const std::uint32_t v = share(split.victim_percent);
  const std::uint32_t a = share(split.aggressor_percent);
  if (v < 2 || a < 2) {
    return absl::InvalidArgumentError(internal::Concat(
        "split ", split.ToString(), " of ", endpoints, " endpoints gives the victim ", v,
        " and the aggressor ", a, "; each needs at least 2"));
  }
  NodeAllocation allocation;
  switch (kind) {
    case AllocationKind::kLinear:
      for (NodeId e = 0; e < v; ++e) allocation.victims.push_back(e);
      for (NodeId e = v; e < v + a; ++e) allocation.aggressors.push_back(e);
      break;
    case AllocationKind::kInterleaved:
      // Endpoint i of the first v + a is a victim when the running count of
      // victims, i * v / (v + a) rounded down, steps up at i.
      for (NodeId e = 0; e < v + a; ++e) {
        const std::uint64_t before = static_cast<std::uint64_t>(e) * v / (v + a);
        const std::uint64_t after = static_cast<std::uint64_t>(e + 1) * v / (v + a);
        (after > before ? allocation.victims : allocation.aggressors).push_back(e);
      }
      break;
    case AllocationKind::kRandom: {
      std::vector<NodeId> all(endpoints);
      for (NodeId e = 0; e < endpoints; ++e) all[e] = e;
      std::mt19937_64 rng(seed);
      std::shuffle(all.begin(), all.end(), rng);
      allocation.victims.assign(all.begin(), all.begin() + v);
      allocation.aggressors.assign(all.begin() + v, all.begin() + v + a);
      break;
    }
  }
  return allocation;
}

}  // namespace trestle::fabric
