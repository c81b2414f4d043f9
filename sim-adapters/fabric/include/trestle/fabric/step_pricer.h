// StepPricer: prices groups of messages that start together on an idle
// network, at many sizes. A collective sweep is a sequence of such groups
// (steps): every rank sends one message, and the step lasts until the last
// one arrives. NetworkModel::NewStepPricer() gives the pricer that fits a
// model; CollectiveSweep uses nothing else.
//
// Threading: one thread. C++17-clean.
#ifndef TRESTLE_FABRIC_STEP_PRICER_H_
#define TRESTLE_FABRIC_STEP_PRICER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "trestle/fabric/link.h"

namespace trestle::fabric {

// One message of a step.
struct StepFlow {
  NodeId src = kNoNode;  // endpoints
  NodeId dst = kNoNode;
  TrafficClass tclass = 0;
};

class StepPricer {
 public:
  virtual ~StepPricer() = default;

  // Registers a step whose messages all start at once, each carrying the same
  // number of bytes, and returns its index (0, 1, ... in call order). Each
  // pricer documents when routes are chosen (once here, or per size).
  virtual std::size_t AddStep(const std::vector<StepFlow>& flows) = 0;
  // Time in ns from the common start to the last completion (a drop counts
  // at its time) of step `step` when every message carries `bytes`; 0 for a
  // step without messages. `step` must come from AddStep.
  virtual double StepTimeNs(std::size_t step, std::uint64_t bytes) = 0;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_STEP_PRICER_H_
