#include "trestle/bench/bench_command.h"

#include <sys/types.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "bench_config.h"
#include "bench_matrix.h"
#include "bench_report.h"
#include "bridge_launcher.h"
#include "load_generator.h"
#include "open_file_limit.h"
#include "process_stats.h"
#include "repeated_runs.h"
#include "status_line.h"

namespace trestle::bench {
namespace {

// Above this many connections the apps reach a daemon that this command
// starts through its Unix socket: more TCP connections would exhaust the
// ~28,000 loopback ephemeral ports to one address:port.
constexpr std::uint64_t kUnixSocketAboveConnections = 24'000;
// Descriptors this process needs besides its clients' connections.
constexpr rlim_t kSpareDescriptors = 256;

std::uint64_t ConnectionsOf(const BenchConfig& c) {
  return std::uint64_t{c.connections} * c.nodes;
}

rlim_t DescriptorsFor(const BenchConfig& c) { return ConnectionsOf(c) + kSpareDescriptors; }

struct BenchCommandOptions {
  BenchConfig base;
  std::string rate = "100";
  std::string duration = "10s";
  std::string warmup = "0s";
  std::string drain_timeout = "30s";
  std::string idle;
  std::string mode = "push";
  std::string arrivals = "constant";
  std::string matrix;
  std::string transport;  // "" = TCP unless too many connections
  std::string daemon;
  pid_t daemon_pid = 0;
  pid_t sim_pid = 0;
  std::string json;
  std::uint32_t repeat = 1;
  BridgeLauncher::Paths paths = BridgeLauncher::DefaultPaths();
  CLI::Option* mode_option = nullptr;
  CLI::Option* connections_option = nullptr;
};

// "250ms", "10s", "2m" or a bare number of seconds ("1.5").
std::optional<std::chrono::milliseconds> ParseDuration(const std::string& text) {
  std::size_t end = 0;
  double value = 0;
  try {
    value = std::stod(text, &end);
  } catch (...) {
    return std::nullopt;
  }
  const std::string unit = text.substr(end);
  double ms = 0;
  if (unit.empty() || unit == "s") {
    ms = value * 1e3;
  } else if (unit == "ms") {
    ms = value;
  } else if (unit == "m" || unit == "min") {
    ms = value * 60e3;
  } else {
    return std::nullopt;
  }
  if (ms < 0) return std::nullopt;
  return std::chrono::milliseconds(static_cast<std::int64_t>(ms + 0.5));
}

std::chrono::milliseconds DurationOrThrow(const std::string& text, const char* flag) {
  std::optional<std::chrono::milliseconds> d = ParseDuration(text);
  if (!d) {
    throw CLI::ValidationError(flag, "\"" + text + "\" is not a duration (e.g. 500ms, 10s, 2m)");
  }
  return *d;
}

// Fills in the parts of the base configuration that arrive as text.
void ResolveBase(BenchCommandOptions& o) {
  BenchConfig& c = o.base;
  c.duration = DurationOrThrow(o.duration, "--duration");
  c.warmup = DurationOrThrow(o.warmup, "--warmup");
  c.drain_timeout = DurationOrThrow(o.drain_timeout, "--drain-timeout");
  if (!o.idle.empty()) c.idle = DurationOrThrow(o.idle, "--idle");
  c.pull = o.mode == "pull";
  c.arrivals = o.arrivals == "poisson" ? ArrivalKind::kPoisson : ArrivalKind::kConstant;
  if (o.rate == "max") {
    if (c.window == 0) c.window = BenchMatrix::kMaxThroughputWindow;
  } else {
    try {
      c.rate = std::stod(o.rate);
    } catch (...) {
      throw CLI::ValidationError("--rate", "\"" + o.rate + "\" is not a number or \"max\"");
    }
    if (!(c.rate > 0)) throw CLI::ValidationError("--rate", "must be above 0");
    c.window = 0;
  }
  if (c.connections == 1 && c.pull) {
    throw CLI::ValidationError("--connections",
                               "1 (a shared connection) needs --mode push: in PULL the daemon "
                               "refuses it");
  }
  if (c.size < sizeof(std::uint64_t)) {
    throw CLI::ValidationError("--size", "must be at least 8 bytes (the sequence number)");
  }
}

std::string Describe(const BenchConfig& c) {
  return absl::StrFormat("nodes %u, %s, %s%s, %s store, %g s", c.nodes,
                         c.closed_loop() ? absl::StrFormat("max rate (window %u)", c.window)
                                         : absl::StrFormat("%g msg/s", c.rate),
                         c.pull ? "pull" : "push", c.connections == 1 ? " (1 connection)" : "",
                         c.store, static_cast<double>(c.duration.count()) / 1e3);
}

std::string Summarize(const BenchResult& r) {
  if (!r.error.empty() && r.sent == 0) return "failed: " + r.error;
  std::string text = absl::StrFormat(
      "sent %u, delivered %u, lost %u, dup %u; resident p99 %.1f us; %.0f msg/s", r.sent,
      r.delivered, r.lost, r.duplicated, r.resident.p99_us, r.throughput);
  if (r.transport != "tcp") text += "; apps on the " + r.transport + " socket";
  if (!r.error.empty()) text += "; " + r.error;
  return text;
}

// Runs one configuration on a bridge of its own (or the given daemon).
BenchResult RunOne(const BenchCommandOptions& o, const BenchConfig& config, StatusLine& status) {
  std::optional<ProcessStats> daemon_stats;
  std::optional<ProcessStats> sim_stats;
  std::unique_ptr<BridgeLauncher> bridge;
  std::string address = o.daemon;
  if (address.empty()) {
    bridge = std::make_unique<BridgeLauncher>(o.paths);
    const bool unix_socket =
        o.transport == "unix" ||
        (o.transport.empty() && ConnectionsOf(config) > kUnixSocketAboveConnections);
    if (absl::Status s = bridge->Start(config.store, config.pull, unix_socket,
                                       std::chrono::milliseconds(10'000));
        !s.ok()) {
      BenchResult failed;
      failed.config = config;
      failed.error = s.ToString();
      return failed;
    }
    address = bridge->client_address();
    daemon_stats.emplace(bridge->daemon_pid());
    sim_stats.emplace(bridge->ghost_pid());
  } else {
    if (o.daemon_pid > 0) daemon_stats.emplace(o.daemon_pid);
    if (o.sim_pid > 0) sim_stats.emplace(o.sim_pid);
    if (ConnectionsOf(config) > kUnixSocketAboveConnections && address.rfind("unix:", 0) != 0) {
      status.Finish(absl::StrFormat(
          "warning: %u TCP connections to one address may run out of loopback ephemeral "
          "ports; pass --daemon unix:PATH",
          ConnectionsOf(config)));
    }
  }
  LoadGenerator::Probes probes;
  probes.daemon = daemon_stats ? &*daemon_stats : nullptr;
  probes.sim = sim_stats ? &*sim_stats : nullptr;
  BenchResult result;
  {
    LoadGenerator generator(config, address, probes, &status);
    result = generator.Run();
  }
  if (bridge) {
    if (absl::Status s = bridge->Stop(); !s.ok() && result.error.empty()) {
      result.error = std::string(s.message());
    }
  }
  return result;
}

void RunBench(BenchCommandOptions& o) {
  ResolveBase(o);
  std::vector<BenchConfig> configs;
  if (o.matrix.empty()) {
    configs.push_back(o.base);
  } else {
    BenchConfig base = o.base;
    if (o.idle.empty() && o.matrix != "nsb2") base.idle = std::chrono::milliseconds(2000);
    BenchMatrix::Given given;
    given.mode = o.mode_option->count() > 0;
    given.connections = o.connections_option->count() > 0;
    absl::StatusOr<std::vector<BenchConfig>> expanded = BenchMatrix::Expand(o.matrix, base, given);
    if (!expanded.ok()) throw CLI::ValidationError("--matrix", std::string(expanded.status().message()));
    configs = *std::move(expanded);
    for (const BenchConfig& c : configs) {
      if (c.connections == 1 && c.pull) {
        throw CLI::ValidationError("--connections", "1 (a shared connection) needs push mode; "
                                                    "--matrix " + o.matrix +
                                                    " runs PULL unless --mode push is given");
      }
    }
  }

  rlim_t most = 0;
  for (const BenchConfig& c : configs) most = std::max(most, DescriptorsFor(c));
  StatusLine status(stderr);
  // Raised before any daemon starts: the daemons inherit the limit.
  const rlim_t limit = RaiseOpenFileLimit(most);

  BenchReport report(stdout, o.json);
  if (absl::Status s = report.Open(); !s.ok()) {
    status.Finish("trestle bench: " + std::string(s.message()));
    throw CLI::RuntimeError(1);
  }
  bool all_ok = true;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const std::string label =
        absl::StrFormat("[%u/%u] %s", i + 1, configs.size(), Describe(configs[i]));
    if (DescriptorsFor(configs[i]) > limit) {
      // This process and the daemon each hold every connection's descriptor.
      status.Finish(absl::StrFormat(
          "%s: skipped: %u clients need %u open files in this process and in the daemon; the "
          "limit is %u and cannot be raised (raising the hard limit needs CAP_SYS_RESOURCE); "
          "--connections 1 needs a third as many",
          label, configs[i].nodes, DescriptorsFor(configs[i]), limit));
      all_ok = false;
      continue;
    }
    std::vector<BenchResult> runs;
    for (std::uint32_t k = 0; k < o.repeat; ++k) {
      const std::string run_label =
          o.repeat > 1 ? absl::StrFormat("%s, run %u/%u", label, k + 1, o.repeat) : label;
      if (status.live()) status.Update(run_label + ": starting");
      runs.push_back(RunOne(o, configs[i], status));
      if (o.repeat > 1) status.Finish(run_label + ": " + Summarize(runs.back()));
    }
    BenchResult result = CombineRuns(runs);
    status.Finish(label + (o.repeat > 1 ? absl::StrFormat(" (median of %u runs)", o.repeat) : "") +
                  ": " + Summarize(result));
    report.Add(result);
    all_ok = all_ok && result.ok();
  }
  if (!all_ok) throw CLI::RuntimeError(1);
}

}  // namespace

void RegisterBenchCommand(CLI::App& app) {
  // Owned by the subcommand's callback, which CLI11 keeps alive with `app`.
  auto o = std::make_shared<BenchCommandOptions>();
  CLI::App* sub = app.add_subcommand(
      "bench",
      "Measure the bridge's own overhead: N ghost apps on one event loop send to random peers "
      "at an open-loop rate through trestled and the ghost simulator; prints a Markdown table");
  sub->add_option("--nodes", o->base.nodes, "App clients (one process, one event loop)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1'000'000u));
  sub->add_option("--rate", o->rate,
                  "Total messages/s (open loop), or \"max\": closed loop, --window in flight "
                  "per client")
      ->capture_default_str();
  sub->add_option("--duration", o->duration, "Sending time per configuration (500ms, 10s, 2m)")
      ->capture_default_str();
  sub->add_option("--size", o->base.size, "Payload bytes (at least 8)")->capture_default_str();
  o->mode_option = sub->add_option("--mode", o->mode,
                                   "push | pull, for the apps and the ghost (--matrix nsb2: "
                                   "pull unless given)")
                       ->check(CLI::IsMember({"push", "pull"}))
                       ->capture_default_str();
  sub->add_option("--daemon", o->daemon,
                  "Use this running daemon (HOST:PORT or unix:PATH, with a ghost simulator "
                  "attached) instead of starting one per configuration");
  sub->add_option("--transport", o->transport,
                  "How the apps reach the daemon this command starts: tcp or unix (default: "
                  "tcp, unix above 24,000 connections)")
      ->check(CLI::IsMember({"tcp", "unix"}));
  sub->add_option("--daemon-pid", o->daemon_pid,
                  "With --daemon: its pid, to report its CPU and RSS (else n/a)");
  sub->add_option("--sim-pid", o->sim_pid, "With --daemon: the simulator's pid, for its CPU");
  sub->add_option("--store", o->base.store, "Payload store of the started daemon: memory or "
                                            "redis://HOST:PORT/DB")
      ->capture_default_str();
  sub->add_option("--arrivals", o->arrivals, "constant | poisson spacing of the sends")
      ->check(CLI::IsMember({"constant", "poisson"}))
      ->capture_default_str();
  sub->add_option("--seed", o->base.seed, "Seed of peers and Poisson gaps")->capture_default_str();
  sub->add_option("--json", o->json, "Also write one JSON object per configuration (JSON Lines)");
  sub->add_option("--matrix", o->matrix,
                  "nsb2 | scale | cliff: run a grid of configurations (see docs/benchmarks.md)")
      ->check(CLI::IsMember({"nsb2", "scale", "cliff"}));
  sub->add_option("--repeat", o->repeat,
                  "Run each configuration N times and report one row: counts summed over the "
                  "runs, every other figure their median")
      ->check(CLI::Range(1u, 100u))
      ->capture_default_str();
  sub->add_option("--warmup", o->warmup, "Sent and checked before measuring")
      ->capture_default_str();
  sub->add_option("--drain-timeout", o->drain_timeout,
                  "After sending, how long to wait for every message to arrive")
      ->capture_default_str();
  sub->add_option("--idle", o->idle,
                  "Measure the daemon's CPU this long with all clients connected and no "
                  "traffic (default 0; 2s with --matrix scale or cliff)");
  sub->add_option("--window", o->base.window,
                  "With --rate max: messages in flight per client (default 256)");
  o->connections_option =
      sub->add_option("--connections", o->base.connections,
                      "Connections per app: 3 (ctrl, send, recv) or 1 (shared; push only). "
                      "--matrix scale and cliff: 1 in push unless given")
          ->check(CLI::IsMember({1u, 3u}))
          ->capture_default_str();
  sub->add_option("--connect-wave", o->base.connect_wave, "Handshakes outstanding at once")
      ->capture_default_str();
  sub->add_option("--trestled", o->paths.trestled, "trestled binary to start")
      ->capture_default_str();
  sub->add_option("--trestle-sim", o->paths.trestle_sim, "trestle-sim binary to start")
      ->capture_default_str();
  sub->callback([o] { RunBench(*o); });
}

}  // namespace trestle::bench
