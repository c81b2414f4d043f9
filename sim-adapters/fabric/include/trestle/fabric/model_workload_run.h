// ModelWorkloadRun: a ValidationWorkload through a NetworkModel (the
// congestion-unaware or the flow model): roots submitted at their t_send,
// each chained message submitted at its predecessor's t_deliver, until
// every sample is delivered. Message ids are the workload's indices.
//
// Errors: InvalidArgument when a message's endpoint is outside the model's
// topology (`endpoints`); Internal when the model stops with samples still
// missing. The model must be fresh (nothing submitted) and is left with
// whatever the run did not wait for. One thread.
#ifndef TRESTLE_FABRIC_MODEL_WORKLOAD_RUN_H_
#define TRESTLE_FABRIC_MODEL_WORKLOAD_RUN_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "trestle/fabric/network_model.h"
#include "trestle/fabric/validation_workload.h"
#include "trestle/fabric/workload_times.h"

namespace trestle::fabric {

class ModelWorkloadRun {
 public:
  static absl::StatusOr<WorkloadTimes> Run(NetworkModel& model, std::uint32_t endpoints,
                                           const ValidationWorkload& workload);
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_MODEL_WORKLOAD_RUN_H_
