// Routing: a policy that turns (source endpoint, destination endpoint) into a
// Path. Implementations: MinimalRouting, ValiantRouting, AdaptiveRouting.
//
// Routes are repeatable: a policy draws its random choices from its own
// generator seeded at construction, so the same seed and the same sequence
// of Route() calls give the same paths. Route() mutates that generator, so a
// Routing object must not be shared between threads (make one per thread).
// The topology must outlive the routing.
#ifndef TRESTLE_FABRIC_ROUTING_H_
#define TRESTLE_FABRIC_ROUTING_H_

#include <cstdint>
#include <memory>
#include <string_view>

#include "absl/status/statusor.h"
#include "trestle/fabric/link_load.h"
#include "trestle/fabric/path.h"
#include "trestle/fabric/topology.h"

namespace trestle::fabric {

class Routing {
 public:
  virtual ~Routing() = default;
  virtual std::string_view Name() const = 0;
  // Replaces *path with a route from endpoint `src` to endpoint `dst` for a
  // message of class `tclass`. Both must be < EndpointCount(). src == dst
  // gives an empty path. Today's policies route every class alike; the
  // class is there for policies that keep classes apart (virtual lanes).
  virtual void Route(NodeId src, NodeId dst, TrafficClass tclass, Path* path) = 0;
};

using RoutingPtr = std::unique_ptr<Routing>;

// kMinimal spreads flows over equal minimal paths by a hash of (src, dst)
// (ECMP); kMinimalDestModK picks by destination id (D-mod-K on fat trees).
enum class RoutingKind { kMinimal, kMinimalDestModK, kValiant, kAdaptive };

// "minimal", "minimal-dmodk", "valiant" or "adaptive"; anything else is
// InvalidArgument.
absl::StatusOr<RoutingKind> ParseRoutingKind(std::string_view text);
std::string_view RoutingKindName(RoutingKind kind);

// Where a policy with random choices (Valiant's waypoint) draws them:
// kPerMessage from its generator, for every message anew; kPerConnection
// from a hash of (src, dst, seed), so that a connection's messages share one
// path (MessageOrdering::kConnection). Minimal routing hashes (src, dst)
// either way; adaptive routing chooses per message whatever this says (a
// model keeps a busy connection on its path itself).
enum class PathChoice { kPerMessage, kPerConnection };

// Builds the policy. `load` (may be null: no load anywhere) is read by
// adaptive routing only and must outlive the result.
RoutingPtr MakeRouting(RoutingKind kind, const Topology& topology, std::uint64_t seed,
                       const LinkLoad* load = nullptr,
                       PathChoice choice = PathChoice::kPerMessage);

// A well-mixed 64-bit hash of a flow (src, dst) under a seed; used for ECMP.
std::uint64_t FlowHash(NodeId src, NodeId dst, std::uint64_t seed);

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_ROUTING_H_
