#include "trestle/fabric/max_min_fair_solver.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "common/text.h"

namespace trestle::fabric {
namespace {

constexpr std::uint32_t kNone = 0xffffffffu;


// The max-min share of `allocation` among `demands` (sorted ascending): the
// level every demand above it is cut to, or kUnlimited if all fit.
template <typename It, typename DemandOf>
double WaterFill(double allocation, It begin, It end, DemandOf demand_of) {
  double left = allocation;
  auto n = static_cast<double>(end - begin);
  for (It it = begin; it != end; ++it, n -= 1) {
    const double share = left / n;
    if (demand_of(*it) >= share) return share;
    left -= demand_of(*it);
  }
  return MaxMinFairSolver::kUnlimited;
}

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
      capacity_(std::move(capacity)),
      link_index_(resource_count, kNone) {}

MaxMinFairSolver::Link& MaxMinFairSolver::LinkFor(ResourceId id) {
  std::uint32_t& index = link_index_[id];
  if (index == kNone) {
    if (free_links_.empty()) {
      index = static_cast<std::uint32_t>(links_.size());
      links_.emplace_back();
    } else {
      index = free_links_.back();
      free_links_.pop_back();
    }
    Link& link = links_[index];
    link.capacity = capacity_(id);
    link.queued = false;
  }
  return links_[index];
}

const MaxMinFairSolver::Link* MaxMinFairSolver::FindLink(ResourceId id) const {
  const std::uint32_t index = link_index_[id];
  return index == kNone ? nullptr : &links_[index];
}

double MaxMinFairSolver::LevelIn(const Link& link, std::uint32_t class_index) const {
  for (const ClassLevel& level : link.levels) {
    if (level.class_index == class_index) return level.level;
  }
  return kUnlimited;
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
  Flow& flow = flows_[handle];
  flow.path.assign(path.begin(), path.end());
  flow.slot.resize(path.size());
  flow.occupancy.assign(options_.sharing == Sharing::kUpstream ? path.size() : 0, 0.0);
  flow.class_index = class_index;
  flow.demand_cap = demand_cap;
  flow.rate = 0;
  flow.active = true;
  flow.changed = false;
  for (std::size_t hop = 0; hop < path.size(); ++hop) {
    Link& link = LinkFor(path[hop]);
    flow.slot[hop] = static_cast<std::uint32_t>(link.crossings.size());
    link.crossings.push_back(Crossing{handle, static_cast<std::uint32_t>(hop)});
    Enqueue(path[hop]);
  }
  ++active_flows_;
  return handle;
}

void MaxMinFairSolver::RemoveFlow(FlowHandle handle) {
  Flow& flow = flows_[handle];
  for (std::size_t hop = 0; hop < flow.path.size(); ++hop) {
    const ResourceId id = flow.path[hop];
    Link& link = links_[link_index_[id]];
    const std::uint32_t slot = flow.slot[hop];
    const Crossing last = link.crossings.back();
    link.crossings[slot] = last;
    flows_[last.flow].slot[last.hop] = slot;
    link.crossings.pop_back();
    if (link.crossings.empty()) {
      link.levels.clear();
      free_links_.push_back(link_index_[id]);
      link_index_[id] = kNone;
    } else {
      Enqueue(id);
    }
  }
  flow.active = false;
  free_flows_.push_back(handle);
  --active_flows_;
}

void MaxMinFairSolver::Enqueue(ResourceId id) {
  Link& link = links_[link_index_[id]];
  if (link.queued) return;
  link.queued = true;
  queue_.push_back(id);
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

double MaxMinFairSolver::DemandAt(const Crossing& crossing, ResourceId link_id) const {
  const Flow& flow = flows_[crossing.flow];
  if (options_.sharing == Sharing::kUpstream) {
    return crossing.hop == 0 ? flow.demand_cap : flow.occupancy[crossing.hop - 1];
  }
  double demand = flow.demand_cap;
  for (std::size_t hop = 0; hop < flow.path.size(); ++hop) {
    if (hop == crossing.hop) continue;
    const Link* other = FindLink(flow.path[hop]);
    if (other != nullptr) demand = std::min(demand, LevelIn(*other, flow.class_index));
  }
  (void)link_id;
  return demand;
}

void MaxMinFairSolver::ComputeLevels(ResourceId link_id, const Link& link,
                                     std::vector<Demand>* scratch, std::vector<ClassLevel>* levels,
                                     double damping) const {
  scratch->clear();
  for (std::uint32_t i = 0; i < link.crossings.size(); ++i) {
    const Crossing& crossing = link.crossings[i];
    scratch->push_back(
        Demand{flows_[crossing.flow].class_index, DemandAt(crossing, link_id), i});
  }
  std::sort(scratch->begin(), scratch->end(), [](const Demand& a, const Demand& b) {
    return a.class_index != b.class_index ? a.class_index < b.class_index : a.demand < b.demand;
  });
  // Class groups, each with its total demand.
  std::vector<ClassGroup>& groups = groups_;
  groups.clear();
  for (std::size_t i = 0; i < scratch->size(); ++i) {
    const Demand& d = (*scratch)[i];
    if (groups.empty() || groups.back().class_index != d.class_index) {
      groups.push_back(ClassGroup{d.class_index, i, i, 0, 0});
    }
    groups.back().end = i + 1;
    groups.back().demand += d.demand;  // stays kUnlimited once it is
  }
  const double capacity = link.capacity;
  if (groups.size() == 1) {
    groups[0].allocation = capacity;  // a class alone gets the whole link
  } else {
    // Guarantees first, then the rest by weight among the classes that want
    // more (a weighted water-fill over what they want beyond the guarantee).
    double left = capacity;
    double weight = 0;
    std::vector<std::pair<double, std::size_t>>& wanting = wanting_;  // (want / weight, group)
    wanting.clear();
    for (std::size_t g = 0; g < groups.size(); ++g) {
      ClassGroup& group = groups[g];
      const ClassShare& share = options_.classes[group.class_index];
      const double guaranteed = std::min(group.demand, share.min_fraction * capacity);
      group.allocation = guaranteed;
      left -= guaranteed;
      if (group.demand > guaranteed) {
        wanting.emplace_back((group.demand - guaranteed) / share.weight, g);
        weight += share.weight;
      }
    }
    std::sort(wanting.begin(), wanting.end());
    left = std::max(left, 0.0);
    for (const auto& [want_per_weight, g] : wanting) {
      ClassGroup& group = groups[g];
      const double w = options_.classes[group.class_index].weight;
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
      for (ClassGroup& group : groups) {
        for (const ClassLevel& old : link.levels) {
          if (old.class_index != group.class_index) continue;
          group.allocation = old.allocation + damping * (group.allocation - old.allocation);
        }
      }
    }
  }
  levels->clear();
  for (const ClassGroup& group : groups) {
    // A class whose flows all fit limits none of them here.
    const double level =
        group.allocation >= group.demand ? kUnlimited : WaterFill(group.allocation, scratch->begin() + group.begin, scratch->begin() + group.end,
                  [](const Demand& d) { return d.demand; });
    levels->push_back(ClassLevel{group.class_index, level, group.allocation});
  }
}

void MaxMinFairSolver::Evaluate(ResourceId link_id) {
  Link& link = links_[link_index_[link_id]];
  link.queued = false;
  ComputeLevels(link_id, link, &scratch_, &new_levels_, damping_);
  // A damped allocation has only moved part of the way: come back to it.
  bool unsettled = false;
  if (damping_ > 0 && damping_ < 1 && new_levels_.size() > 1) {
    for (const ClassLevel& level : new_levels_) {
      for (const ClassLevel& old : link.levels) {
        if (old.class_index == level.class_index && !Same(old.allocation, level.allocation)) {
          unsettled = true;
        }
      }
    }
  }
  link.levels.assign(new_levels_.begin(), new_levels_.end());
  // scratch_ is sorted by class, so the levels come in the same order.
  std::size_t group = 0;
  for (const Demand& d : scratch_) {
    while (new_levels_[group].class_index != d.class_index) ++group;
    const double occupancy = std::min(d.demand, new_levels_[group].level);
    const Crossing crossing = links_[link_index_[link_id]].crossings[d.crossing];
    Flow& flow = flows_[crossing.flow];
    if (options_.sharing == Sharing::kEndToEnd) {
      if (Same(occupancy, flow.rate)) continue;
      flow.rate = occupancy;
      MarkChanged(crossing.flow);
      for (std::size_t hop = 0; hop < flow.path.size(); ++hop) {
        if (hop != crossing.hop) Enqueue(flow.path[hop]);
      }
    } else {
      if (Same(occupancy, flow.occupancy[crossing.hop])) continue;
      flow.occupancy[crossing.hop] = occupancy;
      if (crossing.hop + 1 < flow.path.size()) {
        Enqueue(flow.path[crossing.hop + 1]);
      } else {
        flow.rate = occupancy;
        MarkChanged(crossing.flow);
      }
    }
  }
  if (unsettled) Enqueue(link_id);
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
  const std::uint64_t budget = 64 * (queue_.size() - queue_head_) + 1024;
  damping_ = 1;
  while (queue_head_ < queue_.size()) {
    const ResourceId id = queue_[queue_head_++];
    if (link_index_[id] == kNone || !links_[link_index_[id]].queued) continue;
    Evaluate(id);
    ++last_evaluations_;
    if (last_evaluations_ % budget != 0 || damping_ == 0) continue;
    damping_ = last_evaluations_ >= 32 * budget ? 0 : 1.0 / (1.0 / damping_ + 1);
    if (damping_ == 0) {
      last_approximate_ = true;
      ++approximate_solves_;
    }
  }
  damping_ = 1;
  queue_.clear();
  queue_head_ = 0;
  total_evaluations_ += last_evaluations_;
}

double MaxMinFairSolver::Occupancy(FlowHandle handle, std::size_t hop) const {
  const Flow& flow = flows_[handle];
  return options_.sharing == Sharing::kUpstream ? flow.occupancy[hop] : flow.rate;
}

const std::vector<MaxMinFairSolver::Crossing>& MaxMinFairSolver::FlowsOn(ResourceId id) const {
  static const std::vector<Crossing> kNoCrossings;
  const Link* link = FindLink(id);
  return link == nullptr ? kNoCrossings : link->crossings;
}

double MaxMinFairSolver::LevelOf(ResourceId id, std::uint32_t class_index) const {
  const Link* link = FindLink(id);
  return link == nullptr ? kUnlimited : LevelIn(*link, class_index);
}

double MaxMinFairSolver::CapacityOf(ResourceId id) const {
  const Link* link = FindLink(id);
  return link == nullptr ? 0 : link->capacity;
}

absl::Status MaxMinFairSolver::CheckCapacity() const {
  for (ResourceId id = 0; id < link_index_.size(); ++id) {
    const Link* link = FindLink(id);
    if (link == nullptr) continue;
    double used = 0;
    for (const Crossing& c : link->crossings) used += Occupancy(c.flow, c.hop);
    if (used > link->capacity * (1 + 1e-6)) {
      return absl::InternalError(internal::Concat("link ", id, " carries ", used,
                                                  " bytes/ns over a capacity of ",
                                                  link->capacity, " (", link->crossings.size(),
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
  std::vector<ClassLevel> levels;
  for (ResourceId id = 0; id < link_index_.size(); ++id) {
    const Link* link = FindLink(id);
    if (link == nullptr) continue;
    ComputeLevels(id, *link, &scratch, &levels, given_allocations ? 0 : 1);
    for (const Demand& d : scratch) {
      double level = kUnlimited;
      for (const ClassLevel& l : levels) {
        if (l.class_index == d.class_index) level = l.level;
      }
      const Crossing& c = link->crossings[d.crossing];
      const double want = std::min(d.demand, level);
      const double have = Occupancy(c.flow, c.hop);
      if (!same(want, have)) {
        return absl::InternalError(internal::Concat(
            "link ", id, ": flow ", c.flow, " (class ", d.class_index, ", hop ", c.hop,
            ") has ", have, " bytes/ns where the link would give it ", want));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace trestle::fabric
