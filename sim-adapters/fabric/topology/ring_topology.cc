#include "trestle/fabric/ring_topology.h"
#include "common/text.h"


namespace trestle::fabric {

RingTopology::RingTopology(std::uint32_t endpoints, const FabricParams& params)
    : TorusTopology({endpoints}, /*wrap=*/true, params) {}

std::string RingTopology::Name() const { return internal::Concat("ring:", EndpointCount()); }

}  // namespace trestle::fabric
