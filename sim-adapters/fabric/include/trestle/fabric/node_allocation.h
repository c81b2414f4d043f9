// NodeAllocation: which endpoints run the victim and which the aggressor in
// a congestion experiment (`trestle-sim congestion`), as a benchmark job
// scheduler would place two jobs.
//
// A split "V:A" gives the victim V % and the aggressor A % of the endpoints
// (V + A <= 100; the rest stay idle), each at least 2 endpoints:
//   kLinear       victim on the first endpoints, aggressor on the next ones;
//   kInterleaved  the two spread evenly over the first (V + A) % of the
//                 endpoints (Bresenham): with 20:80, every fifth endpoint
//                 is a victim;
//   kRandom       a seeded shuffle of all endpoints, victim first.
// Ranks are the order in the lists (victims[r] is victim rank r).
#ifndef TRESTLE_FABRIC_NODE_ALLOCATION_H_
#define TRESTLE_FABRIC_NODE_ALLOCATION_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "trestle/fabric/link.h"

namespace trestle::fabric {

enum class AllocationKind { kLinear, kInterleaved, kRandom };

// "linear", "interleaved" or "random"; anything else is InvalidArgument.
absl::StatusOr<AllocationKind> ParseAllocationKind(std::string_view text);
std::string_view AllocationKindName(AllocationKind kind);

// Percentages of the endpoints for the victim and the aggressor.
struct NodeSplit {
  std::uint32_t victim_percent = 20;
  std::uint32_t aggressor_percent = 80;

  // "20:80"; InvalidArgument naming the text when malformed, when a part is
  // 0, or when they add up to more than 100.
  static absl::StatusOr<NodeSplit> Parse(std::string_view text);
  std::string ToString() const;
};

struct NodeAllocation {
  std::vector<NodeId> victims;
  std::vector<NodeId> aggressors;

  // InvalidArgument when either job would get fewer than 2 endpoints.
  static absl::StatusOr<NodeAllocation> Make(std::uint32_t endpoints, NodeSplit split,
                                             AllocationKind kind, std::uint64_t seed);
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_NODE_ALLOCATION_H_
