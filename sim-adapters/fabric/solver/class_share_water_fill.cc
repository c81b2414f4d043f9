#include "solver/class_share_water_fill.h"

#include <algorithm>

namespace trestle::fabric {

double MaxMinFairSolver::ClassShareWaterFill::WaterFill(const std::vector<Demand>& demands,
                                                        std::uint32_t class_index,
                                                        std::uint32_t count, double allocation) {
  // The level L solves Σ min(demand, L) = allocation. Start from an equal
  // split and let the demands below the level give back what they do not
  // use; the level only rises, and stops once no more demands fall below
  // it (a few passes in practice, at most `count`).
  double level = allocation / count;
  std::uint32_t below = 0;
  while (true) {
    double used = 0;
    std::uint32_t n = 0;
    for (const Demand& d : demands) {
      if (d.class_index == class_index && d.demand < level) {
        used += d.demand;
        ++n;
      }
    }
    if (n == count) return kUnlimited;  // everyone fits
    if (n <= below) return level;
    below = n;
    // Rounding must not lower the level: that could bring a demand back
    // above it and circle.
    level = std::max(level, (allocation - used) / (count - n));
  }
}

void MaxMinFairSolver::ClassShareWaterFill::Allocate(
    const std::vector<ClassShare>& classes, double capacity, double damping, const double* current,
    std::vector<ClassGroup>* groups_by_class,
    std::vector<std::pair<double, std::uint32_t>>* scratch) {
  std::vector<ClassGroup>& groups = *groups_by_class;
  const auto class_count = static_cast<std::uint32_t>(groups.size());
  std::uint32_t present = 0;
  for (const ClassGroup& group : groups) present += group.count > 0;
  if (present == 1) {
    for (ClassGroup& group : groups) group.allocation = capacity;  // a class alone gets it all
  } else {
    // Guarantees first, then the rest by weight among the classes that want
    // more (a weighted water-fill over what they want beyond the guarantee).
    double left = capacity;
    double weight = 0;
    std::vector<std::pair<double, std::uint32_t>>& wanting = *scratch;  // (want / weight, class)
    wanting.clear();
    for (std::uint32_t k = 0; k < class_count; ++k) {
      ClassGroup& group = groups[k];
      if (group.count == 0) continue;
      const ClassShare& share = classes[k];
      const double guaranteed = std::min(group.demand, share.min_fraction * capacity);
      group.allocation = guaranteed;
      left -= guaranteed;
      if (group.demand > guaranteed) {
        wanting.emplace_back((group.demand - guaranteed) / share.weight, k);
        weight += share.weight;
      }
    }
    std::sort(wanting.begin(), wanting.end());
    left = std::max(left, 0.0);
    for (const auto& [want_per_weight, k] : wanting) {
      ClassGroup& group = groups[k];
      const double w = classes[k].weight;
      if (want_per_weight * weight <= left) {
        const double want = group.demand - group.allocation;
        group.allocation = group.demand;
        left -= want;
        weight -= w;
      } else {
        group.allocation += left * (w / weight);
      }
    }
    if (damping < 1) {
      // A convex combination of two allocations that fit the link fits it.
      for (std::uint32_t k = 0; k < class_count; ++k) {
        const double old = current[k];
        if (groups[k].count > 0 && old > 0) {
          groups[k].allocation = old + damping * (groups[k].allocation - old);
        }
      }
    }
  }
}

}  // namespace trestle::fabric
