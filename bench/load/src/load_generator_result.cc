// LoadGenerator, after a run: its figures into result_, the daemons'
// counters balanced, and the run's error if it has one.
#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "daemon_balance.h"
#include "load_generator.h"

namespace trestle::bench {
namespace {

double Seconds(std::uint64_t ns) { return static_cast<double>(ns) / 1e9; }

}  // namespace

BenchResult LoadGenerator::Finish(bool drained,
                                  const std::vector<std::optional<wire::Counters>>& before) {
  const double duration_s = std::chrono::duration<double>(config_.duration).count();
  result_.sent = ledger_.sent();
  result_.delivered = ledger_.delivered();
  result_.undelivered = ledger_.undelivered();
  result_.sent_to_stalled = ledger_.sent_to_stalled();
  result_.lost = ledger_.lost();
  result_.duplicated = ledger_.duplicated();
  result_.unknown = ledger_.unknown();
  result_.send_rate =
      static_cast<double>(measured_sent_) /
      std::max(duration_s, Seconds(last_measured_send_ns_ > warmup_ns_
                                       ? last_measured_send_ns_ - warmup_ns_
                                       : 0));
  const std::uint64_t measure_start_abs = start_ns_ + warmup_ns_;
  result_.measured_seconds =
      std::max(duration_s, Seconds(last_measured_arrival_ns_ > measure_start_abs
                                       ? last_measured_arrival_ns_ - measure_start_abs
                                       : 0));
  result_.throughput = static_cast<double>(measured_arrived_) / result_.measured_seconds;
  result_.resident = resident_.Summary();
  result_.e2e = e2e_.Summary();
  if (config_.daemons > 1) {
    result_.stayed = {measured_stayed_,
                           static_cast<double>(measured_stayed_) / result_.measured_seconds,
                           e2e_stayed_.Summary()};
    result_.crossed = {measured_crossed_,
                      static_cast<double>(measured_crossed_) / result_.measured_seconds,
                      e2e_crossed_.Summary()};
  }
  for (std::size_t i = 0; i < stages_.size(); ++i) result_.stages[i] = stages_[i].Summary();
  for (const ProcessStats& daemon : probes_.daemons) {
    if (std::optional<std::uint64_t> peak = daemon.PeakRssBytes()) {
      result_.daemon_rss_mb = result_.daemon_rss_mb.value_or(0) +
                              static_cast<double>(*peak) / (1024.0 * 1024.0);
    }
  }
  const std::string unbalanced = FillDaemonCounters(before, fleet_.RelayCounters());
  if (!config_.closed_loop() && result_.send_rate < 0.98 * config_.rate) {
    // Not an error (nothing was lost), but the table must not pass off a
    // slower run as the asked-for rate.
    status_->Finish(absl::StrFormat(
        "warning: sent at %.0f msg/s, below the asked-for %g msg/s (latest send %.1f ms late, "
        "%u sends deferred by a full send backlog)",
        result_.send_rate, config_.rate, static_cast<double>(max_lag_ns_) / 1e6,
        result_.deferred_sends));
  }
  if (!bridge_lost_.empty()) {
    result_.error = "the bridge failed mid-run (" + bridge_lost_ + "); the run was stopped";
  } else if (drained && !unbalanced.empty()) {
    result_.error = unbalanced;
  } else if (!first_error_.empty() && result_.error.empty() && !result_.ok()) {
    result_.error = first_error_;
  } else if (!drained && result_.error.empty()) {
    result_.error = absl::StrFormat(
        "%u of the %u messages to apps that read did not arrive within the drain timeout (%.1f s)",
        result_.lost, result_.sent - result_.sent_to_stalled,
        static_cast<double>(config_.drain_timeout.count()) / 1e3);
    if (result_.sent_to_stalled > 0) {
      absl::StrAppend(&result_.error,
                      absl::StrFormat("; %u more went to the stalled apps, which never read",
                                      result_.sent_to_stalled));
    }
  }
  return result_;
}

std::string LoadGenerator::FillDaemonCounters(
    const std::vector<std::optional<wire::Counters>>& before,
    const std::vector<std::optional<wire::Counters>>& after) {
  for (std::size_t d = 0; d < before.size() && d < after.size(); ++d) {
    if (!before[d] || !after[d]) continue;
    const wire::Counters& b = *before[d];
    const wire::Counters& a = *after[d];
    result_.daemon_accepted += a.accepted() - b.accepted();
    result_.daemon_delivered += a.delivered() - b.delivered();
    result_.daemon_dropped += a.dropped() - b.dropped();
    result_.daemon_expired += a.expired() - b.expired();
    result_.daemon_in_flight += a.in_flight();
    result_.daemon_forwarded += a.forwarded() - b.forwarded();
    result_.daemon_from_peers += a.from_peers() - b.from_peers();
  }
  if (config_.daemons <= 1) return "";
  result_.per_daemon.resize(config_.daemons);
  for (std::uint32_t d = 0; d < config_.daemons; ++d) {
    DaemonResult& r = result_.per_daemon[d];
    r.address = d < addresses_.size() ? addresses_[d] : "";
    r.apps = (config_.apps() - d + config_.daemons - 1) / config_.daemons;
    r.sent = sent_by_daemon_[d];
    r.received = received_by_daemon_[d];
    if (d < daemon_cpu_.size()) {
      r.cpu_pct = daemon_cpu_[d].Percent();
      if (std::optional<std::uint64_t> peak = probes_.daemons[d].PeakRssBytes()) {
        r.rss_mb = static_cast<double>(*peak) / (1024.0 * 1024.0);
      }
    }
    if (d >= before.size() || d >= after.size() || !before[d] || !after[d]) continue;
    r.counters_known = true;
    r.accepted = after[d]->accepted() - before[d]->accepted();
    r.delivered = after[d]->delivered() - before[d]->delivered();
    r.forwarded = after[d]->forwarded() - before[d]->forwarded();
    r.from_peers = after[d]->from_peers() - before[d]->from_peers();
    r.in_flight = after[d]->in_flight();
  }
  return DaemonBalanceProblem(result_.per_daemon, after);
}

}  // namespace trestle::bench
