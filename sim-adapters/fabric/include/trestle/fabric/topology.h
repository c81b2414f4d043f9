// Topology: the abstract interconnect. Implementations: SwitchTopology,
// RingTopology, TorusTopology (also meshes), FullMeshTopology,
// FatTreeTopology, DragonflyTopology.
//
// Contract shared by all implementations:
//  - Nodes are numbered as described in link.h: endpoints, then switches.
//  - Structure is stored arithmetically: no per-link heap objects. Every query
//    below is O(1) unless stated, so memory is O(1) in the number of links and
//    the full Slingshot preset (279,040 endpoints) builds in microseconds.
//  - "Routers" are the nodes that forward traffic: the switches of an indirect
//    network, or every endpoint of a direct one (ring, torus, mesh, full mesh).
//  - A Topology is immutable after construction and safe to share between
//    threads.
//
// Routing primitives (AppendMinimalRoute, ValiantWaypoint) live here because
// they depend on the topology's structure; the routing policies in routing.h
// combine them.
#ifndef TRESTLE_FABRIC_TOPOLOGY_H_
#define TRESTLE_FABRIC_TOPOLOGY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "trestle/fabric/fabric_params.h"
#include "trestle/fabric/link.h"
#include "trestle/fabric/path.h"

namespace trestle::fabric {

// Undirected link counts by kind (a bidirectional cable counts once).
struct LinkCounts {
  std::uint64_t host = 0;
  std::uint64_t local = 0;
  std::uint64_t global = 0;
  std::uint64_t Total() const { return host + local + global; }
};

class Topology {
 public:
  virtual ~Topology() = default;

  // Canonical spec of the shape, e.g. "torus:4x4x4" (without link params).
  virtual std::string Name() const = 0;

  virtual std::uint32_t EndpointCount() const = 0;
  virtual std::uint32_t SwitchCount() const = 0;
  // True for ring, torus, mesh, full mesh: endpoints are the routers.
  virtual bool IsDirect() const { return SwitchCount() == 0; }
  std::uint32_t NodeCount() const { return EndpointCount() + SwitchCount(); }
  std::uint32_t RouterCount() const { return IsDirect() ? EndpointCount() : SwitchCount(); }
  // The i-th router, i in [0, RouterCount()).
  NodeId RouterNode(std::uint32_t i) const { return IsDirect() ? i : EndpointCount() + i; }
  // The router an endpoint injects into (itself in a direct network).
  virtual NodeId EndpointRouter(NodeId endpoint) const = 0;

  // Size of the dense link id space, including reserved ids of absent links.
  virtual LinkId LinkIdCount() const = 0;
  virtual bool LinkExists(LinkId link) const { return link < LinkIdCount(); }
  virtual LinkKind KindOf(LinkId link) const = 0;
  // Requires LinkExists(link).
  virtual LinkEnds EndsOf(LinkId link) const = 0;
  // O(1), except dragonfly: O(global ports), 0.6 ms for slingshot.
  virtual LinkCounts CountLinks() const = 0;
  // Appends the ids of the existing links leaving `node`. O(degree).
  virtual void AppendLinksFrom(NodeId node, std::vector<LinkId>* out) const = 0;

  // Ports on the largest switch (direct networks: links per endpoint).
  virtual std::uint32_t Radix() const = 0;
  // Undirected links crossing a balanced cut of the endpoints, for the cut
  // named by BisectionCut(). Closed form, or O(links) for dragonfly.
  virtual std::uint64_t BisectionLinks() const = 0;
  virtual std::string BisectionCut() const = 0;

  // Appends to `path` one minimal path from `from` to `to` (any nodes). When
  // several minimal paths exist, `salt` picks one deterministically (the same
  // salt gives the same path). Appends nothing when from == to.
  virtual void AppendMinimalRoute(NodeId from, NodeId to, std::uint64_t salt,
                                  Path* path) const = 0;

  // A Valiant intermediate for a message between routers `from` and `to`,
  // chosen by `random`: a random router (torus, ring, full mesh), a random
  // core switch (fat tree), or a router of a random group other than the
  // two endpoints' groups, reached by a global link from `from`'s group
  // (dragonfly), so that minimal(from, waypoint) + minimal(waypoint, to)
  // stays within the topology's Valiant hop bound. May return `from` or `to`
  // when the topology has no useful intermediate.
  virtual NodeId ValiantWaypoint(NodeId from, NodeId to, std::uint64_t random) const = 0;

  // Routers to start the breadth-first searches of TopologyStatistics from,
  // with the guarantee that they give exact diameter and average hops:
  // one per symmetry class where the topology is symmetric. Empty means "no
  // such guarantee: use every router". Default: empty.
  virtual std::vector<NodeId> SymmetricHopSources() const { return {}; }

  const FabricParams& params() const { return params_; }
  LinkProperties PropertiesOf(LinkId link) const { return params_.ForKind(KindOf(link)); }

 protected:
  explicit Topology(const FabricParams& params) : params_(params) {}

 private:
  FabricParams params_;
};

using TopologyPtr = std::unique_ptr<Topology>;

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_TOPOLOGY_H_
