// AdaptiveRouting: UGAL-style choice per message among up to four candidate
// paths, two minimal (different salts) and two Valiant (random waypoints).
//
// Each candidate costs its zero-load latency (link latencies plus switch
// latencies, in ns) plus the queueing delay LinkLoad reports on its links.
// Non-minimal candidates' costs are multiplied by (1 + minimal_bias), so a
// detour is taken only when it is clearly better. With no load the minimal
// path always wins. O(4 × path length) per Route().
#ifndef TRESTLE_FABRIC_ADAPTIVE_ROUTING_H_
#define TRESTLE_FABRIC_ADAPTIVE_ROUTING_H_

#include <random>

#include "trestle/fabric/routing.h"

namespace trestle::fabric {

class AdaptiveRouting final : public Routing {
 public:
  struct Options {
    double minimal_bias = 0.25;
    int minimal_candidates = 2;
    int valiant_candidates = 2;
  };

  // `load` may be null (no load); otherwise it must outlive this object.
  AdaptiveRouting(const Topology& topology, const LinkLoad* load, std::uint64_t seed,
                  Options options);
  AdaptiveRouting(const Topology& topology, const LinkLoad* load, std::uint64_t seed)
      : AdaptiveRouting(topology, load, seed, Options()) {}

  std::string_view Name() const override { return "adaptive"; }
  void Route(NodeId src, NodeId dst, TrafficClass tclass, Path* path) override;

 private:
  double Cost(const Path& path) const;

  const Topology& topology_;
  const LinkLoad* load_;
  std::uint64_t seed_;
  Options options_;
  std::mt19937_64 rng_;
  Path candidate_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_ADAPTIVE_ROUTING_H_
