#include "trestle/fabric/network_model.h"

#include <cmath>

#include "trestle/fabric/simulated_step_pricer.h"

namespace trestle::fabric {

std::uint64_t ModelCompletion::t_deliver_ns() const {
  return t_send_ns + static_cast<std::uint64_t>(std::llround(latency_ns));
}

std::unique_ptr<StepPricer> NetworkModel::NewStepPricer() {
  return std::make_unique<SimulatedStepPricer>(*this);
}

}  // namespace trestle::fabric
