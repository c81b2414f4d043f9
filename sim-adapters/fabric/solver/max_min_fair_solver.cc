// MaxMinFairSolver (max_min_fair_solver.h): Validate, and Solve, which
// evaluates the queued links until the rates settle. The flows and links it
// keeps are in max_min_fair_solver_flows.cc, the sharing of one link between
// classes in class_share_water_fill.h, the debug checks in
// max_min_fair_solver_checks.cc.
#include "trestle/fabric/max_min_fair_solver.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

#include "common/text.h"
#include "solver/class_share_water_fill.h"

namespace trestle::fabric {

absl::Status MaxMinFairSolver::Validate(const Options& options) {
  if (options.classes.empty()) return absl::InvalidArgumentError("no traffic class");
  double guaranteed = 0;
  for (std::size_t i = 0; i < options.classes.size(); ++i) {
    const ClassShare& c = options.classes[i];
    if (!(c.weight > 0) || !std::isfinite(c.weight)) {
      return absl::InvalidArgumentError(
          internal::Concat("class ", i, ": weight must be a positive number, got ", c.weight));
    }
    if (!(c.min_fraction >= 0 && c.min_fraction <= 1)) {
      return absl::InvalidArgumentError(internal::Concat(
          "class ", i, ": minimum share must be between 0 and 1, got ", c.min_fraction));
    }
    guaranteed += c.min_fraction;
  }
  if (guaranteed > 1 + 1e-9) {
    return absl::InvalidArgumentError(fmt::format(
        "the classes' minimum shares add up to {:.6g}% (at most 100%)", guaranteed * 100));
  }
  return absl::OkStatus();
}

MaxMinFairSolver::MaxMinFairSolver(ResourceId resource_count, CapacityFn capacity,
                                   Options options)
    : options_(std::move(options)),
      class_count_(static_cast<std::uint32_t>(options_.classes.size())),
      capacity_(std::move(capacity)),
      link_index_(resource_count, kNone),
      near_(1 + 4 * options_.tolerance) {
  new_shares_.level.resize(class_count_);
  new_shares_.allocation.resize(class_count_);
}

void MaxMinFairSolver::Enqueue(std::uint32_t link) {
  if (link_info_[link].queued) return;
  link_info_[link].queued = true;
  // kUpstream: changes travel downstream, in the order they happen (FIFO).
  if (options_.sharing == Sharing::kUpstream) {
    fifo_.push_back(link);
    return;
  }
  // kEndToEnd: the lowest level first, as progressive filling settles
  // bottlenecks, so that a link is mostly evaluated once per Solve (FIFO
  // evaluated each about three times: 4,000 links per event instead of 1,400
  // among 10,000 flows on slingshot-1k). A link's level changes only when it
  // is evaluated, so its key stays exact while it waits.
  by_level_.Push(links_[link].lowest_level, link);
}

void MaxMinFairSolver::MarkChanged(FlowHandle handle) {
  Flow& flow = flows_[handle];
  if (flow.changed) return;
  flow.changed = true;
  changed_.push_back(handle);
}

bool MaxMinFairSolver::Same(double a, double b) const {
  if (a == b) return true;
  if (std::isinf(a) || std::isinf(b)) return false;
  return std::abs(a - b) <= options_.tolerance * std::max(std::abs(a), std::abs(b));
}

double MaxMinFairSolver::DemandAt(const Crossing& crossing, double here) const {
  const Flow& flow = flows_[crossing.flow];
  const std::size_t base = HopBase(crossing.flow);
  if (options_.sharing == Sharing::kUpstream) {
    return crossing.hop == 0 ? flow.demand_cap : hop_occupancy_[base + crossing.hop - 1];
  }
  // The rate is the lowest share on the path (to the tolerance): when this
  // link's share is clearly above it, the lowest is elsewhere.
  if (flow.rate > 0 && here > flow.rate * near_) return flow.rate;
  return LowestElsewhere(crossing);
}

void MaxMinFairSolver::ComputeShares(std::uint32_t link_index, double damping,
                                     std::vector<Demand>* scratch, Shares* shares) const {
  const Link& link = links_[link_index];
  const std::vector<Crossing>& crossings = crossings_[link_index];
  const std::size_t base = static_cast<std::size_t>(link_index) * class_count_;
  std::vector<ClassGroup>& groups = groups_;  // indexed by class
  groups.assign(class_count_, ClassGroup{});
  scratch->resize(crossings.size());
  for (std::uint32_t i = 0; i < crossings.size(); ++i) {
    const Crossing& crossing = crossings[i];
    const std::uint32_t k = flows_[crossing.flow].class_index;
    const double hint = level_[base + k];
    const double demand = DemandAt(crossing, hint);
    (*scratch)[i] = Demand{k, demand, i};
    groups[k].Add(demand, hint);
  }
  ClassShareWaterFill::Allocate(options_.classes, link.capacity, damping, &allocation_[base],
                                &groups, &wanting_);
  for (std::uint32_t k = 0; k < class_count_; ++k) {
    const ClassGroup& group = groups[k];
    shares->allocation[k] = group.count == 0 ? 0.0 : group.allocation;
    shares->level[k] = ClassShareWaterFill::Level(group, *scratch, k);
  }
}

void MaxMinFairSolver::Evaluate(std::uint32_t link_index) {
  if (class_count_ == 1 && options_.sharing == Sharing::kEndToEnd) {
    EvaluateOneClass(link_index);
    return;
  }
  link_info_[link_index].queued = false;
  // Frozen, the class allocations are an approximate solve's until the link
  // is next evaluated with them free (a damped evaluation only ends settled).
  link_info_[link_index].approximate = damping_ == 0;
  ComputeShares(link_index, damping_, &scratch_, &new_shares_);
  const std::size_t base = static_cast<std::size_t>(link_index) * class_count_;
  // A damped allocation has only moved part of the way: come back to it.
  bool unsettled = false;
  double lowest = kUnlimited;
  for (std::uint32_t c = 0; c < class_count_; ++c) {
    if (damping_ > 0 && damping_ < 1 &&
        !Same(allocation_[base + c], new_shares_.allocation[c])) {
      unsettled = true;
    }
    level_[base + c] = new_shares_.level[c];
    allocation_[base + c] = new_shares_.allocation[c];
    lowest = std::min(lowest, new_shares_.level[c]);
  }
  links_[link_index].lowest_level = lowest;
  const std::vector<Crossing>& crossings = crossings_[link_index];
  for (const Demand& d : scratch_) {
    const double occupancy = std::min(d.demand, new_shares_.level[d.class_index]);
    const Crossing crossing = crossings[d.crossing];
    Flow& flow = flows_[crossing.flow];
    const std::size_t base_hop = HopBase(crossing.flow);
    if (options_.sharing == Sharing::kEndToEnd) {
      // The demand is the lowest share elsewhere: with this link's, the rate.
      if (!Same(occupancy, flow.rate)) SetRate(crossing, occupancy);
    } else {
      double& here = hop_occupancy_[base_hop + crossing.hop];
      if (Same(occupancy, here)) continue;
      here = occupancy;
      if (crossing.hop + 1u < flow.hop_count) {
        Enqueue(hop_link_[base_hop + crossing.hop + 1]);
      } else {
        flow.rate = occupancy;
        MarkChanged(crossing.flow);
      }
    }
  }
  if (options_.sharing == Sharing::kEndToEnd) SumLoad(link_index);
  if (unsettled) Enqueue(link_index);
}

void MaxMinFairSolver::EvaluateOneClass(std::uint32_t link_index) {
  link_info_[link_index].queued = false;
  link_info_[link_index].approximate = damping_ == 0;
  const double capacity = links_[link_index].capacity;
  // As Evaluate: a damped solve comes back to a link whose allocation moved.
  const bool unsettled =
      damping_ > 0 && damping_ < 1 && !Same(allocation_[link_index], capacity);
  allocation_[link_index] = capacity;  // a class alone gets it all
  if (!EvaluateCandidates(link_index)) EvaluateAll(link_index);
  if (unsettled) Enqueue(link_index);
}

void MaxMinFairSolver::SetLevel(std::uint32_t link_index, double level) {
  level_[link_index] = level;
  links_[link_index].lowest_level = level;
}

// The same shares as ComputeShares with one class (the same sums in the same
// order, so the same bits), without the bookkeeping of classes.
void MaxMinFairSolver::EvaluateAll(std::uint32_t link_index) {
  Link& link = links_[link_index];
  const std::vector<Crossing>& crossings = crossings_[link_index];
  const auto count = static_cast<std::uint32_t>(crossings.size());
  const double hint = level_[link_index];
  const double near = Near();
  scratch_.resize(count);
  ClassGroup group;
  for (std::uint32_t i = 0; i < count; ++i) {
    const Crossing& crossing = crossings[i];
    const double rate = flows_[crossing.flow].rate;
    // As DemandAt.
    const double demand = rate > 0 && hint > rate * near ? rate : LowestElsewhere(crossing);
    scratch_[i] = Demand{0, demand, i};
    group.Add(demand, hint);
  }
  group.allocation = link.capacity;
  const double level = ClassShareWaterFill::Level(group, scratch_, 0);
  SetLevel(link_index, level);
  for (const Demand& d : scratch_) {
    const Crossing& crossing = crossings[d.crossing];
    const double rate = std::min(d.demand, level);
    if (!Same(rate, flows_[crossing.flow].rate)) SetRate(crossing, rate);
  }
  SumLoad(link_index);
  // The candidates anew, unless there are too many to keep.
  std::uint32_t candidates = 0;
  double others_max = 0;
  for (const Crossing& c : crossings) {
    const double rate = flows_[c.flow].rate;
    if (IsCandidate(rate, level)) {
      ++candidates;
    } else {
      others_max = std::max(others_max, rate);
    }
  }
  link.others_max = others_max;
  const bool keep = candidates <= kMaxCandidates;
  Candidates& kept = candidates_[link_index];
  kept.count = 0;
  for (const Crossing& c : crossings) {
    Flow& flow = flows_[c.flow];
    const bool candidate = keep && IsCandidate(flow.rate, level);
    MarkCandidate(flow, c.hop, candidate);
    if (candidate) {
      kept.flow[kept.count] = c.flow;
      kept.hop[kept.count] = static_cast<std::uint16_t>(c.hop);
      ++kept.count;
    }
  }
  if (!keep) kept.count = kAll;
}

bool MaxMinFairSolver::EvaluateCandidates(std::uint32_t link_index) {
  Link& link = links_[link_index];
  Candidates& candidates = candidates_[link_index];
  const double hint = level_[link_index];
  const double near = Near();
  // Every other flow takes its rate as demand (DemandAt) while the level is
  // clearly above it.
  if (candidates.count == kAll || !(link.others_max * near < hint)) return false;
  scratch_.resize(candidates.count);
  ClassGroup group;
  double candidate_rates = 0;
  for (std::uint32_t i = 0; i < candidates.count; ++i) {
    const Crossing crossing{candidates.flow[i], candidates.hop[i]};
    const double rate = flows_[crossing.flow].rate;
    candidate_rates += rate;
    const double demand = rate > 0 && hint > rate * near ? rate : LowestElsewhere(crossing);
    scratch_[i] = Demand{0, demand, i};
    group.Add(demand, hint);
  }
  // The others' demands are their rates: the load less the candidates'.
  const double others = std::max(0.0, link.load - candidate_rates);
  group.allocation = link.capacity - others;
  double level = kUnlimited;
  if (group.allocation < group.demand) {
    if (group.count == 0 || group.allocation <= 0) return false;
    level = ClassShareWaterFill::Level(group, scratch_, 0);
    // The others must stay below it (they would be limited here too).
    if (!(level > link.others_max)) return false;
  }
  SetLevel(link_index, level);
  double load = others;
  std::uint16_t kept = 0;
  for (std::uint32_t i = 0; i < candidates.count; ++i) {
    const Crossing crossing{candidates.flow[i], candidates.hop[i]};
    Flow& flow = flows_[crossing.flow];
    const double rate = std::min(scratch_[i].demand, level);
    if (!Same(rate, flow.rate)) SetRate(crossing, rate);
    load += flow.rate;
    if (IsCandidate(flow.rate, level)) {
      candidates.flow[kept] = crossing.flow;
      candidates.hop[kept] = static_cast<std::uint16_t>(crossing.hop);
      ++kept;
    } else {
      link.others_max = std::max(link.others_max, flow.rate);
      MarkCandidate(flow, crossing.hop, false);
    }
  }
  candidates.count = kept;
  link.load = load;
  return true;
}

void MaxMinFairSolver::SetRate(const Crossing& crossing, double rate) {
  Flow& flow = flows_[crossing.flow];
  const double change = rate - flow.rate;
  flow.rate = rate;
  MarkChanged(crossing.flow);
  const std::uint32_t* links = LinksOf(crossing.flow);
  for (std::size_t hop = 0; hop < flow.hop_count; ++hop) {
    if (hop == crossing.hop) continue;
    const std::uint32_t other = links[hop];
    Link& link = links_[other];
    link.load += change;
    // Others_max bounds the rates of the flows that are not candidates there.
    const bool candidate = hop < 32 && (flow.candidate_at >> hop & 1u) != 0;
    if (!candidate) link.others_max = std::max(link.others_max, rate);
    if (!link_info_[other].queued && !StillFits(other)) Enqueue(other);
  }
}

void MaxMinFairSolver::SumLoad(std::uint32_t link_index) {
  // Summed again rather than as it goes: a path may cross a link twice.
  double load = 0;
  for (const Crossing& c : crossings_[link_index]) load += flows_[c.flow].rate;
  links_[link_index].load = load;
}

bool MaxMinFairSolver::StillFits(std::uint32_t link_index) const {
  // Re-evaluating a link whose one class limits no flow (level kUnlimited)
  // gives each flow its rate as demand (DemandAt), and changes nothing while
  // they still all fit. The margin covers the rounding of the running sum.
  const Link& link = links_[link_index];
  return class_count_ == 1 && link.lowest_level == kUnlimited &&
         link.load <= link.capacity * (1 - 1e-9);
}

void MaxMinFairSolver::Solve() {
  for (FlowHandle handle : changed_) flows_[handle].changed = false;
  changed_.clear();
  last_evaluations_ = 0;
  last_approximate_ = false;
  // With one class the local shares settle in a few rounds. With several, a
  // class's allocation depends on the others' demands, and a flow's rate in
  // one class can move a lower level of another class; such loops can
  // circle for ever. Past each budget, class allocations move a smaller part
  // of the way to their new value (1/2, 1/3, 1/4, ...: a Krasnoselskii-Mann
  // iteration), so the loops' gain falls until the rates settle. Past 32
  // budgets the allocations freeze: each class then shares its allocation
  // max-min, which always settles, and the solve counts as approximate.
  const bool fifo = options_.sharing == Sharing::kUpstream;
  const std::uint64_t budget =
      64 * (fifo ? fifo_.size() - fifo_head_ : by_level_.size()) + 1024;
  std::uint64_t to_budget = budget;
  damping_ = 1;
  while (fifo ? fifo_head_ < fifo_.size() : !by_level_.empty()) {
    const std::uint32_t link = fifo ? fifo_[fifo_head_++] : by_level_.Pop();
    if (!link_info_[link].queued) continue;  // evaluated already, or released
    Evaluate(link);
    ++last_evaluations_;
    if (--to_budget != 0 || damping_ == 0) continue;
    to_budget = budget;
    damping_ = last_evaluations_ >= 32 * budget ? 0 : 1.0 / (1.0 / damping_ + 1);
    if (damping_ == 0) {
      last_approximate_ = true;
      ++approximate_solves_;
    }
  }
  damping_ = 1;
  fifo_.clear();
  fifo_head_ = 0;
  total_evaluations_ += last_evaluations_;
}

}  // namespace trestle::fabric
