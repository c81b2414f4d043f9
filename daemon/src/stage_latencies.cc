#include "stage_latencies.h"

namespace trestle::daemon {

void StageLatencies::Record(const MessageRecord& r, std::uint64_t now_ns) {
  const std::uint64_t queued = r.handed - r.accepted;
  const std::uint64_t delivering = now_ns - r.outcome_at;
  queue_.Record(queued);
  simulator_.Record(r.outcome_at - r.handed);
  delivery_.Record(delivering);
  resident_.Record(queued + delivering);
}

void StageLatencies::CopyTo(admin::StatsReply* reply) const {
  queue_.CopyTo("queue", reply->add_stages());
  simulator_.CopyTo("simulator", reply->add_stages());
  delivery_.CopyTo("delivery", reply->add_stages());
  resident_.CopyTo("resident", reply->add_stages());
}

}  // namespace trestle::daemon
