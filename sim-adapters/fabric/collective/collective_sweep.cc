#include "trestle/fabric/collective_sweep.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/status/status.h"
#include "trestle/platform/enum_names.h"
#include "common/text.h"
#include "trestle/fabric/collective_replay.h"

namespace trestle::fabric {
namespace {

constexpr platform::EnumName<SweepTiming> kTimingNames[] = {
    {SweepTiming::kDataflow, "dataflow"},
    {SweepTiming::kBulkSynchronous, "bulk-synchronous"},
};

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

std::uint64_t ChunkBytes(std::uint64_t size, std::uint32_t chunks) {
  return (size + chunks - 1) / chunks;
}

absl::StatusOr<std::vector<double>> BulkSynchronous(
    const Topology& topology, const CollectiveSchedule& schedule,
    const std::vector<std::uint64_t>& sizes_bytes, const SweepOptions& options) {
  NetworkModelPtr model = MakeNetworkModel(options.model, topology, options.ModelOptions());
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
    const std::uint64_t chunk = ChunkBytes(size, options.chunks);
    double total = 0;
    for (std::size_t i = 0; i < schedule.steps().size(); ++i) {
      const CollectiveStep& step = schedule.steps()[i];
      const std::uint64_t bytes = step.BytesFor(chunk);
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

}  // namespace

std::vector<ReplayStep> CollectiveSweep::UnrolledSteps(const CollectiveSchedule& schedule,
                                                       std::uint64_t size,
                                                       const SweepOptions& options) {
  const std::uint64_t chunk = ChunkBytes(size, options.chunks);
  std::vector<ReplayStep> steps;
  for (std::uint32_t c = 0; c < options.chunks; ++c) {
    for (const CollectiveStep& step : schedule.steps()) {
      ReplayStep replay{step.pattern, step.BytesFor(chunk), 0};
      if (step.reduce && options.reduce_bandwidth) {
        // As an app models it: Advance by whole ns.
        replay.reduce_ns = static_cast<std::uint64_t>(std::llround(
            static_cast<double>(replay.bytes) / options.reduce_bandwidth->bytes_per_ns()));
      }
      steps.insert(steps.end(), step.repeat, replay);
    }
  }
  return steps;
}

namespace {

absl::StatusOr<std::vector<double>> Dataflow(const Topology& topology,
                                             const CollectiveSchedule& schedule,
                                             const std::vector<std::uint64_t>& sizes_bytes,
                                             const SweepOptions& options) {
  std::vector<double> times;
  times.reserve(sizes_bytes.size());
  for (std::uint64_t size : sizes_bytes) {
    NetworkModelPtr model = MakeNetworkModel(options.model, topology, options.ModelOptions());
    absl::StatusOr<std::uint64_t> ns = CollectiveReplay::TimeNs(
        *model, CollectiveSweep::UnrolledSteps(schedule, size, options), schedule.ranks());
    if (!ns.ok()) {
      return absl::Status(ns.status().code(),
                          internal::Concat(size, " bytes: ", std::string(ns.status().message())));
    }
    times.push_back(static_cast<double>(*ns));
  }
  return times;
}

}  // namespace

absl::StatusOr<SweepTiming> ParseSweepTiming(std::string_view text) {
  return platform::EnumNames<SweepTiming>(kTimingNames).Parse(text, "timing");
}

std::string_view SweepTimingName(SweepTiming timing) {
  return platform::EnumNames<SweepTiming>(kTimingNames).Name(timing);
}

NetworkModelOptions SweepOptions::ModelOptions() const {
  NetworkModelOptions options{routing, seed, endpoint_delay, flow};
  options.ordering = ordering;
  return options;
}

absl::StatusOr<std::vector<double>> CollectiveSweep::Run(
    const Topology& topology, const CollectiveSchedule& schedule,
    const std::vector<std::uint64_t>& sizes_bytes, const SweepOptions& options) {
  if (schedule.ranks() > topology.EndpointCount()) {
    return absl::InvalidArgumentError(internal::Concat(schedule.ranks(), " ranks do not fit on ",
                                                       topology.EndpointCount(), " endpoints"));
  }
  if (options.chunks == 0) return absl::InvalidArgumentError("chunks must be at least 1");
  return options.timing == SweepTiming::kDataflow
             ? Dataflow(topology, schedule, sizes_bytes, options)
             : BulkSynchronous(topology, schedule, sizes_bytes, options);
}

}  // namespace trestle::fabric
