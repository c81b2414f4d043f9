// MaxMinFairSolver's flows and links (max_min_fair_solver.h): AddFlow and
// RemoveFlow, which record a change and queue the links it touches for the
// next Solve, the pools they reuse (links by resource id, the per-hop
// arrays), and the lookups by flow and by resource id. What happens at Solve
// is in max_min_fair_solver.cc.
#include <algorithm>
#include <type_traits>
#include <utility>

#include "trestle/fabric/max_min_fair_solver.h"

namespace trestle::fabric {

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

}  // namespace trestle::fabric
