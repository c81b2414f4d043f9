// trestle-ping-pong: two apps bounce N payloads through the daemon and the
// simulator, and report the round-trip times.
//
//   trestle-ping-pong --daemon ADDR --count N --size BYTES [--pull]
//                     [--role both|ping|pong] [--timeout-ms T] [--lockstep]
//                     [--stats]
//
// --role both (default) runs "ping" and "pong" as two AppClients on one
// EventLoop in this process; --role ping / --role pong run one side each (start
// pong first). Prints one line per round trip, the median time of each stage
// of the echo leg (from the payloads' monotonic stamps), then a summary with
// count, p50 and p99 in microseconds (wall clock) and ping's virtual clock at
// the end. --lockstep joins a lockstep run (trestled --time-mode lockstep):
// ping's receives wait in virtual time, pong waits with AwaitNext; --stats
// prints the daemon's lockstep counters at the end (examples/common). Exits 1
// if a payload is lost, corrupted or late.
#include <CLI/CLI.hpp>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "lockstep_stats_line.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"
#include "trestle/platform/latency_histogram.h"

namespace {

struct Args {
  std::string daemon = trestle::kDefaultDaemonAddress;
  std::uint64_t count = 10;
  std::size_t size = 64;
  bool pull = false;
  std::string role = "both";
  std::string ping_id = "ping";
  std::string pong_id = "pong";
  std::int64_t timeout_ms = 5000;
  bool quiet = false;
  bool lockstep = false;
  bool stats = false;
};

trestle::ClientOptions Options(const Args& args, const std::string& id) {
  trestle::ClientOptions options;
  options.daemon = args.daemon;
  options.client_id = id;
  options.mode = args.pull ? trestle::DeliveryMode::kPull : trestle::DeliveryMode::kPush;
  options.lockstep = args.lockstep;
  return options;
}

// Waits for the next message in lockstep time (callback mode).
void AwaitNext(trestle::AppClient& pong, int* failures) {
  if (absl::Status s = pong.AwaitNext(); !s.ok()) {
    std::fprintf(stderr, "pong: %s\n", s.ToString().c_str());
    ++*failures;
  }
}

// Echoes every payload back to its sender, from the loop (callback mode). In
// lockstep time pong then waits for the next one (AwaitNext). A pong that
// waits alone (ping not yet there) sees the run quiescent; that ends nothing
// here: pong stays blocked and the daemon hands it ping's first payload.
void StartEcho(trestle::AppClient& pong, bool lockstep, std::uint64_t* echoed, int* failures) {
  pong.OnMessage([&pong, lockstep, echoed, failures](trestle::Message&& m) {
    if (!m.dropped) {
      absl::StatusOr<std::uint64_t> id = pong.Send(m.src, m.payload);
      if (id.ok()) {
        ++*echoed;
      } else {
        std::fprintf(stderr, "pong: echo failed: %s\n", id.status().ToString().c_str());
        ++*failures;
      }
    }
    if (lockstep) AwaitNext(pong, failures);
  });
  if (lockstep) AwaitNext(pong, failures);
}

// Sends `count` payloads one at a time and waits for each echo. Returns the
// number of failed round trips (0 on success); stops at the first failure.
// Per-stage times of the echo leg (pong -> daemon -> simulator -> daemon ->
// ping), from the monotonic stamps every process on this host shares.
using trestle::platform::LatencyHistogram;
constexpr auto kFine = LatencyHistogram::Scale::kFine;

struct StageTimes {
  LatencyHistogram to_daemon{kFine}, to_sim{kFine}, in_sim{kFine}, to_daemon_again{kFine},
      to_app{kFine};
  void Add(const trestle::Stamps& s) {
    if (s.app_sent == 0 || s.daemon_accepted == 0 || s.sim_handed == 0 || s.sim_posted == 0 ||
        s.daemon_delivered == 0 || s.app_received == 0) {
      return;  // a stage not recorded (another simulator, say)
    }
    to_daemon.Record(s.daemon_accepted - s.app_sent);
    to_sim.Record(s.sim_handed - s.daemon_accepted);
    in_sim.Record(s.sim_posted - s.sim_handed);
    to_daemon_again.Record(s.daemon_delivered - s.sim_posted);
    to_app.Record(s.app_received - s.daemon_delivered);
  }
};

int RunPing(trestle::AppClient& ping, const Args& args, LatencyHistogram* rtts_ns,
            StageTimes* stages) {
  std::string payload(args.size, '\0');
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<char>('a' + i % 26);
  const auto timeout = std::chrono::milliseconds(args.timeout_ms);
  for (std::uint64_t seq = 0; seq < args.count; ++seq) {
    // Different payloads per round, so a stale echo cannot pass for a new one.
    if (!payload.empty()) payload[0] = static_cast<char>('A' + seq % 26);
    const auto start = std::chrono::steady_clock::now();
    absl::StatusOr<std::uint64_t> id = ping.Send(args.pong_id, payload);
    if (!id.ok()) {
      std::fprintf(stderr, "ping: send %llu failed: %s\n", static_cast<unsigned long long>(seq),
                   id.status().ToString().c_str());
      return 1;
    }
    absl::StatusOr<trestle::Message> echo = ping.Receive(timeout);
    const auto end = std::chrono::steady_clock::now();
    if (!echo.ok()) {
      std::fprintf(stderr, "ping: round trip %llu (id %llu) lost: %s\n",
                   static_cast<unsigned long long>(seq), static_cast<unsigned long long>(*id),
                   echo.status().ToString().c_str());
      return 1;
    }
    if (echo->dropped || echo->payload != payload) {
      std::fprintf(stderr, "ping: round trip %llu came back %s\n",
                   static_cast<unsigned long long>(seq),
                   echo->dropped ? "dropped" : "with a different payload");
      return 1;
    }
    const auto rtt =
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count());
    rtts_ns->Record(rtt);
    stages->Add(echo->stamps);
    if (!args.quiet) {
      std::printf("seq=%llu id=%llu rtt_us=%.1f\n", static_cast<unsigned long long>(seq),
                  static_cast<unsigned long long>(*id), static_cast<double>(rtt) / 1e3);
    }
  }
  return 0;
}

