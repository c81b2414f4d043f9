#include "trestle/fabric/simulated_step_pricer.h"

#include <algorithm>
#include <cmath>

namespace trestle::fabric {

std::size_t SimulatedStepPricer::AddStep(const std::vector<StepFlow>& flows) {
  steps_.push_back(flows);
  return steps_.size() - 1;
}

double SimulatedStepPricer::StepTimeNs(std::size_t step, std::uint64_t bytes) {
  const std::vector<StepFlow>& flows = steps_[step];
  completed_.clear();
  const std::uint64_t start = model_.NowNs();
  for (std::size_t i = 0; i < flows.size(); ++i) {
    model_.Submit(ModelMessage{i, flows[i].src, flows[i].dst, bytes, flows[i].tclass, start},
                  &completed_);
  }
  while (model_.InFlight() > 0) model_.AdvanceTo(model_.NextEventNs(), &completed_);
  double slowest = 0;
  for (const ModelCompletion& c : completed_) slowest = std::max(slowest, c.latency_ns);
  // The next step starts once this one has ended, on the model's clock too.
  const std::uint64_t end = start + static_cast<std::uint64_t>(std::ceil(slowest));
  if (end > model_.NowNs()) model_.AdvanceTo(end, &completed_);
  return slowest;
}

}  // namespace trestle::fabric
