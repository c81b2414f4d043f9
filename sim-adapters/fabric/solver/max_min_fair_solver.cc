#include "trestle/fabric/max_min_fair_solver.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <type_traits>
#include <utility>

#include "common/text.h"

namespace trestle::fabric {
namespace {

constexpr std::uint32_t kNone = 0xffffffffu;


}  // namespace

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

const MaxMinFairSolver::Link* MaxMinFairSolver::FindLink(ResourceId id) const {
  const std::uint32_t index = link_index_[id];
  return index == kNone ? nullptr : &links_[index];
}

std::uint32_t MaxMinFairSolver::LinkFor(ResourceId id) {
  std::uint32_t& index = link_index_[id];
  if (index != kNone) return index;
  if (free_links_.empty()) {
    index = static_cast<std::uint32_t>(links_.size());
    links_.emplace_back();
    link_info_.emplace_back();
    crossings_.emplace_back();
    candidates_.emplace_back();
    level_.resize(level_.size() + class_count_);
    allocation_.resize(allocation_.size() + class_count_);
  } else {
    index = free_links_.back();
    free_links_.pop_back();
  }
  links_[index] = Link{0, capacity_(id), kUnlimited, 0};
  link_info_[index] = LinkInfo{id, false, false};
  candidates_[index].count = kAll;
  const std::size_t base = static_cast<std::size_t>(index) * class_count_;
  std::fill_n(level_.begin() + base, class_count_, kUnlimited);
  std::fill_n(allocation_.begin() + base, class_count_, 0.0);
  return index;
}

MaxMinFairSolver::FlowHandle MaxMinFairSolver::AddFlow(const std::vector<ResourceId>& path,
                                                       std::uint32_t class_index,
                                                       double demand_cap) {
  FlowHandle handle;
  if (free_flows_.empty()) {
    handle = static_cast<FlowHandle>(flows_.size());
    flows_.emplace_back();
  } else {
    handle = free_flows_.back();
    free_flows_.pop_back();
  }
  if (path.size() > stride_) Restride(path.size());
  if (hop_link_.size() < HopBase(handle + 1)) {
    hop_link_.resize(HopBase(handle + 1));
    hop_slot_.resize(HopBase(handle + 1));
    if (options_.sharing == Sharing::kUpstream) hop_occupancy_.resize(HopBase(handle + 1));
  }
  if (paths_.size() <= handle) paths_.resize(handle + 1);
  paths_[handle].assign(path.begin(), path.end());
  Flow& flow = flows_[handle];
  flow.class_index = class_index;
  flow.demand_cap = demand_cap;
  flow.rate = 0;
  flow.hop_count = static_cast<std::uint16_t>(path.size());
  flow.candidate_at = 0;
  flow.active = true;
  flow.changed = false;
  const std::size_t base = HopBase(handle);
  for (std::size_t hop = 0; hop < path.size(); ++hop) {
    const std::uint32_t index = LinkFor(path[hop]);
    std::vector<Crossing>& crossings = crossings_[index];
    hop_link_[base + hop] = index;
    if (hop < kInlineHops) flow.links[hop] = index;
    hop_slot_[base + hop] = static_cast<std::uint32_t>(crossings.size());
    if (!hop_occupancy_.empty()) hop_occupancy_[base + hop] = 0;
    crossings.push_back(Crossing{handle, static_cast<std::uint32_t>(hop)});
    candidates_[index].count = kAll;
    Enqueue(index);
  }
  ++active_flows_;
  return handle;
}

void MaxMinFairSolver::Restride(std::size_t stride) {
  const std::size_t old = stride_;
  auto spread = [&](auto& hops) {
    using Vector = std::remove_reference_t<decltype(hops)>;
    if (hops.empty()) return;
    const std::size_t flows = hops.size() / old;
    Vector wider(flows * stride);
    for (std::size_t f = 0; f < flows; ++f) {
      std::copy_n(hops.begin() + f * old, old, wider.begin() + f * stride);
    }
    hops = std::move(wider);
  };
  spread(hop_link_);
  spread(hop_slot_);
  spread(hop_occupancy_);
  stride_ = stride;
}

void MaxMinFairSolver::RemoveFlow(FlowHandle handle) {
  Flow& flow = flows_[handle];
  const std::size_t base = HopBase(handle);
  for (std::size_t hop = 0; hop < flow.hop_count; ++hop) {
    const std::uint32_t index = hop_link_[base + hop];
    const std::uint32_t slot = hop_slot_[base + hop];
    Link& link = links_[index];
    link.load -= flow.rate;
    std::vector<Crossing>& crossings = crossings_[index];
    const Crossing last = crossings.back();
    crossings[slot] = last;
    hop_slot_[HopBase(last.flow) + last.hop] = slot;
    crossings.pop_back();
    candidates_[index].count = kAll;
    if (crossings.empty()) {
      link_info_[index].queued = false;
      link_index_[link_info_[index].id] = kNone;
      free_links_.push_back(index);
    } else {
      Enqueue(index);
    }
  }
  flow.active = false;
  free_flows_.push_back(handle);
  --active_flows_;
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

double MaxMinFairSolver::WaterFill(const std::vector<Demand>& demands, std::uint32_t class_index,
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

double MaxMinFairSolver::ClassLevel(const ClassGroup& group, const std::vector<Demand>& demands,
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
  std::uint32_t present = 0;
  for (const ClassGroup& group : groups) present += group.count > 0;
  const double capacity = link.capacity;
  if (present == 1) {
    for (ClassGroup& group : groups) group.allocation = capacity;  // a class alone gets it all
  } else {
    // Guarantees first, then the rest by weight among the classes that want
    // more (a weighted water-fill over what they want beyond the guarantee).
    double left = capacity;
    double weight = 0;
    std::vector<std::pair<double, std::uint32_t>>& wanting = wanting_;  // (want / weight, class)
    wanting.clear();
    for (std::uint32_t k = 0; k < class_count_; ++k) {
      ClassGroup& group = groups[k];
      if (group.count == 0) continue;
      const ClassShare& share = options_.classes[k];
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
      const double w = options_.classes[k].weight;
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
      for (std::uint32_t k = 0; k < class_count_; ++k) {
        const double old = allocation_[base + k];
        if (groups[k].count > 0 && old > 0) {
          groups[k].allocation = old + damping * (groups[k].allocation - old);
        }
      }
    }
  }
  for (std::uint32_t k = 0; k < class_count_; ++k) {
    const ClassGroup& group = groups[k];
    shares->allocation[k] = group.count == 0 ? 0.0 : group.allocation;
    shares->level[k] = ClassLevel(group, *scratch, k);
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
  const double level = ClassLevel(group, scratch_, 0);
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
    level = ClassLevel(group, scratch_, 0);
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

double MaxMinFairSolver::Occupancy(FlowHandle handle, std::size_t hop) const {
  return options_.sharing == Sharing::kUpstream ? hop_occupancy_[HopBase(handle) + hop]
                                                : flows_[handle].rate;
}

const std::vector<MaxMinFairSolver::Crossing>& MaxMinFairSolver::FlowsOn(ResourceId id) const {
  static const std::vector<Crossing> kNoCrossings;
  const std::uint32_t index = link_index_[id];
  return index == kNone ? kNoCrossings : crossings_[index];
}

double MaxMinFairSolver::LevelOf(ResourceId id, std::uint32_t class_index) const {
  const std::uint32_t index = link_index_[id];
  return index == kNone ? kUnlimited : Level(index, class_index);
}

double MaxMinFairSolver::CapacityOf(ResourceId id) const {
  const Link* link = FindLink(id);
  return link == nullptr ? 0 : link->capacity;
}

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
