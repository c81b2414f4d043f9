#include "messages/stage_latencies.h"

#include <string>

#include "trestle/wire/resident_time.h"

namespace trestle::daemon {
namespace {

void CopyHistogram(const std::string& stage, const platform::LatencyHistogram& h,
                   admin::Histogram* out) {
  out->set_stage(stage);
  for (std::uint64_t b : h.bounds()) out->add_bounds_ns(b);
  for (std::uint64_t c : h.counts()) out->add_counts(c);
  out->set_count(h.count());
  out->set_sum_ns(h.sum_ns());
  const platform::LatencySummary s = h.Summary();
  out->set_p50_us(s.p50_us);
  out->set_p99_us(s.p99_us);
  out->set_p999_us(s.p999_us);
  out->set_mean_us(s.mean_us);
}

}  // namespace

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
  CopyHistogram("queue", queue_, reply->add_stages());
  CopyHistogram("simulator", simulator_, reply->add_stages());
  CopyHistogram("delivery", delivery_, reply->add_stages());
  CopyHistogram("resident", resident_, reply->add_stages());
}

}  // namespace trestle::daemon
