#include "admin/prometheus_text.h"

#include <fmt/format.h>

#include <iterator>

namespace trestle::daemon {
namespace {

void Metric(std::string* out, const char* name, const char* type, const char* help, double value) {
  fmt::format_to(std::back_inserter(*out), "# HELP {0} {1}\n# TYPE {0} {2}\n{0} {3}\n", name, help,
                 type, value);
}

}  // namespace

std::string RenderPrometheusText(const admin::StatusReply& status, const admin::StatsReply& stats) {
  std::string out;
  const wire::Counters& t = status.totals();
  Metric(&out, "trestle_messages_accepted_total", "counter", "Sends accepted by the daemon.",
         static_cast<double>(t.accepted()));
  Metric(&out, "trestle_messages_delivered_total", "counter", "Payloads delivered to apps.",
         static_cast<double>(t.delivered()));
  Metric(&out, "trestle_messages_dropped_total", "counter", "Payloads dropped by the network model.",
         static_cast<double>(t.dropped()));
  Metric(&out, "trestle_messages_expired_total", "counter",
         "Payloads that expired waiting for an absent app.", static_cast<double>(t.expired()));
  Metric(&out, "trestle_messages_rejected_total", "counter", "Sends refused with an error.",
         static_cast<double>(t.rejected()));
  Metric(&out, "trestle_messages_from_peers_total", "counter",
         "Messages taken over from another daemon of a federated bridge.",
         static_cast<double>(t.from_peers()));
  Metric(&out, "trestle_messages_forwarded_total", "counter",
         "Messages handed on to another daemon of a federated bridge.",
         static_cast<double>(t.forwarded()));
  Metric(&out, "trestle_messages_recovered_total", "counter",
         "Messages taken up again from this daemon's journal after a restart (federation).",
         static_cast<double>(t.recovered()));
  Metric(&out, "trestle_messages_in_flight", "gauge", "Accepted payloads not yet terminal.",
         static_cast<double>(t.in_flight()));
  Metric(&out, "trestle_sessions", "gauge", "Client sessions, live or lingering.",
         static_cast<double>(status.sessions()));
  Metric(&out, "trestle_connections", "gauge", "Open client connections.",
         static_cast<double>(status.connections()));
  Metric(&out, "trestle_uptime_seconds", "gauge", "Seconds since the daemon started.",
         static_cast<double>(status.uptime_ms()) / 1e3);
  Metric(&out, "trestle_draining", "gauge", "1 while draining.", status.draining() ? 1 : 0);
  if (status.has_lockstep()) {
    const wire::LockstepStats& l = status.lockstep();
    Metric(&out, "trestle_lockstep_bound_seconds_still", "gauge",
           "Lockstep: seconds since virtual time (the run's bound) last moved.",
           static_cast<double>(l.bound_still_ms()) / 1e3);
    Metric(&out, "trestle_lockstep_bound_ns", "gauge",
           "Lockstep: the run's bound on any future send's virtual time, ns.",
           static_cast<double>(l.bound_ns()));
    Metric(&out, "trestle_lockstep_apps_running", "gauge",
           "Lockstep: apps of the run that are running (not blocked in a receive).",
           static_cast<double>(l.apps_running()));
  }

  const char* name = "trestle_stage_latency_seconds";
  fmt::format_to(std::back_inserter(out),
                 "# HELP {0} Time delivered payloads spent in each stage (queue: accepted to "
                 "handed to the simulator; simulator: to posted; delivery: posted to "
                 "delivered; resident = queue + delivery).\n# TYPE {0} histogram\n",
                 name);
  for (const admin::Histogram& h : stats.stages()) {
    std::uint64_t cumulative = 0;
    for (int i = 0; i < h.bounds_ns_size(); ++i) {
      cumulative += h.counts(i);
      fmt::format_to(std::back_inserter(out), "{}_bucket{{stage=\"{}\",le=\"{}\"}} {}\n", name,
                     h.stage(), static_cast<double>(h.bounds_ns(i)) / 1e9, cumulative);
    }
    fmt::format_to(std::back_inserter(out), "{0}_bucket{{stage=\"{1}\",le=\"+Inf\"}} {2}\n"
                   "{0}_sum{{stage=\"{1}\"}} {3}\n{0}_count{{stage=\"{1}\"}} {2}\n",
                   name, h.stage(), h.count(), static_cast<double>(h.sum_ns()) / 1e9);
  }
  return out;
}

}  // namespace trestle::daemon
