#include "trestle/fabric/valiant_routing.h"

namespace trestle::fabric {

void ValiantRouting::RouteVia(const Topology& topology, NodeId src, NodeId waypoint, NodeId dst,
                              std::uint64_t salt, Path* path) {
  path->Clear();
  topology.AppendMinimalRoute(src, waypoint, salt, path);
  topology.AppendMinimalRoute(waypoint, dst, salt, path);
}

void ValiantRouting::Route(NodeId src, NodeId dst, TrafficClass /*tclass*/, Path* path) {
  if (src == dst) {
    path->Clear();
    return;
  }
  // Another hash than ECMP's salt (seed), so the two choices are independent.
  const std::uint64_t draw =
      choice_ == PathChoice::kPerConnection ? FlowHash(src, dst, ~seed_) : rng_();
  NodeId waypoint = topology_.ValiantWaypoint(src, dst, draw);
  RouteVia(topology_, src, waypoint, dst, FlowHash(src, dst, seed_), path);
}

}  // namespace trestle::fabric
