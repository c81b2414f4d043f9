// BenchResult: what one configuration measured.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench_config.h"
#include "trestle/platform/latency_histogram.h"

namespace trestle::bench {

// The five legs of a message's trip between consecutive stamps: app sent ->
// daemon accepted -> handed to the simulator -> posted by the simulator ->
// delivered by the daemon -> received by the app. Legs 1 and 3 are the
// daemon-resident time.
inline constexpr std::array<const char*, 5> kStageNames = {
    "app_to_daemon", "daemon_to_sim", "in_sim", "sim_to_daemon_delivered", "daemon_to_app"};

// One daemon of a federated bridge (several daemons): what its apps sent and
// received, as the generator saw it, and what the daemon itself counted
// over the run (StatsReply.total: differences, except in_flight).
struct DaemonResult {
  std::string address;
  std::uint32_t apps = 0;        // attached to it (stalled ones included)
  std::uint64_t sent = 0;        // by its apps
  std::uint64_t received = 0;    // by its apps, first arrivals
  std::uint64_t accepted = 0;
  std::uint64_t delivered = 0;
  std::uint64_t forwarded = 0;   // handed on to another daemon
  std::uint64_t from_peers = 0;  // taken over from another daemon
  std::uint64_t in_flight = 0;
  bool counters_known = false;   // the daemon answered both Stats requests
  std::optional<double> cpu_pct;
  std::optional<double> rss_mb;  // peak (VmHWM)
};

// Several daemons: the measured messages of one path: those that stayed on
// one daemon (sender, receiver and simulator all there) or those that
// crossed to another (for their transit, their delivery, or both).
struct PathResult {
  std::uint64_t delivered = 0;  // measured arrivals
  double throughput = 0;        // of them, messages/s over measured_seconds
  platform::LatencySummary e2e;
};

struct BenchResult {
  BenchConfig config;
  std::string transport = "tcp";  // how the apps reached the daemon: tcp | unix

  // Exactly-once accounting (warm-up included): sent = delivered +
  // undelivered, and undelivered = sent_to_stalled + lost (nothing reaches a
  // stalled app).
  std::uint64_t sent = 0;
  std::uint64_t delivered = 0;    // distinct messages that arrived
  std::uint64_t undelivered = 0;  // sent and not arrived when the drain ended
  std::uint64_t sent_to_stalled = 0;  // to --stalled-apps: expected not to arrive
  std::uint64_t lost = 0;         // to apps that read, not arrived when the drain ended
  std::uint64_t duplicated = 0;   // arrivals beyond the first
  std::uint64_t unknown = 0;      // arrivals matching no sent message
  std::uint64_t send_failures = 0;  // Send calls that failed (not sent)
  std::uint64_t async_errors = 0;   // errors the clients reported (OnError)
  std::uint64_t deferred_sends = 0; // sends put off by a full send backlog
  // Sent to an app on another daemon than the sender's (several daemons).
  std::uint64_t sent_across = 0;
  // Several daemons: the measured figures of each path apart. In a closed
  // loop both share their sender's window, so `stayed` moves at the pace
  // the mix allows, not at its own.
  PathResult stayed;
  PathResult crossed;

  // Rates over the measured interval (after the warm-up).
  double send_rate = 0;           // achieved messages/s
  double throughput = 0;          // delivered messages/s
  double measured_seconds = 0;    // from the first measured send to the last arrival
  double connect_seconds = 0;     // opening all clients
  double drain_seconds = 0;       // after the last send, until all arrived

  platform::LatencySummary resident;  // daemon-resident time per message
  platform::LatencySummary e2e;       // app sent -> app received
  // The trip stage by stage, from the stamps (see kStageNames).
  std::array<platform::LatencySummary, 5> stages;

  // Processes (nullopt = not measurable, e.g. --daemon without --daemon-pid).
  // With several daemons, CPU is their sum and RSS the sum of their peaks.
  std::optional<double> daemon_cpu_pct;
  std::optional<double> daemon_rss_mb;       // peak (VmHWM)
  std::optional<double> daemon_idle_cpu_pct; // all clients connected, no traffic
  std::optional<double> sim_cpu_pct;
  std::optional<double> generator_cpu_pct;

  // The daemon's own counters after the drain (StatsReply.total), summed
  // over the daemons.
  std::uint64_t daemon_accepted = 0;
  std::uint64_t daemon_delivered = 0;
  std::uint64_t daemon_dropped = 0;
  std::uint64_t daemon_expired = 0;
  std::uint64_t daemon_in_flight = 0;
  std::uint64_t daemon_forwarded = 0;
  std::uint64_t daemon_from_peers = 0;
  // Several daemons: each one's figures, in the order of config.daemons;
  // empty with one daemon.
  std::vector<DaemonResult> per_daemon;

  std::string error;  // why the configuration failed; "" if it ran

  // --repeat: how many runs this row combines (see repeated_runs.h), and
  // each run's resident p99.
  std::uint32_t runs = 1;
  std::vector<double> resident_p99_runs;

  // Messages to stalled apps are expected not to arrive; every other one is.
  bool ok() const {
    return error.empty() && lost == 0 && duplicated == 0 && unknown == 0 && send_failures == 0;
  }
};

// One row of the table: the bridge's run of a configuration and, with
// --floor, the floor's run of the same traffic (see docs/benchmarks.md).
struct BenchRow {
  BenchResult bridge;
  std::optional<BenchResult> floor;

  bool ok() const { return bridge.ok() && (!floor || floor->ok()); }
};

}  // namespace trestle::bench
