#include "trestle/fabric/model_workload_run.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <vector>

#include "absl/status/status.h"
#include "common/text.h"

namespace trestle::fabric {

absl::StatusOr<WorkloadTimes> ModelWorkloadRun::Run(NetworkModel& model, std::uint32_t endpoints,
                                                    const ValidationWorkload& workload) {
  const std::vector<WorkloadMessage>& messages = workload.messages();
  std::vector<std::vector<std::uint32_t>> next(messages.size());
  for (std::uint32_t i = 0; i < messages.size(); ++i) {
    const WorkloadMessage& m = messages[i];
    if (m.src >= endpoints || m.dst >= endpoints) {
      return absl::InvalidArgumentError(internal::Concat(
          "workload ", workload.spec().Name(), ": message ", i, " between endpoints ", m.src,
          " and ", m.dst, " of a topology with ", endpoints));
    }
    if (m.after != WorkloadMessage::kRoot) next[m.after].push_back(i);
  }
  const auto start = std::chrono::steady_clock::now();
  WorkloadTimes times;
  times.latency_ns.assign(messages.size(), std::numeric_limits<double>::quiet_NaN());
  std::size_t missing = workload.sample_count();
  std::vector<ModelCompletion> completed;
  auto submit = [&](std::uint32_t i, std::uint64_t t_send) {
    const WorkloadMessage& m = messages[i];
    model.Submit(ModelMessage{i, m.src, m.dst, m.bytes, 0, t_send}, &completed);
  };
  for (std::uint32_t i = 0; i < messages.size(); ++i) {
    if (messages[i].after == WorkloadMessage::kRoot) submit(i, messages[i].t_send_ns);
  }
  // Completions may come during a Submit (its own, or others'): drain the
  // list until it stays empty.
  std::vector<ModelCompletion> batch;
  while (missing > 0) {
    if (completed.empty()) {
      const std::uint64_t t = model.NextEventNs();
      if (t == NetworkModel::kNoEvent) {
        return absl::InternalError(internal::Concat(
            "workload ", workload.spec().Name(), ": the ", model.Name(), " model stopped with ",
            missing, " samples missing"));
      }
      model.AdvanceTo(t, &completed);
      ++times.events;
      continue;
    }
    batch.clear();
    batch.swap(completed);
    for (const ModelCompletion& c : batch) {
      times.latency_ns[c.id] = c.dropped ? std::numeric_limits<double>::quiet_NaN() : c.latency_ns;
      if (messages[c.id].sample) --missing;
      for (std::uint32_t child : next[c.id]) submit(child, c.t_deliver_ns());
    }
  }
  times.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return times;
}

}  // namespace trestle::fabric
