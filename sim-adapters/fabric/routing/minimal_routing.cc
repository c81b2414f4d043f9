#include "trestle/fabric/minimal_routing.h"

namespace trestle::fabric {

void MinimalRouting::Route(NodeId src, NodeId dst, TrafficClass /*tclass*/, Path* path) {
  path->Clear();
  std::uint64_t salt = spread_ == Spread::kDestinationModK ? dst : FlowHash(src, dst, seed_);
  topology_.AppendMinimalRoute(src, dst, salt, path);
}

}  // namespace trestle::fabric
