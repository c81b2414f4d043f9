// FatTreeTopology ("fattree:k=K[,oversub=R]"): the three-level k-ary fat tree
// (k even). k pods, each with k/2 edge and k/2 aggregation switches; (k/2)^2
// core switches; R * k/2 endpoints per edge switch (R = 1: full bisection,
// k^3/4 endpoints; R > 1 oversubscribes the edge R:1).
//
// Switch node order after the endpoints: edges (pod-major), aggregations
// (pod-major), cores. Aggregation j of every pod links to cores
// [j*k/2, (j+1)*k/2). Link id ranges, in order: endpoint->edge, edge->endpoint,
// edge->agg, agg->edge, agg->core, core->agg (all arithmetic).
//
// Minimal routing goes up to the lowest common ancestor and down; the salt
// chooses the up links, so salt = destination gives D-mod-K routing and salt
// = a flow hash gives ECMP. At most 4 switch-to-switch hops between endpoints.
#ifndef TRESTLE_FABRIC_FAT_TREE_TOPOLOGY_H_
#define TRESTLE_FABRIC_FAT_TREE_TOPOLOGY_H_

#include "trestle/fabric/topology.h"

namespace trestle::fabric {

class FatTreeTopology final : public Topology {
 public:
  // Requires k even, k >= 2, oversubscription >= 1.
  FatTreeTopology(std::uint32_t k, std::uint32_t oversubscription, const FabricParams& params);

  std::string Name() const override;
  std::uint32_t k() const { return k_; }

  std::uint32_t EndpointCount() const override { return e_; }
  std::uint32_t SwitchCount() const override { return 5 * k_ * k_ / 4; }
  NodeId EndpointRouter(NodeId endpoint) const override { return e_ + endpoint / hosts_per_edge_; }
  LinkId LinkIdCount() const override { return 2 * e_ + k_ * k_ * k_; }
  LinkKind KindOf(LinkId link) const override {
    return link < 2 * e_ ? LinkKind::kHost : LinkKind::kLocal;
  }
  LinkEnds EndsOf(LinkId link) const override;
  LinkCounts CountLinks() const override;
  void AppendLinksFrom(NodeId node, std::vector<LinkId>* out) const override;
  std::uint32_t Radix() const override;
  std::uint64_t BisectionLinks() const override;
  std::string BisectionCut() const override { return "core links of half the pods"; }
  void AppendMinimalRoute(NodeId from, NodeId to, std::uint64_t salt,
                          Path* path) const override;
  NodeId ValiantWaypoint(NodeId from, NodeId to, std::uint64_t random) const override;
  std::vector<NodeId> SymmetricHopSources() const override { return {e_}; }

 private:
  enum Level { kHostLevel = 0, kEdge = 1, kAgg = 2, kCore = 3 };
  struct Place {
    Level level;
    std::uint32_t pod;    // Unused for cores.
    std::uint32_t index;  // Host: endpoint id; edge/agg: index in pod; core: core id.
  };
  Place Locate(NodeId node) const;
  NodeId EdgeNode(std::uint32_t pod, std::uint32_t i) const { return e_ + pod * half_ + i; }
  NodeId AggNode(std::uint32_t pod, std::uint32_t j) const {
    return e_ + k_ * half_ + pod * half_ + j;
  }
  NodeId CoreNode(std::uint32_t c) const { return e_ + k_ * k_ + c; }
  bool Reaches(const Place& above, const Place& below) const;
  // One step from `cur` towards `to`; appends the link and returns the node.
  NodeId Step(NodeId cur, NodeId to, std::uint64_t salt, Path* path) const;

  std::uint32_t k_;
  std::uint32_t half_;  // k / 2
  std::uint32_t oversub_;
  std::uint32_t hosts_per_edge_;
  std::uint32_t e_;
  // First ids of the switch-to-switch link ranges (k^3/4 ids each).
  LinkId edge_up_base_, agg_down_base_, agg_up_base_, core_down_base_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_FAT_TREE_TOPOLOGY_H_
