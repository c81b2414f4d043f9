#include "trestle/fabric/collective_sweep.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/status/status.h"
#include "common/text.h"

namespace trestle::fabric {
namespace {

// The pricer's index for each distinct step pattern, in order of first use.
// Patterns are few and compared cheaply, so a list is enough.
std::size_t StepIndexFor(const StepPattern& pattern, std::uint32_t ranks, StepPricer& pricer,
                         std::vector<std::pair<StepPattern, std::size_t>>* known) {
  for (const auto& [seen, index] : *known) {
    if (seen == pattern) return index;
  }
  std::vector<StepFlow> flows(ranks);
  for (std::uint32_t rank = 0; rank < ranks; ++rank) {
    flows[rank] = StepFlow{rank, pattern.PartnerOf(rank, ranks), 0};
  }
  const std::size_t index = pricer.AddStep(flows);
  known->emplace_back(pattern, index);
  return index;
}

}  // namespace

absl::StatusOr<std::vector<double>> CollectiveSweep::Run(
    const Topology& topology, const CollectiveSchedule& schedule,
    const std::vector<std::uint64_t>& sizes_bytes, const SweepOptions& options) {
  if (schedule.ranks() > topology.EndpointCount()) {
    return absl::InvalidArgumentError(internal::Concat(schedule.ranks(), " ranks do not fit on ",
                                                       topology.EndpointCount(), " endpoints"));
  }
  if (options.chunks == 0) return absl::InvalidArgumentError("chunks must be at least 1");
  NetworkModelPtr model =
      MakeNetworkModel(options.model, topology,
                       NetworkModelOptions{options.routing, options.seed, options.endpoint_delay});
  std::unique_ptr<StepPricer> pricer = model->NewStepPricer();
  std::vector<std::pair<StepPattern, std::size_t>> known;
  std::vector<std::size_t> step_index;
  step_index.reserve(schedule.steps().size());
  for (const CollectiveStep& step : schedule.steps()) {
    step_index.push_back(StepIndexFor(step.pattern, schedule.ranks(), *pricer, &known));
  }
  std::vector<double> times;
  times.reserve(sizes_bytes.size());
  for (std::uint64_t size : sizes_bytes) {
    double chunk = static_cast<double>(size) / options.chunks;
    double total = 0;
    for (std::size_t i = 0; i < schedule.steps().size(); ++i) {
      const CollectiveStep& step = schedule.steps()[i];
      auto bytes = static_cast<std::uint64_t>(std::ceil(step.size_fraction * chunk));
      double slowest = pricer->StepTimeNs(step_index[i], bytes);
      if (step.reduce && options.reduce_bandwidth) {
        slowest += bytes / options.reduce_bandwidth->bytes_per_ns();
      }
      total += slowest * step.repeat;
    }
    times.push_back(total * options.chunks);
  }
  return times;
}

}  // namespace trestle::fabric
