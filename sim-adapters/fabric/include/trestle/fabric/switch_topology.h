// SwitchTopology ("switch:N"): N endpoints on one switch of radix N.
// Link ids: [0, N) endpoint -> switch (host, up), [N, 2N) switch -> endpoint.
// Every pair of distinct endpoints is two links apart; diameter 0 switch hops.
#ifndef TRESTLE_FABRIC_SWITCH_TOPOLOGY_H_
#define TRESTLE_FABRIC_SWITCH_TOPOLOGY_H_

#include "trestle/fabric/topology.h"

namespace trestle::fabric {

class SwitchTopology final : public Topology {
 public:
  // Requires endpoints >= 1.
  SwitchTopology(std::uint32_t endpoints, const FabricParams& params);

  std::string Name() const override;
  std::uint32_t EndpointCount() const override { return n_; }
  std::uint32_t SwitchCount() const override { return 1; }
  NodeId EndpointRouter(NodeId) const override { return n_; }
  LinkId LinkIdCount() const override { return 2 * n_; }
  LinkKind KindOf(LinkId) const override { return LinkKind::kHost; }
  LinkEnds EndsOf(LinkId link) const override;
  LinkCounts CountLinks() const override { return {n_, 0, 0}; }
  void AppendLinksFrom(NodeId node, std::vector<LinkId>* out) const override;
  std::uint32_t Radix() const override { return n_; }
  std::uint64_t BisectionLinks() const override { return n_ / 2; }
  std::string BisectionCut() const override { return "host links of half the endpoints"; }
  void AppendMinimalRoute(NodeId from, NodeId to, std::uint64_t salt,
                          Path* path) const override;
  NodeId ValiantWaypoint(NodeId, NodeId, std::uint64_t) const override { return n_; }
  std::vector<NodeId> SymmetricHopSources() const override { return {n_}; }

 private:
  std::uint32_t n_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_SWITCH_TOPOLOGY_H_
