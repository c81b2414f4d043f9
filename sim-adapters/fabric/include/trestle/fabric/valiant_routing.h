// ValiantRouting: minimal to a random intermediate (Topology::ValiantWaypoint:
// a random node, core switch, or router of a third dragonfly group), then
// minimal to the destination. Spreads any traffic pattern evenly at the cost
// of about twice the hops (dragonfly: at most 5 switch-to-switch hops).
// The waypoint is drawn per message from the seeded generator
// (PathChoice::kPerMessage), or per connection from a hash of (src, dst,
// seed) (kPerConnection: every message of a connection takes one path).
#ifndef TRESTLE_FABRIC_VALIANT_ROUTING_H_
#define TRESTLE_FABRIC_VALIANT_ROUTING_H_

#include <random>

#include "trestle/fabric/routing.h"

namespace trestle::fabric {

class ValiantRouting final : public Routing {
 public:
  ValiantRouting(const Topology& topology, std::uint64_t seed,
                 PathChoice choice = PathChoice::kPerMessage)
      : topology_(topology), seed_(seed), choice_(choice), rng_(seed) {}

  std::string_view Name() const override { return "valiant"; }
  void Route(NodeId src, NodeId dst, TrafficClass tclass, Path* path) override;

  // Route through a given waypoint; shared with AdaptiveRouting.
  static void RouteVia(const Topology& topology, NodeId src, NodeId waypoint, NodeId dst,
                       std::uint64_t salt, Path* path);

 private:
  const Topology& topology_;
  std::uint64_t seed_;
  PathChoice choice_;
  std::mt19937_64 rng_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_VALIANT_ROUTING_H_
