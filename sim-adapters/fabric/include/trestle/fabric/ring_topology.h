// RingTopology ("ring:N"): N endpoints in a bidirectional ring, each linked
// directly to its two neighbours. A one-dimensional torus; it differs only in
// name. Link ids: 2n towards n+1, 2n+1 towards n-1 (mod N).
#ifndef TRESTLE_FABRIC_RING_TOPOLOGY_H_
#define TRESTLE_FABRIC_RING_TOPOLOGY_H_

#include "trestle/fabric/torus_topology.h"

namespace trestle::fabric {

class RingTopology final : public TorusTopology {
 public:
  // Requires endpoints >= 1.
  RingTopology(std::uint32_t endpoints, const FabricParams& params);
  std::string Name() const override;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_RING_TOPOLOGY_H_
