#include "trestle/fabric/dragonfly_topology.h"

#include "absl/status/status.h"
#include "common/text.h"
#include "trestle/platform/enum_names.h"

namespace trestle::fabric {

namespace {

constexpr platform::EnumName<GlobalArrangement> kArrangementNames[] = {
    {GlobalArrangement::kAbsolute, "absolute"},
    {GlobalArrangement::kRelative, "relative"},
    {GlobalArrangement::kCirculant, "circulant"},
};

}  // namespace

absl::StatusOr<GlobalArrangement> ParseGlobalArrangement(std::string_view text) {
  return platform::EnumNames<GlobalArrangement>(kArrangementNames).Parse(text,
                                                "global-link arrangement");
}

std::string_view GlobalArrangementName(GlobalArrangement arrangement) {
  return platform::EnumNames<GlobalArrangement>(kArrangementNames).Name(arrangement);
}

DragonflyTopology::DragonflyTopology(const DragonflyShape& shape, const FabricParams& params)
    : Topology(params),
      s_(shape),
      e_(shape.p * shape.a * shape.g),
      routers_(shape.a * shape.g),
      ports_per_group_(shape.a * shape.h),
      round_(shape.g > 1 ? shape.g - 1 : 1),
      local_base_(2 * e_),
      global_base_(2 * e_ + routers_ * (shape.a - 1)) {}

std::string DragonflyTopology::Name() const {
  std::string name = internal::Concat("dragonfly:p=", s_.p, ",a=", s_.a, ",h=", s_.h, ",g=", s_.g);
  if (s_.arrangement != GlobalArrangement::kRelative) {
    name += internal::Concat(",arrangement=", GlobalArrangementName(s_.arrangement));
  }
  return name;
}

bool DragonflyTopology::PortPeer(std::uint32_t group, std::uint32_t port,
                                 std::uint32_t* peer_group, std::uint32_t* peer_port) const {
  const std::uint32_t g = s_.g;
  if (g < 2 || port >= ports_per_group_) return false;
  std::uint32_t round = port / round_;
  std::uint32_t q = port % round_;
  std::uint32_t peer = 0;
  std::uint32_t q_back = 0;
  switch (s_.arrangement) {
    case GlobalArrangement::kAbsolute:
      peer = q < group ? q : q + 1;
      q_back = group < peer ? group : group - 1;
      break;
    case GlobalArrangement::kRelative:
      peer = (group + q + 1) % g;
      q_back = g - 2 - q;
      break;
    case GlobalArrangement::kCirculant: {
      std::uint32_t offset = q / 2 + 1;
      if (g % 2 == 0 && q == g - 2) {  // The antipodal group pairs with itself.
        peer = (group + g / 2) % g;
        q_back = q;
      } else if (q % 2 == 0) {
        peer = (group + offset) % g;
        q_back = q + 1;
      } else {
        peer = (group + g - offset) % g;
        q_back = q - 1;
      }
      break;
    }
  }
  std::uint32_t back = round * round_ + q_back;
  if (back >= ports_per_group_) return false;
  *peer_group = peer;
  *peer_port = back;
  return true;
}

std::uint32_t DragonflyTopology::PositionOf(std::uint32_t group, std::uint32_t peer) const {
  const std::uint32_t g = s_.g;
  switch (s_.arrangement) {
    case GlobalArrangement::kAbsolute:
      return peer < group ? peer : peer - 1;
    case GlobalArrangement::kRelative:
      return (peer + g - group - 1) % g;
    case GlobalArrangement::kCirculant: {
      std::uint32_t d = (peer + g - group) % g;
      if (g % 2 == 0 && d == g / 2) return g - 2;
      if (d <= (g - 1) / 2) return 2 * (d - 1);
      return 2 * (g - d - 1) + 1;
    }
  }
  return 0;
}

LinkId DragonflyTopology::LocalLink(std::uint32_t from_router, std::uint32_t to_router) const {
  std::uint32_t x = from_router % s_.a;
  std::uint32_t y = to_router % s_.a;
  return local_base_ + from_router * (s_.a - 1) + (y < x ? y : y - 1);
}

bool DragonflyTopology::LinkExists(LinkId link) const {
  if (link < global_base_) return true;
  if (link >= LinkIdCount()) return false;
  std::uint32_t idx = link - global_base_;
  std::uint32_t peer, peer_port;
  return PortPeer(idx / ports_per_group_, idx % ports_per_group_, &peer, &peer_port);
}

LinkEnds DragonflyTopology::EndsOf(LinkId link) const {
  if (link < e_) return {link, EndpointRouter(link)};
  if (link < local_base_) return {EndpointRouter(link - e_), link - e_};
  if (link < global_base_) {
    std::uint32_t idx = link - local_base_;
    std::uint32_t router = idx / (s_.a - 1);
    std::uint32_t k = idx % (s_.a - 1);
    std::uint32_t x = router % s_.a;
    std::uint32_t y = k < x ? k : k + 1;
    return {e_ + router, e_ + router - x + y};
  }
  std::uint32_t idx = link - global_base_;
  std::uint32_t group = idx / ports_per_group_;
  std::uint32_t port = idx % ports_per_group_;
  std::uint32_t peer = 0, peer_port = 0;
  PortPeer(group, port, &peer, &peer_port);
  return {e_ + group * s_.a + port / s_.h, e_ + peer * s_.a + peer_port / s_.h};
}

LinkCounts DragonflyTopology::CountLinks() const {
  std::uint64_t global_ports = 0;
  std::uint32_t peer, peer_port;
  for (std::uint32_t group = 0; group < s_.g; ++group) {
    for (std::uint32_t port = 0; port < ports_per_group_; ++port) {
      global_ports += PortPeer(group, port, &peer, &peer_port) ? 1 : 0;
    }
  }
  return {e_, static_cast<std::uint64_t>(routers_) * (s_.a - 1) / 2, global_ports / 2};
}

void DragonflyTopology::AppendLinksFrom(NodeId node, std::vector<LinkId>* out) const {
  if (node < e_) {
    out->push_back(node);
    return;
  }
  std::uint32_t router = node - e_;
  for (std::uint32_t i = 0; i < s_.p; ++i) out->push_back(e_ + router * s_.p + i);
  for (std::uint32_t k = 0; k + 1 < s_.a; ++k) out->push_back(local_base_ + router * (s_.a - 1) + k);
  std::uint32_t group = router / s_.a;
  std::uint32_t x = router % s_.a;
  std::uint32_t peer, peer_port;
  for (std::uint32_t port = x * s_.h; port < (x + 1) * s_.h; ++port) {
    if (PortPeer(group, port, &peer, &peer_port)) {
      out->push_back(global_base_ + group * ports_per_group_ + port);
    }
  }
}

std::uint64_t DragonflyTopology::BisectionLinks() const {
  if (s_.g < 2) return static_cast<std::uint64_t>(s_.a / 2) * (s_.a - s_.a / 2);
  std::uint64_t crossing = 0;
  std::uint32_t peer, peer_port;
  for (std::uint32_t group = 0; group < s_.g / 2; ++group) {
    for (std::uint32_t port = 0; port < ports_per_group_; ++port) {
      if (PortPeer(group, port, &peer, &peer_port) && peer >= s_.g / 2) ++crossing;
    }
  }
  return crossing;
}

std::string DragonflyTopology::BisectionCut() const {
  if (s_.g < 2) return "half the routers of the one group";
  return internal::Concat("global links between groups [0,", s_.g / 2, ") and [", s_.g / 2, ",",
                      s_.g, ")");
}

void DragonflyTopology::RouteRouters(std::uint32_t from, std::uint32_t to, std::uint64_t salt,
                                     Path* path) const {
  if (from == to) return;
  std::uint32_t gf = GroupOfRouter(from);
  std::uint32_t gt = GroupOfRouter(to);
  if (gf == gt) {
    path->Append(LocalLink(from, to));
    return;
  }
  // Among the global links joining the two groups (one per round of ports),
  // take one that needs the fewest local hops: those leaving from `from`
  // itself or landing on `to`, the salt choosing among equals (a router's
  // flows to a group spread over all its ports there, as ECMP would), else a
  // salted choice. Each search looks only at the h ports of two routers, so
  // the cost does not grow with the number of links per group pair.
  const std::uint32_t q = PositionOf(gf, gt);
  const std::uint32_t q_back = PositionOf(gt, gf);
  auto cost_of = [&](std::uint32_t port, std::uint32_t* peer_port) {
    std::uint32_t peer;
    if (!PortPeer(gf, port, &peer, peer_port)) return 3;
    return int{gf * s_.a + port / s_.h != from} + int{gt * s_.a + *peer_port / s_.h != to};
  };
  // Ports at round position `position` among [first, first + h).
  auto for_router_ports = [&](std::uint32_t first, std::uint32_t position, auto&& visit) {
    std::uint32_t r = first > position ? (first - position + round_ - 1) / round_ : 0;
    for (; r * round_ + position < first + s_.h; ++r) visit(r);
  };
  // Every candidate once: the ports of `from`, then those landing on `to`
  // that do not leave from `from`.
  auto for_candidates = [&](auto&& visit) {
    for_router_ports((from % s_.a) * s_.h, q, [&](std::uint32_t r) { visit(r * round_ + q); });
    for_router_ports((to % s_.a) * s_.h, q_back, [&](std::uint32_t r) {
      const std::uint32_t port = r * round_ + q;
      if (gf * s_.a + port / s_.h != from) visit(port);
    });
  };
  int best_cost = 3;
  std::uint32_t ties = 0;
  for_candidates([&](std::uint32_t port) {
    std::uint32_t peer_port;
    const int cost = cost_of(port, &peer_port);
    if (cost < best_cost) {
      best_cost = cost;
      ties = 0;
    }
    if (cost == best_cost) ++ties;
  });
  std::uint32_t best_port = 0, best_peer_port = 0;
  if (best_cost <= 1) {
    std::uint32_t pick = static_cast<std::uint32_t>(salt % ties);
    for_candidates([&](std::uint32_t port) {
      std::uint32_t peer_port;
      if (cost_of(port, &peer_port) != best_cost || pick-- != 0) return;
      best_port = port;
      best_peer_port = peer_port;
    });
  } else {
    // Any full round has every position connected.
    std::uint32_t full_rounds = ports_per_group_ / round_;
    best_port = static_cast<std::uint32_t>(salt % full_rounds) * round_ + q;
    cost_of(best_port, &best_peer_port);
  }
  // Specs are validated so that every pair of groups is joined (a*h >= g-1).
  std::uint32_t exit_router = gf * s_.a + best_port / s_.h;
  std::uint32_t entry_router = gt * s_.a + best_peer_port / s_.h;
  if (exit_router != from) path->Append(LocalLink(from, exit_router));
  path->Append(global_base_ + gf * ports_per_group_ + best_port);
  if (entry_router != to) path->Append(LocalLink(entry_router, to));
}

void DragonflyTopology::AppendMinimalRoute(NodeId from, NodeId to, std::uint64_t salt,
                                           Path* path) const {
  if (from == to) return;
  if (from < e_) path->Append(from);  // Host link up.
  std::uint32_t from_router = (from < e_ ? EndpointRouter(from) : from) - e_;
  std::uint32_t to_router = (to < e_ ? EndpointRouter(to) : to) - e_;
  RouteRouters(from_router, to_router, salt, path);
  if (to < e_) path->Append(e_ + to);  // Host link down.
}

NodeId DragonflyTopology::ValiantWaypoint(NodeId from, NodeId to, std::uint64_t random) const {
  if (s_.g < 3) return to;
  std::uint32_t gf = ((from < e_ ? EndpointRouter(from) : from) - e_) / s_.a;
  std::uint32_t gt = ((to < e_ ? EndpointRouter(to) : to) - e_) / s_.a;
  std::uint32_t start = static_cast<std::uint32_t>(random % ports_per_group_);
  for (std::uint32_t i = 0; i < ports_per_group_; ++i) {
    std::uint32_t port = (start + i) % ports_per_group_;
    std::uint32_t peer, peer_port;
    if (PortPeer(gf, port, &peer, &peer_port) && peer != gt) {
      return e_ + peer * s_.a + peer_port / s_.h;
    }
  }
  return to;
}

std::vector<NodeId> DragonflyTopology::SymmetricHopSources() const {
  // Relative and circulant arrangements are invariant under rotating the
  // groups, so group 0's routers see every distance there is.
  if (s_.arrangement == GlobalArrangement::kAbsolute) return {};
  std::vector<NodeId> sources;
  for (std::uint32_t x = 0; x < s_.a; ++x) sources.push_back(e_ + x);
  return sources;
}

}  // namespace trestle::fabric
