// MinimalRouting: always a minimal path, as the topology defines it
// (torus/mesh: dimension order; fat tree: up-down; dragonfly:
// local-global-local). Where several minimal paths exist, the choice is
// per flow: kEcmpHash hashes (src, dst, seed); kDestinationModK uses the
// destination id (D-mod-K on fat trees). No randomness per message: the same
// flow always takes the same path. O(path length) per Route().
#ifndef TRESTLE_FABRIC_MINIMAL_ROUTING_H_
#define TRESTLE_FABRIC_MINIMAL_ROUTING_H_

#include "trestle/fabric/routing.h"

namespace trestle::fabric {

class MinimalRouting final : public Routing {
 public:
  enum class Spread { kEcmpHash, kDestinationModK };

  MinimalRouting(const Topology& topology, std::uint64_t seed, Spread spread = Spread::kEcmpHash)
      : topology_(topology), seed_(seed), spread_(spread) {}

  std::string_view Name() const override {
    return spread_ == Spread::kEcmpHash ? "minimal" : "minimal-dmodk";
  }
  void Route(NodeId src, NodeId dst, TrafficClass tclass, Path* path) override;

 private:
  const Topology& topology_;
  std::uint64_t seed_;
  Spread spread_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_MINIMAL_ROUTING_H_
