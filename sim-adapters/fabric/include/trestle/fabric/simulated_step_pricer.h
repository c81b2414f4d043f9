// SimulatedStepPricer: the StepPricer any NetworkModel can use. It runs each
// step through the model: every message is submitted at the model's current
// time, the clock is advanced event by event until nothing is in flight, and
// the step takes as long as its slowest message (latency from t_send).
//
// Routes are the model's, chosen per submission: with a random routing
// policy each size may draw other routes. Cost per StepTimeNs: one Submit per
// message plus the model's events.
//
// `model` must outlive the pricer and must hold nothing in flight when a step
// is priced; the pricer leaves nothing in flight either. C++17-clean.
#ifndef TRESTLE_FABRIC_SIMULATED_STEP_PRICER_H_
#define TRESTLE_FABRIC_SIMULATED_STEP_PRICER_H_

#include <vector>

#include "trestle/fabric/network_model.h"
#include "trestle/fabric/step_pricer.h"

namespace trestle::fabric {

class SimulatedStepPricer final : public StepPricer {
 public:
  explicit SimulatedStepPricer(NetworkModel& model) : model_(model) {}

  std::size_t AddStep(const std::vector<StepFlow>& flows) override;
  double StepTimeNs(std::size_t step, std::uint64_t bytes) override;

 private:
  NetworkModel& model_;
  std::vector<std::vector<StepFlow>> steps_;
  std::vector<ModelCompletion> completed_;  // reused by every step
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_SIMULATED_STEP_PRICER_H_