double P50Us(const LatencyHistogram& h) { return h.PercentileNs(0.50) / 1e3; }

void PrintSummary(const Args& args, const LatencyHistogram& rtts_ns, const StageTimes& stages,
                  std::uint64_t virtual_ns) {
  if (stages.to_app.count() > 0) {
    std::printf(
        "echo leg p50_us: app->daemon=%.1f daemon->sim=%.1f sim=%.1f sim->daemon=%.1f "
        "daemon->app=%.1f\n",
        P50Us(stages.to_daemon), P50Us(stages.to_sim), P50Us(stages.in_sim),
        P50Us(stages.to_daemon_again), P50Us(stages.to_app));
  }
  const trestle::platform::LatencySummary rtt = rtts_ns.Summary();
  std::printf(
      "summary: count=%llu lost=%llu size=%zu mode=%s p50_us=%.1f p99_us=%.1f max_us=%.1f "
      "virtual_ns=%llu\n",
      static_cast<unsigned long long>(rtt.count),
      static_cast<unsigned long long>(args.count - rtt.count), args.size,
      args.pull ? "pull" : "push", rtt.p50_us, rtt.p99_us, rtt.max_us,
      static_cast<unsigned long long>(virtual_ns));
}

int Fail(const char* who, const absl::Status& status) {
  std::fprintf(stderr, "%s: %s\n", who, status.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  CLI::App app{"Bounce payloads between two apps through trestled", "trestle-ping-pong"};
  app.add_option("--daemon", args.daemon, "Daemon address, HOST:PORT or unix:PATH")
      ->capture_default_str();
  app.add_option("--count", args.count, "Round trips")->capture_default_str();
  app.add_option("--size", args.size, "Payload bytes")->capture_default_str();
  app.add_flag("--pull", args.pull, "Receive by long-poll instead of push");
  app.add_option("--role", args.role, "both | ping | pong")
      ->check(CLI::IsMember({"both", "ping", "pong"}))
      ->capture_default_str();
  app.add_option("--ping-id", args.ping_id, "Client id of the ping side")->capture_default_str();
  app.add_option("--pong-id", args.pong_id, "Client id of the pong side")->capture_default_str();
  app.add_option("--timeout-ms", args.timeout_ms, "Per round trip")->capture_default_str();
  app.add_flag("--quiet", args.quiet, "Print only the summary");
  app.add_flag("--lockstep", args.lockstep,
               "Lockstep time (the daemon must run --time-mode lockstep): sends stamp the virtual "
               "clock, ping's receives wait in virtual time, pong waits with AwaitNext");
  app.add_flag("--stats", args.stats,
               "Ping side: at the end, print the daemon's delivered count and lockstep counters "
               "(grants, reached, clocks, wakes) per delivered message");
  CLI11_PARSE(app, argc, argv);

  trestle::EventLoop loop;
  std::unique_ptr<trestle::AppClient> ping;
  std::unique_ptr<trestle::AppClient> pong;
  std::uint64_t echoed = 0;
  int echo_failures = 0;
  if (args.role != "ping") {
    pong = std::make_unique<trestle::AppClient>(loop, Options(args, args.pong_id));
    pong->OnError([&](const absl::Status& s) { Fail("pong", s); ++echo_failures; });
    if (absl::Status s = pong->Connect(); !s.ok()) return Fail("pong: connect", s);
    StartEcho(*pong, args.lockstep, &echoed, &echo_failures);
  }
  if (args.role == "pong") {
    // Serve until every round trip was echoed, or a signal.
    loop.StopOnSignal(SIGINT);
    loop.StopOnSignal(SIGTERM);
    loop.RunUntil(
        [&] {
          return echoed >= args.count || loop.stop_signal() != 0 ||
                 !pong->connected();
        },
        std::chrono::hours(24 * 365));
    std::printf("pong: echoed %llu payloads\n", static_cast<unsigned long long>(echoed));
    (void)pong->Close(std::chrono::milliseconds(2000));
    return echoed >= args.count && echo_failures == 0 ? 0 : 1;
  }

  ping = std::make_unique<trestle::AppClient>(loop, Options(args, args.ping_id));
  ping->OnError([&](const absl::Status& s) { Fail("ping", s); });
  if (absl::Status s = ping->Connect(); !s.ok()) return Fail("ping: connect", s);

  LatencyHistogram rtts_ns(kFine);
  StageTimes stages;
  const int failed = RunPing(*ping, args, &rtts_ns, &stages);
  PrintSummary(args, rtts_ns, stages, ping->Now());
  if (args.stats) {
    absl::StatusOr<trestle::wire::StatsReply> stats =
        ping->Stats(std::chrono::milliseconds(args.timeout_ms));
    if (!stats.ok()) return Fail("ping: stats", stats.status());
    std::printf("%s\n", trestle::examples::LockstepStatsLine(*stats).c_str());
  }
  (void)ping->Close(std::chrono::milliseconds(2000));
  if (pong) (void)pong->Close(std::chrono::milliseconds(2000));
  return failed == 0 && echo_failures == 0 ? 0 : 1;
}
