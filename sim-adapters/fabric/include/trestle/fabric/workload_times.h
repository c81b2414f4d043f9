// WorkloadTimes: what one backend made of a ValidationWorkload, message by
// message, and the run's cost. C++17-clean.
#ifndef TRESTLE_FABRIC_WORKLOAD_TIMES_H_
#define TRESTLE_FABRIC_WORKLOAD_TIMES_H_

#include <cstdint>
#include <vector>

#include "trestle/fabric/validation_workload.h"

namespace trestle::fabric {

struct WorkloadTimes {
  // By message index: t_deliver − t_send in ns; NaN for a message that was
  // lost or never sent (a run stops once every sample is in).
  std::vector<double> latency_ns;
  double wall_seconds = 0;   // the run's own time
  std::uint64_t events = 0;  // a model's AdvanceTo steps, or the ns-3 events run

  // The samples' latencies, in message order; a lost sample counts as NaN.
  std::vector<double> Samples(const ValidationWorkload& workload) const {
    std::vector<double> samples;
    for (std::size_t i = 0; i < workload.messages().size(); ++i) {
      if (workload.messages()[i].sample) samples.push_back(latency_ns[i]);
    }
    return samples;
  }
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_WORKLOAD_TIMES_H_
