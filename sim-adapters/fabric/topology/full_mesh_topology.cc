#include "trestle/fabric/full_mesh_topology.h"
#include "common/text.h"


namespace trestle::fabric {

FullMeshTopology::FullMeshTopology(std::uint32_t endpoints, const FabricParams& params)
    : Topology(params), n_(endpoints) {}

std::string FullMeshTopology::Name() const { return internal::Concat("fullmesh:", n_); }

LinkEnds FullMeshTopology::EndsOf(LinkId link) const {
  NodeId i = link / (n_ - 1);
  NodeId j = link % (n_ - 1);
  return {i, j < i ? j : j + 1};
}

LinkCounts FullMeshTopology::CountLinks() const {
  return {0, static_cast<std::uint64_t>(n_) * (n_ - 1) / 2, 0};
}

void FullMeshTopology::AppendLinksFrom(NodeId node, std::vector<LinkId>* out) const {
  for (NodeId j = 0; j < n_; ++j) {
    if (j != node) out->push_back(LinkBetween(node, j));
  }
}

std::uint64_t FullMeshTopology::BisectionLinks() const {
  return static_cast<std::uint64_t>(n_ / 2) * (n_ - n_ / 2);
}

void FullMeshTopology::AppendMinimalRoute(NodeId from, NodeId to, std::uint64_t,
                                          Path* path) const {
  if (from != to) path->Append(LinkBetween(from, to));
}

NodeId FullMeshTopology::ValiantWaypoint(NodeId, NodeId, std::uint64_t random) const {
  return static_cast<NodeId>(random % n_);
}

}  // namespace trestle::fabric
