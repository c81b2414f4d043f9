// Identifiers shared by every part of the fabric model: nodes, links, kinds.
//
// A topology numbers its nodes densely: endpoints first, [0, EndpointCount()),
// then switches, [EndpointCount(), EndpointCount() + SwitchCount()). Links are
// directed and numbered densely in [0, LinkIdCount()); a regular topology may
// reserve ids for links that do not exist (a mesh's missing wrap-around, a
// dragonfly's unpaired global port), and reports them through LinkExists().
// Dense ids let later models (contention, traffic classes) keep per-link state
// in flat arrays indexed by LinkId.
//
// This header and every public header of the fabric library compile as C++17
// (tests/cxx17 proves it), so that ns-3 code, which must be C++17, can use the
// topologies, the spec parser and the network models.
#ifndef TRESTLE_FABRIC_LINK_H_
#define TRESTLE_FABRIC_LINK_H_

#include <cstdint>
#include <string_view>

namespace trestle::fabric {

using NodeId = std::uint32_t;
using LinkId = std::uint32_t;

inline constexpr NodeId kNoNode = 0xffffffffu;

// What a link connects. Host links join an endpoint to its switch; local links
// join routers inside a group (or neighbours in a direct network, or fat-tree
// levels); global links join dragonfly groups.
enum class LinkKind : std::uint8_t { kHost = 0, kLocal = 1, kGlobal = 2 };
inline constexpr int kLinkKindCount = 3;

std::string_view LinkKindName(LinkKind kind);

// The two ends of a directed link.
struct LinkEnds {
  NodeId from = kNoNode;
  NodeId to = kNoNode;
  bool operator==(const LinkEnds& other) const { return from == other.from && to == other.to; }
  bool operator!=(const LinkEnds& other) const { return !(*this == other); }
};

// A message's traffic class (the SDK's `tclass`). Routing and network models
// take it; policies that do not distinguish classes ignore it.
using TrafficClass = std::uint32_t;

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_LINK_H_
