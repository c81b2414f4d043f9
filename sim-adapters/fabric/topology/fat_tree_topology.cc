#include "trestle/fabric/fat_tree_topology.h"

#include <algorithm>
#include "common/text.h"


namespace trestle::fabric {

FatTreeTopology::FatTreeTopology(std::uint32_t k, std::uint32_t oversubscription,
                                 const FabricParams& params)
    : Topology(params),
      k_(k),
      half_(k / 2),
      oversub_(oversubscription),
      hosts_per_edge_(oversubscription * (k / 2)),
      e_(k * (k / 2) * hosts_per_edge_) {
  LinkId quarter = k_ * k_ * k_ / 4;
  edge_up_base_ = 2 * e_;
  agg_down_base_ = edge_up_base_ + quarter;
  agg_up_base_ = agg_down_base_ + quarter;
  core_down_base_ = agg_up_base_ + quarter;
}

std::string FatTreeTopology::Name() const {
  if (oversub_ == 1) return internal::Concat("fattree:k=", k_);
  return internal::Concat("fattree:k=", k_, ",oversub=", oversub_);
}

FatTreeTopology::Place FatTreeTopology::Locate(NodeId node) const {
  if (node < e_) return {kHostLevel, node / hosts_per_edge_ / half_, node};
  std::uint32_t s = node - e_;
  if (s < k_ * half_) return {kEdge, s / half_, s % half_};
  s -= k_ * half_;
  if (s < k_ * half_) return {kAgg, s / half_, s % half_};
  return {kCore, 0, s - k_ * half_};
}

LinkEnds FatTreeTopology::EndsOf(LinkId link) const {
  if (link < e_) return {link, EndpointRouter(link)};
  if (link < edge_up_base_) return {EndpointRouter(link - e_), link - e_};
  if (link < agg_down_base_) {
    std::uint32_t r = link - edge_up_base_;  // edge_global * half + j
    std::uint32_t edge = r / half_;
    return {e_ + edge, AggNode(edge / half_, r % half_)};
  }
  if (link < agg_up_base_) {
    std::uint32_t r = link - agg_down_base_;  // agg_global * half + i
    std::uint32_t agg = r / half_;
    return {AggNode(agg / half_, agg % half_), EdgeNode(agg / half_, r % half_)};
  }
  if (link < core_down_base_) {
    std::uint32_t r = link - agg_up_base_;  // agg_global * half + m
    std::uint32_t agg = r / half_;
    return {AggNode(agg / half_, agg % half_), CoreNode((agg % half_) * half_ + r % half_)};
  }
  std::uint32_t r = link - core_down_base_;  // core * k + pod
  std::uint32_t core = r / k_;
  return {CoreNode(core), AggNode(r % k_, core / half_)};
}

LinkCounts FatTreeTopology::CountLinks() const {
  return {e_, static_cast<std::uint64_t>(k_) * k_ * k_ / 2, 0};
}

void FatTreeTopology::AppendLinksFrom(NodeId node, std::vector<LinkId>* out) const {
  Place p = Locate(node);
  switch (p.level) {
    case kHostLevel:
      out->push_back(node);
      return;
    case kEdge: {
      std::uint32_t edge = p.pod * half_ + p.index;
      for (std::uint32_t h = 0; h < hosts_per_edge_; ++h) {
        out->push_back(e_ + edge * hosts_per_edge_ + h);
      }
      for (std::uint32_t j = 0; j < half_; ++j) out->push_back(edge_up_base_ + edge * half_ + j);
      return;
    }
    case kAgg: {
      std::uint32_t agg = p.pod * half_ + p.index;
      for (std::uint32_t i = 0; i < half_; ++i) out->push_back(agg_down_base_ + agg * half_ + i);
      for (std::uint32_t m = 0; m < half_; ++m) out->push_back(agg_up_base_ + agg * half_ + m);
      return;
    }
    case kCore:
      for (std::uint32_t pod = 0; pod < k_; ++pod) out->push_back(core_down_base_ + p.index * k_ + pod);
      return;
  }
}

std::uint32_t FatTreeTopology::Radix() const { return std::max(k_, hosts_per_edge_ + half_); }

std::uint64_t FatTreeTopology::BisectionLinks() const {
  return static_cast<std::uint64_t>(half_) * half_ * half_;
}

// Whether `below` can be reached from `above` by going only down.
bool FatTreeTopology::Reaches(const Place& above, const Place& below) const {
  switch (above.level) {
    case kHostLevel:
      return false;
    case kEdge:
      return below.level == kHostLevel && below.pod == above.pod &&
             below.index / hosts_per_edge_ % half_ == above.index;
    case kAgg:
      return (below.level == kEdge || below.level == kHostLevel) && below.pod == above.pod;
    case kCore:
      return below.level != kCore &&
             (below.level != kAgg || below.index == above.index / half_);
  }
  return false;
}

NodeId FatTreeTopology::Step(NodeId cur, NodeId to, std::uint64_t salt, Path* path) const {
  Place c = Locate(cur);
  Place t = Locate(to);
  if (Reaches(c, t)) {  // Descend; the way down is unique.
    switch (c.level) {
      case kCore: {
        std::uint32_t j = c.index / half_;
        path->Append(core_down_base_ + c.index * k_ + t.pod);
        return AggNode(t.pod, j);
      }
      case kAgg: {
        std::uint32_t i = t.level == kEdge ? t.index : t.index / hosts_per_edge_ % half_;
        path->Append(agg_down_base_ + (c.pod * half_ + c.index) * half_ + i);
        return EdgeNode(c.pod, i);
      }
      default:  // Edge to one of its hosts.
        path->Append(e_ + to);
        return to;
    }
  }
  // Climb. A core or aggregation target fixes which aggregation index j we
  // must climb through; otherwise the salt chooses (D-mod-K or ECMP).
  bool fixed_j = t.level == kCore || t.level == kAgg;
  std::uint32_t want_j = t.level == kCore ? t.index / half_ : t.index;
  std::uint32_t j = fixed_j ? want_j : static_cast<std::uint32_t>(salt % half_);
  switch (c.level) {
    case kHostLevel:
      path->Append(cur);
      return EndpointRouter(cur);
    case kEdge:
      path->Append(edge_up_base_ + (c.pod * half_ + c.index) * half_ + j);
      return AggNode(c.pod, j);
    case kAgg: {
      if (fixed_j && c.index != want_j) {
        // Wrong aggregation plane: go down to an edge and up the right one.
        std::uint32_t i = static_cast<std::uint32_t>(salt % half_);
        path->Append(agg_down_base_ + (c.pod * half_ + c.index) * half_ + i);
        return EdgeNode(c.pod, i);
      }
      std::uint32_t m = t.level == kCore ? t.index % half_
                                         : static_cast<std::uint32_t>(salt / half_ % half_);
      path->Append(agg_up_base_ + (c.pod * half_ + c.index) * half_ + m);
      return CoreNode(c.index * half_ + m);
    }
    case kCore: {
      // A core reaches another core or a foreign-plane aggregation only
      // through some pod: use the target's pod when it has one.
      std::uint32_t pod = t.level == kCore ? static_cast<std::uint32_t>(salt % k_) : t.pod;
      path->Append(core_down_base_ + c.index * k_ + pod);
      return AggNode(pod, c.index / half_);
    }
  }
  return to;
}

void FatTreeTopology::AppendMinimalRoute(NodeId from, NodeId to, std::uint64_t salt,
                                         Path* path) const {
  NodeId cur = from;
  while (cur != to) cur = Step(cur, to, salt, path);
}

NodeId FatTreeTopology::ValiantWaypoint(NodeId, NodeId, std::uint64_t random) const {
  return CoreNode(static_cast<std::uint32_t>(random % (half_ * half_)));
}

}  // namespace trestle::fabric
