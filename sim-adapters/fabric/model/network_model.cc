#include "trestle/fabric/network_model.h"

#include <algorithm>
#include <cmath>

#include "trestle/fabric/min_endpoint_path.h"
#include "trestle/fabric/simulated_step_pricer.h"
#include "trestle/fabric/topology.h"

namespace trestle::fabric {

std::uint64_t ModelCompletion::t_deliver_ns() const {
  return t_send_ns + static_cast<std::uint64_t>(std::llround(latency_ns));
}

LatencyBounds IdleLatencyBounds(const Topology& topology, double endpoint_delay_ns) {
  LatencyBounds bounds;
  bounds.to_itself_ns = endpoint_delay_ns;
  if (const std::uint32_t links = MinEndpointPathLinks(topology); links > 0) {
    // The lowest latency of any kind bounds every link of the path.
    double link_latency = topology.params().ForKind(LinkKind::kHost).latency.ns();
    for (LinkKind kind : {LinkKind::kLocal, LinkKind::kGlobal}) {
      link_latency = std::min(link_latency, topology.params().ForKind(kind).latency.ns());
    }
    bounds.between_endpoints_ns = endpoint_delay_ns + links * link_latency +
                                  (links - 1) * topology.params().switch_latency.ns();
  }
  return bounds;
}

std::uint64_t NetworkModel::PendingDeliveryBoundNs() const {
  return InFlight() == 0 ? kNoEvent : NowNs();
}

std::unique_ptr<StepPricer> NetworkModel::NewStepPricer() {
  return std::make_unique<SimulatedStepPricer>(*this);
}

}  // namespace trestle::fabric
