// CollectiveSweep: prices a CollectiveSchedule on a topology at many sizes,
// through a NetworkModel (options.model) and its StepPricer.
//
// Every distinct step pattern is handed to the pricer once, in schedule
// order, as one message per rank (rank -> partner, class 0). The step time at
// a message size m is
//     the pricer's time for the step at m bytes (start to last arrival)
//     + (reduce step ? m / reduce_bandwidth : 0)
// where the endpoint delay is the model's per-message overhead. With C
// chunks, the whole schedule runs C times, one after another, on S/C bytes.
//
// Cost with the congestion-unaware model: routing is done once per distinct
// step pattern (not per size, not per repeat), O(ranks × path length) each;
// pricing a size is O(steps × distinct path profiles). Ranks are endpoints
// 0..ranks-1.
#ifndef TRESTLE_FABRIC_COLLECTIVE_SWEEP_H_
#define TRESTLE_FABRIC_COLLECTIVE_SWEEP_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "trestle/fabric/bandwidth.h"
#include "trestle/fabric/collective_schedule.h"
#include "trestle/fabric/duration.h"
#include "trestle/fabric/network_model_factory.h"
#include "trestle/fabric/routing.h"
#include "trestle/fabric/topology.h"

namespace trestle::fabric {

struct SweepOptions {
  Duration endpoint_delay;                   // Per message, so per step.
  std::optional<Bandwidth> reduce_bandwidth; // Unset: reductions are free.
  std::uint32_t chunks = 1;                  // >= 1
  RoutingKind routing = RoutingKind::kMinimal;
  std::uint64_t seed = 1;
  NetworkModelKind model = NetworkModelKind::kUnaware;
};

class CollectiveSweep {
 public:
  // Returns the time in ns of `schedule` for each size in `sizes_bytes`.
  // Errors: more ranks than the topology has endpoints; chunks == 0.
  static absl::StatusOr<std::vector<double>> Run(const Topology& topology,
                                                 const CollectiveSchedule& schedule,
                                                 const std::vector<std::uint64_t>& sizes_bytes,
                                                 const SweepOptions& options);
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_COLLECTIVE_SWEEP_H_
