// MaxMinFairSolver's debug checks (max_min_fair_solver.h: CheckCapacity,
// CheckFixedPoint): O(all flows x path), for tests and debug runs, never on
// the path of an event.
#include <algorithm>
#include <cmath>
#include <vector>

#include "common/text.h"
#include "trestle/fabric/max_min_fair_solver.h"

namespace trestle::fabric {

absl::Status MaxMinFairSolver::CheckCapacity() const {
  for (std::uint32_t index = 0; index < links_.size(); ++index) {
    const Link& link = links_[index];
    const std::vector<Crossing>& crossings = crossings_[index];
    if (crossings.empty()) continue;
    double used = 0;
    for (const Crossing& c : crossings) used += Occupancy(c.flow, c.hop);
    if (used > link.capacity * (1 + 1e-6)) {
      return absl::InternalError(internal::Concat("link ", link_info_[index].id, " carries ", used,
                                                  " bytes/ns over a capacity of ",
                                                  link.capacity, " (", crossings.size(),
                                                  " flows)"));
    }
  }
  return absl::OkStatus();
}

absl::Status MaxMinFairSolver::CheckFixedPoint(bool given_allocations) const {
  const double slack = std::max(options_.tolerance * 1000, 1e-9);
  auto same = [&](double a, double b) {
    if (a == b) return true;
    if (std::isinf(a) || std::isinf(b)) return false;
    return std::abs(a - b) <= slack * std::max(std::abs(a), std::abs(b));
  };
  std::vector<Demand> scratch;
  Shares shares{std::vector<double>(class_count_), std::vector<double>(class_count_)};
  for (std::uint32_t index = 0; index < links_.size(); ++index) {
    const std::vector<Crossing>& crossings = crossings_[index];
    if (crossings.empty()) continue;
    ComputeShares(index, given_allocations || link_info_[index].approximate ? 0 : 1, &scratch,
                  &shares);
    for (const Demand& d : scratch) {
      const Crossing& c = crossings[d.crossing];
      const double want = std::min(d.demand, shares.level[d.class_index]);
      const double have = Occupancy(c.flow, c.hop);
      if (!same(want, have)) {
        return absl::InternalError(internal::Concat(
            "link ", link_info_[index].id, ": flow ", c.flow, " (class ", d.class_index, ", hop ", c.hop,
            ") has ", have, " bytes/ns where the link would give it ", want));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace trestle::fabric
