// DragonflyTopology ("dragonfly:p=P,a=A,h=H,g=G[,arrangement=relative]"):
// G groups of A routers; P endpoints and H global ports per router; routers
// fully connected inside a group. Presets: "slingshot" (p=16, a=32, h=17,
// g=545: 279,040 endpoints, 17,440 switches, 148,240 global links).
//
// Global ports: group x has A*H ports, port P on router P / H. Ports are used
// in rounds of G-1; inside a round, position q names a peer group by the
// arrangement:
//   absolute   q -> group q (skipping x itself)
//   relative   q -> group x + q + 1 (mod G)
//   circulant  even q -> x + q/2 + 1, odd q -> x - (q/2 + 1) (mod G)
// and pairs with the port of the same round whose position names x. When
// A*H > G-1 a group pair gets several global links; a port whose partner falls
// outside the last, partial round stays unconnected (its id is reserved).
//
// Link ids: endpoint->router [0,E), router->endpoint [E,2E), local
// 2E + router*(A-1) + k, global 2E + R*(A-1) + group*A*H + port. No per-link
// storage: the structure is pure arithmetic.
//
// Minimal routing (local-global-local) takes, among the global links joining
// the two groups, one that minimises local hops (salt breaks ties): at most 3
// switch-to-switch hops. A Valiant waypoint is the landing router of a random
// global link into a third group, so Valiant paths have at most 5.
#ifndef TRESTLE_FABRIC_DRAGONFLY_TOPOLOGY_H_
#define TRESTLE_FABRIC_DRAGONFLY_TOPOLOGY_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "trestle/fabric/topology.h"

namespace trestle::fabric {

enum class GlobalArrangement { kAbsolute, kRelative, kCirculant };
absl::StatusOr<GlobalArrangement> ParseGlobalArrangement(std::string_view text);
std::string_view GlobalArrangementName(GlobalArrangement arrangement);

struct DragonflyShape {
  std::uint32_t p = 0;  // Endpoints per router.
  std::uint32_t a = 0;  // Routers per group.
  std::uint32_t h = 0;  // Global ports per router.
  std::uint32_t g = 0;  // Groups.
  GlobalArrangement arrangement = GlobalArrangement::kRelative;
};

class DragonflyTopology final : public Topology {
 public:
  // Requires p, a, g >= 1 and the link id space to fit 32 bits.
  DragonflyTopology(const DragonflyShape& shape, const FabricParams& params);

  std::string Name() const override;
  const DragonflyShape& shape() const { return s_; }

  std::uint32_t EndpointCount() const override { return e_; }
  std::uint32_t SwitchCount() const override { return routers_; }
  NodeId EndpointRouter(NodeId endpoint) const override { return e_ + endpoint / s_.p; }
  LinkId LinkIdCount() const override { return global_base_ + s_.g * ports_per_group_; }
  bool LinkExists(LinkId link) const override;
  LinkKind KindOf(LinkId link) const override {
    return link < local_base_ ? LinkKind::kHost
                              : (link < global_base_ ? LinkKind::kLocal : LinkKind::kGlobal);
  }
  LinkEnds EndsOf(LinkId link) const override;
  LinkCounts CountLinks() const override;
  void AppendLinksFrom(NodeId node, std::vector<LinkId>* out) const override;
  std::uint32_t Radix() const override { return s_.p + s_.a - 1 + s_.h; }
  std::uint64_t BisectionLinks() const override;
  std::string BisectionCut() const override;
  void AppendMinimalRoute(NodeId from, NodeId to, std::uint64_t salt,
                          Path* path) const override;
  NodeId ValiantWaypoint(NodeId from, NodeId to, std::uint64_t random) const override;
  std::vector<NodeId> SymmetricHopSources() const override;

  // Where global port `port` of `group` leads: sets the peer group and the
  // peer's port and returns true, or returns false when the port is
  // unconnected (or out of range). The link's id is
  // 2E + R*(A-1) + group*A*H + port.
  bool PortPeer(std::uint32_t group, std::uint32_t port, std::uint32_t* peer_group,
                std::uint32_t* peer_port) const;

 private:
  std::uint32_t GroupOfRouter(std::uint32_t router) const { return router / s_.a; }
  LinkId LocalLink(std::uint32_t from_router, std::uint32_t to_router) const;
  // Round position q at which `group` reaches `peer` (peer != group).
  std::uint32_t PositionOf(std::uint32_t group, std::uint32_t peer) const;
  // Routes between routers (router indices, not node ids).
  void RouteRouters(std::uint32_t from, std::uint32_t to, std::uint64_t salt, Path* path) const;

  DragonflyShape s_;
  std::uint32_t e_;
  std::uint32_t routers_;
  std::uint32_t ports_per_group_;  // a * h
  std::uint32_t round_;            // g - 1 (ports per round)
  LinkId local_base_;
  LinkId global_base_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_DRAGONFLY_TOPOLOGY_H_
