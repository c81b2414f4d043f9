// FullMeshTopology ("fullmesh:N"): N endpoints, each linked directly to every
// other. A direct network of diameter 1. Link ids: from i to j is
// i * (N - 1) + (j < i ? j : j - 1).
#ifndef TRESTLE_FABRIC_FULL_MESH_TOPOLOGY_H_
#define TRESTLE_FABRIC_FULL_MESH_TOPOLOGY_H_

#include "trestle/fabric/topology.h"

namespace trestle::fabric {

class FullMeshTopology final : public Topology {
 public:
  // Requires endpoints >= 1 and endpoints * (endpoints - 1) < 2^32.
  FullMeshTopology(std::uint32_t endpoints, const FabricParams& params);

  std::string Name() const override;
  std::uint32_t EndpointCount() const override { return n_; }
  std::uint32_t SwitchCount() const override { return 0; }
  NodeId EndpointRouter(NodeId endpoint) const override { return endpoint; }
  LinkId LinkIdCount() const override { return n_ * (n_ - 1); }
  LinkKind KindOf(LinkId) const override { return LinkKind::kLocal; }
  LinkEnds EndsOf(LinkId link) const override;
  LinkCounts CountLinks() const override;
  void AppendLinksFrom(NodeId node, std::vector<LinkId>* out) const override;
  std::uint32_t Radix() const override { return n_ - 1; }
  std::uint64_t BisectionLinks() const override;
  std::string BisectionCut() const override { return "half the endpoints against the rest"; }
  void AppendMinimalRoute(NodeId from, NodeId to, std::uint64_t salt,
                          Path* path) const override;
  NodeId ValiantWaypoint(NodeId from, NodeId to, std::uint64_t random) const override;
  std::vector<NodeId> SymmetricHopSources() const override { return {0}; }

 private:
  LinkId LinkBetween(NodeId i, NodeId j) const { return i * (n_ - 1) + (j < i ? j : j - 1); }
  std::uint32_t n_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_FULL_MESH_TOPOLOGY_H_
