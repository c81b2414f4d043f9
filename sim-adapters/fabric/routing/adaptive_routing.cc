#include "trestle/fabric/adaptive_routing.h"

#include "trestle/fabric/valiant_routing.h"

namespace trestle::fabric {

AdaptiveRouting::AdaptiveRouting(const Topology& topology, const LinkLoad* load,
                                 std::uint64_t seed, Options options)
    : topology_(topology), load_(load), seed_(seed), options_(options), rng_(seed) {}

double AdaptiveRouting::Cost(const Path& path) const {
  double cost = 0;
  for (LinkId link : path.Links()) {
    cost += topology_.PropertiesOf(link).latency.ns();
    if (load_ != nullptr) cost += load_->QueueDelayNs(link);
  }
  if (path.HopCount() > 1) {
    cost += (path.HopCount() - 1) * topology_.params().switch_latency.ns();
  }
  return cost;
}

void AdaptiveRouting::Route(NodeId src, NodeId dst, TrafficClass /*tclass*/, Path* path) {
  path->Clear();
  if (src == dst) return;
  std::uint64_t flow = FlowHash(src, dst, seed_);
  topology_.AppendMinimalRoute(src, dst, flow, path);
  double best = Cost(*path);
  for (int i = 1; i < options_.minimal_candidates; ++i) {
    candidate_.Clear();
    topology_.AppendMinimalRoute(src, dst, rng_(), &candidate_);
    double cost = Cost(candidate_);
    if (cost < best) {
      best = cost;
      std::swap(*path, candidate_);
    }
  }
  for (int i = 0; i < options_.valiant_candidates; ++i) {
    NodeId waypoint = topology_.ValiantWaypoint(src, dst, rng_());
    if (waypoint == src || waypoint == dst) continue;
    ValiantRouting::RouteVia(topology_, src, waypoint, dst, flow, &candidate_);
    double cost = Cost(candidate_) * (1.0 + options_.minimal_bias);
    if (cost < best) {
      best = cost;
      std::swap(*path, candidate_);
    }
  }
}

}  // namespace trestle::fabric
