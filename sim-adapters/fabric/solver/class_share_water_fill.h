// MaxMinFairSolver::ClassShareWaterFill: the sharing of one link between
// traffic classes and inside each (the hierarchy of max_min_fair_solver.h).
// Allocate splits the link's capacity between the classes present
// (guarantees first, the rest by weight, work-conserving); Level finds the
// share at which a class's flows fill its allocation (a water fill). Pure
// arithmetic on one link's demands, with no state of its own: the solver
// gathers the demands (ClassGroup, Demand) and keeps the results.
// Internal to the solver.
#ifndef TRESTLE_FABRIC_SOLVER_CLASS_SHARE_WATER_FILL_H_
#define TRESTLE_FABRIC_SOLVER_CLASS_SHARE_WATER_FILL_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "trestle/fabric/max_min_fair_solver.h"

namespace trestle::fabric {

class MaxMinFairSolver::ClassShareWaterFill {
 public:
  // Sets the allocation of each class of `*groups_by_class` (indexed by
  // class; a class with no flow there is left alone) from the link's
  // `capacity`: a class alone gets it all; otherwise each gets
  // min(demand, min_fraction x capacity), and the rest goes by weight to
  // those that want more. With `damping` < 1 (several classes only) an
  // allocation moves only that part of the way from `current` (the classes'
  // allocations now, one per class). `scratch` is reused storage.
  static void Allocate(const std::vector<ClassShare>& classes, double capacity, double damping,
                       const double* current, std::vector<ClassGroup>* groups_by_class,
                       std::vector<std::pair<double, std::uint32_t>>* scratch);

  // The level of class `class_index` on a link: the share each of its flows
  // limited there gets, from its ClassGroup (filled from `demands`, with the
  // class's current level as hint) and its allocation; kUnlimited when its
  // flows all fit. Inline: the one-class evaluations call it for every link.
  static double Level(const ClassGroup& group, const std::vector<Demand>& demands,
                      std::uint32_t class_index) {
    // A class whose flows all fit limits none of them here.
    if (group.count == 0 || group.allocation >= group.demand) return kUnlimited;
    // The level L solves Σ min(demand, L) = allocation, and is unique. If the
    // demands below the current level stay below the level they give, and
    // the others above it, that is L (the usual case: a level moves a
    // little); otherwise water-fill.
    if (group.below_count < group.count) {
      const double hinted =
          (group.allocation - group.below_sum) / (group.count - group.below_count);
      if (hinted > group.below_max && hinted <= group.above_min) return hinted;
    }
    return WaterFill(demands, class_index, group.count, group.allocation);
  }

 private:
  // The share of the `count` demands of class `class_index` in `demands`
  // that fills `allocation` (kUnlimited when they all fit).
  static double WaterFill(const std::vector<Demand>& demands, std::uint32_t class_index,
                          std::uint32_t count, double allocation);
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_SOLVER_CLASS_SHARE_WATER_FILL_H_
