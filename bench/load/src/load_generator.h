// LoadGenerator: runs one benchmark configuration through an AppFleet: the
// bridge (a running daemon and ghost simulator) or its floor.
//
// It connects config.apps() apps on one EventLoop (one thread), in waves of
// config.connect_wave outstanding handshakes so the relay's listen backlog
// does not overflow. Then, open loop, a single 1 ms libuv timer sends every
// message that is due by now (ArrivalSchedule at config.rate), each from a
// random one of the config.nodes sending apps to a random other app, stalled
// apps included (so a stalled app gets its 1 / (apps - 1) share of each
// sender's messages; with PeerChoice::kAcross, to a random app on another
// daemon than the sender's: a random other daemon, then a random app on
// it; with PeerChoice::kWithin, to a random other app on the sender's
// daemon); or, closed loop (config.window > 0), every sending app
// keeps `window` messages in flight. After config.duration it drains: it
// waits (up to config.drain_timeout) until every message to an app that
// reads arrived, then a short grace period for duplicates. Messages to
// stalled apps are counted, not waited for.
//
// Every payload starts with its 8-byte ledger sequence number; arrivals are
// checked against the DeliveryLedger (exactly once, right id, right app).
// Latencies come from the messages' stage stamps (wire::ResidentNanos for
// the resident time) and go to fixed-size histograms: nothing is allocated
// per message beyond what the fleet does.
//
// Several daemons (config.daemons > 1): it also counts, per daemon, what its
// apps sent and received and what the daemon counted (DaemonResult), and
// fails the run if they do not balance (daemon_balance.h), and it measures
// the messages that stay on their daemon apart from those that cross.
//
// Run() blocks (it runs the loop) and may be called once.
#pragma once

#include <uv.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "app_fleet.h"
#include "bench_config.h"
#include "bench_result.h"
#include "cpu_meter.h"
#include "delivery_ledger.h"
#include "process_stats.h"
#include "status_line.h"
#include "trestle/event_loop.h"
#include "trestle/platform/uv_handle.h"

namespace trestle::bench {

class LoadGenerator {
 public:
  // Processes to measure; null or empty members are reported as n/a.
  struct Probes {
    // The relay, or each daemon of the bridge in the order of the fleet's
    // relays (CPU and RSS are summed over them).
    std::span<const ProcessStats> daemons;
    // The simulator, or each of the bridge's ghosts (CPU summed).
    std::span<const ProcessStats> sims;
  };
  // `addresses`: with several daemons, each one's, for the report.

  // `loop` runs `fleet`, which is not yet created; both, and `status`, must
  // outlive the generator.
  LoadGenerator(BenchConfig config, EventLoop& loop, AppFleet& fleet, Probes probes,
                StatusLine* status, std::vector<std::string> addresses = {});
  ~LoadGenerator();
  LoadGenerator(const LoadGenerator&) = delete;
  LoadGenerator& operator=(const LoadGenerator&) = delete;

  // Connects, sends, drains and measures. A configuration that could not run
  // (apps failed to connect, no simulator) comes back with `error` set. The
  // caller fills in `transport`.
  BenchResult Run();

 private:
  static void OnTick(uv_timer_t* timer);
  static void OnStatusTick(uv_timer_t* timer);

  absl::Status ConnectAll();
  void Tick();
  // Sends one message from `sender`. Returns false when the client's send
  // backlog is full (try again on a later tick).
  bool SendOne(std::uint32_t sender, bool measured);
  // The receiver of `sender`'s next message (see the class comment).
  std::uint32_t PickReceiver(std::uint32_t sender);
  void OnArrival(std::uint32_t receiver, const Message& m);
  // Adds the message's per-leg times to stages_.
  void RecordStages(const Stamps& stamps);
  void DrawStatus();
  // After the run (load_generator_result.cc): fills result_ from what was
  // measured, `drained` (every message to an app that reads arrived) and the
  // relays' counters before the run, and returns it.
  BenchResult Finish(bool drained, const std::vector<std::optional<wire::Counters>>& before);
  // Fills result_'s daemon counters and per_daemon from the relays'
  // counters before and after the run; returns why they do not balance, or
  // "".
  std::string FillDaemonCounters(const std::vector<std::optional<wire::Counters>>& before,
                                 const std::vector<std::optional<wire::Counters>>& after);
  // Sum of `meters`' figures; nullopt if there are none or one is unknown.
  static std::optional<double> SumPercent(const std::vector<CpuMeter>& meters);
  void CloseTimers();
  std::uint64_t ElapsedNs() const;

  BenchConfig config_;
  EventLoop& loop_;
  AppFleet& fleet_;
  Probes probes_;
  StatusLine* status_;

  std::vector<std::uint32_t> in_flight_;  // per app, closed loop

  DeliveryLedger ledger_;
  // Every latency on the fine scale: the p99.9 within 1 %.
  static constexpr auto kFine = platform::LatencyHistogram::Scale::kFine;
  platform::LatencyHistogram resident_{kFine};
  platform::LatencyHistogram e2e_{kFine};
  // Several daemons: e2e_ apart for each path (BenchResult::stayed,
  // crossed), and its measured arrivals.
  platform::LatencyHistogram e2e_stayed_{kFine};
  platform::LatencyHistogram e2e_crossed_{kFine};
  std::uint64_t measured_stayed_ = 0;
  std::uint64_t measured_crossed_ = 0;
  std::vector<platform::LatencyHistogram> stages_ = std::vector<platform::LatencyHistogram>(
      kStageNames.size(), platform::LatencyHistogram(kFine));
  ArrivalSchedule schedule_;
  std::mt19937_64 rng_;
  std::string payload_;  // reused for every Send

  platform::UvHandle<uv_timer_t> tick_timer_;
  platform::UvHandle<uv_timer_t> status_timer_;

  BenchResult result_;
  std::string first_error_;
  std::string bridge_lost_;  // a session lost mid-run: the run stops

  // Times are ns since the first tick (ElapsedNs).
  std::uint64_t start_ns_ = 0;      // MonotonicNanos() at the first tick
  std::uint64_t warmup_ns_ = 0;
  std::uint64_t end_ns_ = 0;        // warm-up + duration
  bool sending_done_ = false;
  bool measuring_ = false;
  std::uint64_t measured_sent_ = 0;
  std::uint64_t measured_arrived_ = 0;
  std::uint64_t last_measured_send_ns_ = 0;
  std::uint64_t last_measured_arrival_ns_ = 0;  // absolute MonotonicNanos
  std::uint64_t max_lag_ns_ = 0;  // open loop: how late the latest due message went out
  std::uint64_t status_delivered_ = 0;
  std::uint64_t status_at_ns_ = 0;

  std::vector<std::string> addresses_;
  // Several daemons only: per daemon, what its apps sent and received.
  std::vector<std::uint64_t> sent_by_daemon_;
  std::vector<std::uint64_t> received_by_daemon_;
  std::vector<bool> with_simulator_;  // per daemon (AppFleet::RelaysWithSimulator)

  std::vector<CpuMeter> daemon_cpu_;  // one per Probes::daemons
  std::vector<CpuMeter> sim_cpu_;     // one per Probes::sims
  ProcessStats self_stats_;
  CpuMeter self_cpu_;
};

}  // namespace trestle::bench
