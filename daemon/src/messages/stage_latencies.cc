#include "messages/stage_latencies.h"

#include "trestle/wire/resident_time.h"

namespace trestle::daemon {

void StageLatencies::Record(const MessageRecord& r, std::uint64_t now_ns) {
  queue_.Record(r.handed - r.accepted);
  // The simulator's own stamp splits its share from the way back, as
  // wire::ResidentNanos defines it. Where that stamp is unusable (a
  // simulator that does not stamp, or one on a host with another clock),
  // the daemon's reading of the outcome stands in for it.
  std::uint64_t posted = r.posted;
  std::optional<std::uint64_t> resident = wire::ResidentNanos(r.accepted, r.handed, posted, now_ns);
  if (!resident) {
    posted = r.outcome_at;
    resident = wire::ResidentNanos(r.accepted, r.handed, posted, now_ns);
  }
  simulator_.Record(posted - r.handed);
  delivery_.Record(now_ns - posted);
  if (resident) resident_.Record(*resident);
}

void StageLatencies::CopyTo(admin::StatsReply* reply) const {
  queue_.CopyTo("queue", reply->add_stages());
  simulator_.CopyTo("simulator", reply->add_stages());
  delivery_.CopyTo("delivery", reply->add_stages());
  resident_.CopyTo("resident", reply->add_stages());
}

}  // namespace trestle::daemon
