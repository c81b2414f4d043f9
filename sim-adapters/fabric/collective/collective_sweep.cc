#include "trestle/fabric/collective_sweep.h"

#include <algorithm>
#include <cmath>

#include "absl/status/status.h"
#include "trestle/fabric/message_time_model.h"
#include "common/text.h"

namespace trestle::fabric {
namespace {

// The distinct path profiles of one step pattern's messages. Only the
// slowest message of a step matters, and distinct (fixed, bottleneck) pairs
// are few, so a step is priced from this short list.
struct PatternProfiles {
  StepPattern pattern;
  std::vector<PathProfile> profiles;
};

const std::vector<PathProfile>& ProfilesFor(const StepPattern& pattern, std::uint32_t ranks,
                                            Routing& routing, const MessageTimeModel& model,
                                            std::vector<PatternProfiles>* cache) {
  for (const PatternProfiles& entry : *cache) {
    if (entry.pattern == pattern) return entry.profiles;
  }
  PatternProfiles entry{pattern, {}};
  Path path;
  for (std::uint32_t rank = 0; rank < ranks; ++rank) {
    routing.Route(rank, pattern.PartnerOf(rank, ranks), &path);
    PathProfile p = model.Profile(path);
    bool seen = std::any_of(entry.profiles.begin(), entry.profiles.end(), [&](const PathProfile& q) {
      return q.fixed_ns == p.fixed_ns && q.bottleneck_bytes_per_ns == p.bottleneck_bytes_per_ns;
    });
    if (!seen) entry.profiles.push_back(p);
  }
  cache->push_back(std::move(entry));
  return cache->back().profiles;
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
  MessageTimeModel model(topology, {options.endpoint_delay});
  RoutingPtr routing = MakeRouting(options.routing, topology, options.seed);
  // Reserved so that pointers into the cache stay valid while it grows.
  std::vector<PatternProfiles> cache;
  cache.reserve(schedule.steps().size());
  std::vector<const std::vector<PathProfile>*> step_profiles;
  for (const CollectiveStep& step : schedule.steps()) {
    step_profiles.push_back(&ProfilesFor(step.pattern, schedule.ranks(), *routing, model, &cache));
  }
  std::vector<double> times;
  times.reserve(sizes_bytes.size());
  for (std::uint64_t size : sizes_bytes) {
    double chunk = static_cast<double>(size) / options.chunks;
    double total = 0;
    for (std::size_t i = 0; i < schedule.steps().size(); ++i) {
      const CollectiveStep& step = schedule.steps()[i];
      auto bytes = static_cast<std::uint64_t>(std::ceil(step.size_fraction * chunk));
      double slowest = 0;
      for (const PathProfile& p : *step_profiles[i]) {
        slowest = std::max(slowest, MessageTimeModel::TimeNs(p, bytes));
      }
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
