#include "trestle/bench/bench_command.h"

#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "bench_config.h"
#include "bench_matrix.h"
#include "bench_report.h"
#include "bridge_fleet.h"
#include "floor_fleet.h"
#include "load_generator.h"
#include "process_stats.h"
#include "relay_launcher.h"
#include "repeated_runs.h"
#include "status_line.h"
#include "trestle/event_loop.h"
#include "trestle/platform/open_file_limit.h"
#include "trestle/platform/socket_address.h"

namespace trestle::bench {
namespace {

// Above this many connections the apps reach a daemon that this command
// starts through its Unix socket: more TCP connections would exhaust the
// ~28,000 loopback ephemeral ports to one address:port.
constexpr std::uint64_t kUnixSocketAboveConnections = 24'000;
// Descriptors this process needs besides its clients' connections.
constexpr std::uint64_t kSpareDescriptors = 256;
// Bound on starting a relay and its peer.
constexpr std::chrono::milliseconds kStartTimeout{10'000};

std::uint64_t ConnectionsOf(const BenchConfig& c) {
  return std::uint64_t{c.connections} * c.apps();
}

// The floor's apps have one connection each, never more than the bridge's.
std::uint64_t DescriptorsFor(const BenchConfig& c) { return ConnectionsOf(c) + kSpareDescriptors; }

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
  std::vector<std::string> daemon;  // --daemon, each running daemon's address
  std::vector<pid_t> daemon_pids;   // --daemon-pid, in the same order
  pid_t sim_pid = 0;
  std::string peers = "any";
  // Bridges of several daemons started so far: each gets a fresh --run.
  std::uint32_t federated_runs = 0;
  std::string json;
  std::uint32_t repeat = 1;
  bool floor = false;
  std::vector<std::string> daemon_args;  // --trestled-arg
  RelayLauncher::Paths paths = RelayLauncher::Paths::Default();
  CLI::Option* mode_option = nullptr;
  CLI::Option* connections_option = nullptr;
  CLI::Option* daemons_option = nullptr;
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
  if (c.stalled_apps > 0 && c.closed_loop()) {
    throw CLI::ValidationError("--stalled-apps",
                               "needs an open-loop --rate: with --rate max every sender's window "
                               "would fill with messages the stalled apps never take");
  }
  for (const std::string& daemon : o.daemon) {
    if (absl::StatusOr<platform::SocketAddress> a =
            platform::ParseSocketAddress(daemon, "daemon address");
        !a.ok()) {
      throw CLI::ValidationError("--daemon", std::string(a.status().message()));
    }
  }
  if (!o.daemon.empty()) {
    if (o.daemons_option->count() > 0) {
      throw CLI::ValidationError("--daemons",
                                 "starts that many daemons; to use running ones, give each "
                                 "one's address with --daemon (repeated, or a comma list)");
    }
    c.daemons = static_cast<std::uint32_t>(o.daemon.size());
    if (!o.daemon_pids.empty() && o.daemon_pids.size() != o.daemon.size()) {
      throw CLI::ValidationError(
          "--daemon-pid", absl::StrFormat("give one per --daemon address (%u), in the same "
                                          "order, or none; %u given",
                                          o.daemon.size(), o.daemon_pids.size()));
    }
  }
  if (c.daemons > 1 && o.daemon.empty() && c.store.rfind("redis://", 0) != 0) {
    throw CLI::ValidationError(
        "--daemons", absl::StrFormat("%u federated daemons share one Redis: give --store "
                                     "redis://HOST:PORT/DB (\"%s\" is not one)",
                                     c.daemons, c.store));
  }
  if (c.daemons > 1 && c.nodes < c.daemons) {
    throw CLI::ValidationError(
        "--nodes", absl::StrFormat("%u apps cannot be spread over %u daemons: each daemon needs "
                                   "at least one sending app",
                                   c.nodes, c.daemons));
  }
  c.peers_across = o.peers == "across";
  if (c.peers_across && c.daemons < 2) {
    throw CLI::ValidationError("--peers", "across needs several daemons (--daemons N, or "
                                          "--daemon given several times)");
  }
  if (o.floor && c.daemons > 1) {
    throw CLI::ValidationError("--floor", "the floor is one relay; it has no counterpart of "
                                          "several daemons");
  }
  if (!o.daemon.empty() && !o.daemon_args.empty()) {
    throw CLI::ValidationError("--trestled-arg", "applies to the daemon this command starts, "
                                                 "not to one given with --daemon");
  }
}

std::string Describe(const BenchConfig& c, bool floor) {
  return absl::StrFormat(
      "nodes %u%s, %s, %s%s, %s store%s, %g s%s", c.nodes,
      c.stalled_apps > 0 ? absl::StrFormat(" + %u stalled", c.stalled_apps) : "",
      c.closed_loop() ? absl::StrFormat("max rate (window %u)", c.window)
                      : absl::StrFormat("%g msg/s", c.rate),
      c.pull ? "pull" : "push", c.connections == 1 ? " (1 connection)" : "", c.store,
      c.daemons > 1 ? absl::StrFormat(", %u daemons%s", c.daemons,
                                      c.peers_across ? " (peers across)" : "")
                    : "",
      static_cast<double>(c.duration.count()) / 1e3, floor ? ", and its floor" : "");
}

std::string Summarize(const BenchRow& row) {
  const BenchResult& r = row.bridge;
  if (!r.error.empty() && r.sent == 0) return "failed: " + r.error;
  std::string text = absl::StrFormat("sent %u, delivered %u, lost %u, dup %u", r.sent, r.delivered,
                                     r.lost, r.duplicated);
  if (r.config.stalled_apps > 0) {
    text += absl::StrFormat(" (undelivered %u, of which %u to the stalled apps)", r.undelivered,
                            r.sent_to_stalled);
  }
  text += absl::StrFormat("; resident p99 %.1f us; %.0f msg/s", r.resident.p99_us, r.throughput);
  if (!r.per_daemon.empty()) {
    text += absl::StrFormat("; %u across daemons", r.sent_across);
    for (std::size_t d = 0; d < r.per_daemon.size(); ++d) {
      const DaemonResult& x = r.per_daemon[d];
      text += absl::StrFormat(
          "; daemon %u (%s, %u apps): sent %u, received %u, accepted %u, delivered %u, "
          "forwarded %u, from peers %u",
          d + 1, x.address, x.apps, x.sent, x.received, x.accepted, x.delivered, x.forwarded,
          x.from_peers);
    }
  }
  if (r.transport != "tcp") text += "; apps on the " + r.transport + " socket";
  if (!r.error.empty()) text += "; " + r.error;
  if (row.floor) {
    const BenchResult& f = *row.floor;
    text += absl::StrFormat("; floor: resident p50/p99 %.1f/%.1f us, e2e p50/p99 %.1f/%.1f us",
                            f.resident.p50_us, f.resident.p99_us, f.e2e.p50_us, f.e2e.p99_us);
    if (!f.ok()) {
      text += absl::StrFormat(", lost %u, dup %u", f.lost, f.duplicated);
      if (!f.error.empty()) text += ", " + f.error;
    }
  }
  return text;
}

BenchResult Failed(const BenchConfig& config, const absl::Status& s) {
  BenchResult failed;
  failed.config = config;
  failed.error = s.ToString();
  return failed;
}

// Whether the relays this command starts listen on a Unix socket for the
// apps (--transport, or too many connections for TCP).
bool UnixSocketFor(const BenchCommandOptions& o, const BenchConfig& config) {
  return o.transport == "unix" ||
         (o.transport.empty() && ConnectionsOf(config) > kUnixSocketAboveConnections);
}

// Runs `config` through `fleet`; `addresses` are the daemons' (several
// daemons: for the report).
BenchResult Measure(const BenchConfig& config, EventLoop& loop, AppFleet& fleet,
                    LoadGenerator::Probes probes, bool unix_socket, StatusLine& status,
                    std::vector<std::string> addresses = {}) {
  BenchResult result;
  {
    LoadGenerator generator(config, loop, fleet, probes, &status, std::move(addresses));
    result = generator.Run();
  }
  result.transport = unix_socket ? "unix" : "tcp";
  return result;
}

void StopInto(RelayLauncher& relay, BenchResult& result) {
  if (absl::Status s = relay.Stop(); !s.ok() && result.error.empty()) {
    result.error = std::string(s.message());
  }
}

// The same traffic through the floor relay and echo (see floor_relay.h).
BenchResult RunFloor(const BenchCommandOptions& o, const BenchConfig& config, bool unix_socket,
                     StatusLine& status) {
  BenchConfig floor_config = config;
  floor_config.idle = std::chrono::milliseconds(0);  // the idle figure is the daemon's
  RelayLauncher relay(RelayLauncher::Floor(o.paths));
  if (absl::Status s = relay.Start(unix_socket, kStartTimeout); !s.ok()) {
    return Failed(floor_config, s);
  }
  absl::StatusOr<platform::SocketAddress> address =
      platform::ParseSocketAddress(relay.client_address(), "floor relay address");
  if (!address.ok()) return Failed(floor_config, address.status());
  const ProcessStats relay_stats(relay.relay_pid());
  const ProcessStats echo_stats(relay.peer_pid());
  BenchResult result;
  {
    EventLoop loop;
    FloorFleet fleet(loop, *address);
    result = Measure(floor_config, loop, fleet, {std::span(&relay_stats, 1), &echo_stats},
                     unix_socket, status);
  }
  StopInto(relay, result);
  return result;
}

// Starts the bridge of `config`: one trestled and the ghost or, with several
// daemons, that many federated trestled sharing config.store under a fresh
// run name, each with its own --daemon-id, the ghost on the first. Fills
// `launchers` in that order; on error, what started is stopped by their
// destructors.
absl::Status StartBridge(BenchCommandOptions& o, const BenchConfig& config, bool unix_socket,
                         std::vector<std::unique_ptr<RelayLauncher>>& launchers) {
  // Room for every app and the ghost: the daemon refuses sessions beyond
  // max_clients. A --trestled-arg given later wins.
  std::vector<std::string> common = {
      "--max-clients", std::to_string(config.nodes + config.stalled_apps + 16)};
  const std::string run = absl::StrFormat("bench-%d-%u", getpid(), ++o.federated_runs);
  for (std::uint32_t d = 0; d < config.daemons; ++d) {
    std::vector<std::string> daemon_args = common;
    if (config.daemons > 1) {
      for (const std::string& a : {std::string("--federate"), std::string("--run"), run,
                                   std::string("--daemon-id"), std::to_string(d + 1)}) {
        daemon_args.push_back(a);
      }
    }
    daemon_args.insert(daemon_args.end(), o.daemon_args.begin(), o.daemon_args.end());
    launchers.push_back(std::make_unique<RelayLauncher>(
        d == 0 ? RelayLauncher::Bridge(o.paths, config.store, config.pull, daemon_args)
               : RelayLauncher::Daemon(o.paths, config.store, daemon_args)));
    if (absl::Status s = launchers.back()->Start(unix_socket, kStartTimeout); !s.ok()) {
      if (config.daemons == 1) return s;
      return absl::Status(s.code(), absl::StrFormat("daemon %u of %u: %s", d + 1, config.daemons,
                                                    s.message()));
    }
  }
  return absl::OkStatus();
}

// Runs one configuration on a bridge of its own (or the given daemons).
BenchResult RunBridge(BenchCommandOptions& o, const BenchConfig& config, bool unix_socket,
                      StatusLine& status) {
  std::vector<ProcessStats> daemon_stats;
  std::optional<ProcessStats> sim_stats;
  std::vector<std::unique_ptr<RelayLauncher>> bridge;
  std::vector<std::string> addresses = o.daemon;
  if (addresses.empty()) {
    if (absl::Status s = StartBridge(o, config, unix_socket, bridge); !s.ok()) {
      return Failed(config, s);
    }
    for (const std::unique_ptr<RelayLauncher>& daemon : bridge) {
      addresses.push_back(daemon->client_address());
      daemon_stats.emplace_back(daemon->relay_pid());
    }
    sim_stats.emplace(bridge.front()->peer_pid());
  } else {
    for (pid_t pid : o.daemon_pids) daemon_stats.emplace_back(pid);
    if (o.sim_pid > 0) sim_stats.emplace(o.sim_pid);
    if (ConnectionsOf(config) / config.daemons > kUnixSocketAboveConnections && !unix_socket) {
      status.Finish(absl::StrFormat(
          "warning: %u TCP connections to one address may run out of loopback ephemeral "
          "ports; pass --daemon unix:PATH",
          ConnectionsOf(config) / config.daemons));
    }
  }
  LoadGenerator::Probes probes;
  probes.daemons = daemon_stats;
  probes.sim = sim_stats ? &*sim_stats : nullptr;
  BenchResult result;
  {
    EventLoop loop;
    BridgeFleet fleet(loop, config, addresses);
    result = Measure(config, loop, fleet, probes, unix_socket, status,
                     config.daemons > 1 ? addresses : std::vector<std::string>{});
  }
  // The daemons without the simulator first, the ghost's daemon last.
  for (auto it = bridge.rbegin(); it != bridge.rend(); ++it) StopInto(**it, result);
  return result;
}

// The bridge's run of `config` and, with --floor, the floor's. Both use the
// same transport: the one the apps reach the daemon by.
BenchRow RunOne(BenchCommandOptions& o, const BenchConfig& config, const std::string& label,
                StatusLine& status) {
  const bool unix_socket = o.daemon.empty() ? UnixSocketFor(o, config)
                                            : o.daemon.front().rfind("unix:", 0) == 0;
  BenchRow row;
  row.bridge = RunBridge(o, config, unix_socket, status);
  if (o.floor) {
    if (status.live()) status.Update(label + ": the floor");
    row.floor = RunFloor(o, config, unix_socket, status);
  }
  return row;
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

  std::uint64_t most = 0;
  for (const BenchConfig& c : configs) {
    if (c.stalled_apps > 0 && c.closed_loop()) {
      throw CLI::ValidationError("--stalled-apps", "needs open-loop runs; --matrix " + o.matrix +
                                                       " has a --rate max run");
    }
    most = std::max(most, DescriptorsFor(c));
  }
  StatusLine status(stderr);
  // Raised before any daemon starts: the daemons inherit the limit.
  const std::uint64_t limit = platform::RaiseOpenFileLimit(most);

  BenchReport report(stdout, o.json,
                     {.stalled = o.base.stalled_apps > 0,
                      .floor = o.floor,
                      .daemons = o.base.daemons > 1});
  if (absl::Status s = report.Open(); !s.ok()) {
    status.Finish("trestle bench: " + std::string(s.message()));
    throw CLI::RuntimeError(1);
  }
  bool all_ok = true;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const std::string label =
        absl::StrFormat("[%u/%u] %s", i + 1, configs.size(), Describe(configs[i], o.floor));
    if (DescriptorsFor(configs[i]) > limit) {
      // This process and the daemon each hold every connection's descriptor.
      status.Finish(absl::StrFormat(
          "%s: skipped: %u apps need %u open files in this process and in the daemon; the "
          "limit is %u and cannot be raised (raising the hard limit needs CAP_SYS_RESOURCE); "
          "--connections 1 needs a third as many",
          label, configs[i].apps(), DescriptorsFor(configs[i]), limit));
      all_ok = false;
      continue;
    }
    std::vector<BenchRow> runs;
    for (std::uint32_t k = 0; k < o.repeat; ++k) {
      const std::string run_label =
          o.repeat > 1 ? absl::StrFormat("%s, run %u/%u", label, k + 1, o.repeat) : label;
      if (status.live()) status.Update(run_label + ": starting");
      runs.push_back(RunOne(o, configs[i], run_label, status));
      if (o.repeat > 1) status.Finish(run_label + ": " + Summarize(runs.back()));
    }
    BenchRow row = CombineRows(runs);
    status.Finish(label + (o.repeat > 1 ? absl::StrFormat(" (median of %u runs)", o.repeat) : "") +
                  ": " + Summarize(row));
    report.Add(row);
    all_ok = all_ok && row.ok();
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
                  "attached) instead of starting one per configuration. Given several times "
                  "(or as a comma list): daemons of one federated bridge, a simulator attached "
                  "to one of them; app i attaches to the (i mod count)th")
      ->type_size(1)
      ->delimiter(',')
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  o->daemons_option =
      sub->add_option("--daemons", o->base.daemons,
                      "Start this many trestled per configuration, federated: one bridge "
                      "sharing the --store (redis://, required above 1) under a fresh --run "
                      "name, --daemon-id 1..N, the ghost on the first; app i attaches to daemon "
                      "(i mod N) + 1")
          ->check(CLI::Range(1u, 64u))
          ->capture_default_str();
  sub->add_option("--peers", o->peers,
                  "any: each message goes to a random other app; across: to a random app on "
                  "another daemon than its sender's (several daemons only)")
      ->check(CLI::IsMember({"any", "across"}))
      ->capture_default_str();
  sub->add_option("--transport", o->transport,
                  "How the apps reach the daemon this command starts: tcp or unix (default: "
                  "tcp, unix above 24,000 connections)")
      ->check(CLI::IsMember({"tcp", "unix"}));
  sub->add_option("--daemon-pid", o->daemon_pids,
                  "With --daemon: its pid, to report its CPU and RSS (else n/a); one per "
                  "--daemon, in the same order")
      ->type_size(1)
      ->delimiter(',')
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  sub->add_option("--sim-pid", o->sim_pid, "With --daemon: the simulator's pid, for its CPU");
  sub->add_option("--store", o->base.store, "Payload store of the started daemon (or "
                                            "daemons, which share it): memory or "
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
                  "After sending, how long to wait for every message to an app that reads to "
                  "arrive; what did not is reported as lost")
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
  sub->add_flag("--floor", o->floor,
               "Also run the same traffic through the floor, a minimal relay of the bridge's "
               "shape (app -> relay -> echo -> relay -> app: separate processes, a length "
               "prefix and nothing else, the same transport, one libuv loop each) and add its "
               "resident and e2e p50/p99 and the bridge's p99 as a multiple of them");
  sub->add_option("--stalled-apps", o->base.stalled_apps,
                  "Add N apps that connect and never read; the others send to them as to any "
                  "peer (a message goes to a stalled app with probability N / (nodes + N - 1)). "
                  "What they are sent is reported as undelivered, not lost. Open loop only")
      ->check(CLI::Range(0u, 1'000'000u))
      ->capture_default_str();
  sub->add_option("--trestled-arg", o->daemon_args,
                  "Pass one more argument to each trestled this command starts (repeatable; "
                  "write --trestled-arg=--flag=value)")
      ->type_size(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  sub->add_option("--trestled", o->paths.trestled, "trestled binary to start")
      ->capture_default_str();
  sub->add_option("--trestle-sim", o->paths.trestle_sim, "trestle-sim binary to start")
      ->capture_default_str();
  sub->callback([o] { RunBench(*o); });
}

}  // namespace trestle::bench
