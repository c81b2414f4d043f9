// CollectiveSweep: prices a CollectiveSchedule on a topology at many sizes,
// through a NetworkModel (options.model).
//
// Two timings (options.timing):
//
//   kDataflow (the default): the ranks run the schedule as live ranks do
//     (CollectiveReplay): each rank sends its next message as soon as the
//     message it waits for has arrived (plus its reduction), never waiting
//     for the slowest rank of a step; messages of different steps overlap
//     and, in the flow model, share links. One run through a fresh model
//     per size. This is the time examples/ring-allreduce measures live in
//     lockstep time on the same model, options and endpoints.
//   kBulkSynchronous: every step starts when the previous step's slowest
//     message has arrived. Every distinct step pattern is handed to the
//     model's StepPricer once, in schedule order, as one message per rank
//     (rank -> partner, class 0). The step time at a message size m is
//         the pricer's time for the step at m bytes (start to last arrival)
//         + (reduce step ? m / reduce_bandwidth : 0)
//     and the collective's time their sum.
//
// Message sizes are CollectiveStep::BytesFor the collective's size; the
// endpoint delay is the model's per-message overhead. With C chunks, the
// whole schedule runs C times, one after another, on ceil(S / C) bytes.
//
// Costs. Bulk-synchronous with the congestion-unaware model: routing is done
// once per distinct step pattern (not per size, not per repeat), O(ranks ×
// path length) each; pricing a size is O(steps × distinct path profiles).
// Dataflow: one Submit per message per size (ranks × steps × chunks), and
// the model's events. Ranks are endpoints 0..ranks-1.
#ifndef TRESTLE_FABRIC_COLLECTIVE_SWEEP_H_
#define TRESTLE_FABRIC_COLLECTIVE_SWEEP_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "trestle/fabric/bandwidth.h"
#include "trestle/fabric/collective_replay.h"
#include "trestle/fabric/collective_schedule.h"
#include "trestle/fabric/duration.h"
#include "trestle/fabric/message_ordering.h"
#include "trestle/fabric/network_model_factory.h"
#include "trestle/fabric/routing.h"
#include "trestle/fabric/topology.h"

namespace trestle::fabric {

enum class SweepTiming { kDataflow, kBulkSynchronous };

// "dataflow" or "bulk-synchronous"; anything else is InvalidArgument naming
// both.
absl::StatusOr<SweepTiming> ParseSweepTiming(std::string_view text);
std::string_view SweepTimingName(SweepTiming timing);

struct SweepOptions {
  Duration endpoint_delay;                   // Per message, so per step.
  std::optional<Bandwidth> reduce_bandwidth; // Unset: reductions are free.
  std::uint32_t chunks = 1;                  // >= 1
  RoutingKind routing = RoutingKind::kMinimal;
  std::uint64_t seed = 1;
  NetworkModelKind model = NetworkModelKind::kUnaware;
  MessageOrdering ordering = MessageOrdering::kConnection;
  SweepTiming timing = SweepTiming::kDataflow;
  // The flow model's settings (congestion control, traffic classes).
  FlowModelOptions flow;

  // The model's options these stand for.
  NetworkModelOptions ModelOptions() const;
};

class CollectiveSweep {
 public:
  // Returns the time in ns of `schedule` for each size in `sizes_bytes`.
  // Errors: more ranks than the topology has endpoints; chunks == 0; a
  // message the model dropped (dataflow: the collective never ends).
  static absl::StatusOr<std::vector<double>> Run(const Topology& topology,
                                                 const CollectiveSchedule& schedule,
                                                 const std::vector<std::uint64_t>& sizes_bytes,
                                                 const SweepOptions& options);
  // Every step every rank takes at `size` bytes (dataflow timing), chunks
  // and repeats unrolled; a reduce step's reduction in whole ns, as an app
  // models it with Advance.
  static std::vector<ReplayStep> UnrolledSteps(const CollectiveSchedule& schedule,
                                               std::uint64_t size, const SweepOptions& options);
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_COLLECTIVE_SWEEP_H_
