#include "trestle/fabric/routing.h"

#include "absl/status/status.h"
#include "trestle/fabric/adaptive_routing.h"
#include "trestle/fabric/minimal_routing.h"
#include "trestle/fabric/valiant_routing.h"
#include "trestle/platform/enum_names.h"

namespace trestle::fabric {

namespace {

constexpr platform::EnumName<RoutingKind> kRoutingNames[] = {
    {RoutingKind::kMinimal, "minimal"},
    {RoutingKind::kMinimalDestModK, "minimal-dmodk"},
    {RoutingKind::kValiant, "valiant"},
    {RoutingKind::kAdaptive, "adaptive"},
};

}  // namespace

absl::StatusOr<RoutingKind> ParseRoutingKind(std::string_view text) {
  return platform::EnumNames<RoutingKind>(kRoutingNames).Parse(text, "routing");
}

std::string_view RoutingKindName(RoutingKind kind) {
  return platform::EnumNames<RoutingKind>(kRoutingNames).Name(kind);
}

RoutingPtr MakeRouting(RoutingKind kind, const Topology& topology, std::uint64_t seed,
                       const LinkLoad* load, PathChoice choice) {
  switch (kind) {
    case RoutingKind::kMinimal: return std::make_unique<MinimalRouting>(topology, seed);
    case RoutingKind::kMinimalDestModK:
      return std::make_unique<MinimalRouting>(topology, seed,
                                              MinimalRouting::Spread::kDestinationModK);
    case RoutingKind::kValiant: return std::make_unique<ValiantRouting>(topology, seed, choice);
    case RoutingKind::kAdaptive: return std::make_unique<AdaptiveRouting>(topology, load, seed);
  }
  return nullptr;
}

std::uint64_t FlowHash(NodeId src, NodeId dst, std::uint64_t seed) {
  // splitmix64 finaliser over the packed pair.
  std::uint64_t x = (static_cast<std::uint64_t>(src) << 32 | dst) + seed * 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace trestle::fabric
