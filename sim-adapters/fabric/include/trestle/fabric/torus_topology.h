// TorusTopology ("torus:AxBxC", any number of dimensions, wrap-around) and,
// with wrap = false, meshes ("mesh:AxB"). A direct network: every endpoint is
// a router with links to its neighbours along each dimension.
//
// Node n has coordinates in mixed radix (dimension 0 varies fastest). Link ids:
// (n * D + d) * 2 + dir, dir 0 towards +1 and 1 towards -1 along dimension d;
// a mesh reserves but lacks the ids that would leave its boundary. A dimension
// of size 2 has a single cable (no duplicate wrap link); size 1 has none.
//
// Minimal routing is dimension order (dimension 0 first), taking the shorter
// way around each ring; when both ways are equally long the salt picks.
// Diameter: sum over d of floor(k_d / 2) for a torus, sum of (k_d - 1) for a
// mesh.
#ifndef TRESTLE_FABRIC_TORUS_TOPOLOGY_H_
#define TRESTLE_FABRIC_TORUS_TOPOLOGY_H_

#include <vector>

#include "trestle/fabric/topology.h"

namespace trestle::fabric {

class TorusTopology : public Topology {
 public:
  // Requires at least one dimension, each >= 1, product < 2^31.
  TorusTopology(std::vector<std::uint32_t> dims, bool wrap, const FabricParams& params);

  std::string Name() const override;
  const std::vector<std::uint32_t>& dims() const { return dims_; }
  bool wrap() const { return wrap_; }

  std::uint32_t EndpointCount() const override { return n_; }
  std::uint32_t SwitchCount() const override { return 0; }
  NodeId EndpointRouter(NodeId endpoint) const override { return endpoint; }
  LinkId LinkIdCount() const override { return n_ * static_cast<LinkId>(dims_.size()) * 2; }
  bool LinkExists(LinkId link) const override;
  LinkKind KindOf(LinkId) const override { return LinkKind::kLocal; }
  LinkEnds EndsOf(LinkId link) const override;
  LinkCounts CountLinks() const override;
  void AppendLinksFrom(NodeId node, std::vector<LinkId>* out) const override;
  std::uint32_t Radix() const override;
  std::uint64_t BisectionLinks() const override;
  std::string BisectionCut() const override;
  void AppendMinimalRoute(NodeId from, NodeId to, std::uint64_t salt,
                          Path* path) const override;
  NodeId ValiantWaypoint(NodeId from, NodeId to, std::uint64_t random) const override;
  std::vector<NodeId> SymmetricHopSources() const override;

 private:
  std::uint32_t Coord(NodeId node, std::size_t d) const { return node / strides_[d] % dims_[d]; }
  // Whether dimension d wraps around (a torus dimension longer than 2).
  bool Wraps(std::size_t d) const { return wrap_ && dims_[d] > 2; }
  // The neighbour of `node` one step along d in direction dir, or kNoNode.
  NodeId Neighbour(NodeId node, std::size_t d, int dir) const;

  std::vector<std::uint32_t> dims_;
  std::vector<std::uint32_t> strides_;
  bool wrap_;
  std::uint32_t n_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_TORUS_TOPOLOGY_H_
