#include "bench_run.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
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

std::string Describe(const BenchConfig& c, bool floor) {
  return absl::StrFormat(
      "nodes %u%s, %s, %s%s, %s store%s, %g s%s", c.nodes,
      c.stalled_apps > 0 ? absl::StrFormat(" + %u stalled", c.stalled_apps) : "",
      c.closed_loop() ? absl::StrFormat("max rate (window %u)", c.window)
                      : absl::StrFormat("%g msg/s", c.rate),
      c.pull ? "pull" : "push", c.connections == 1 ? " (1 connection)" : "", c.store,
      c.daemons > 1 ? absl::StrFormat(", %u daemons (%s%s)", c.daemons,
                                      c.simulators == SimulatorPlacement::kEach
                                          ? "a ghost each"
                                          : "the ghost on the first",
                                      c.peers == PeerChoice::kAny
                                          ? ""
                                          : absl::StrCat(", peers ", PeerChoiceName(c.peers)))
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
    text += absl::StrFormat(
        "; %u across daemons; measured: stayed on one daemon %.0f msg/s (e2e p50 %.1f us), "
        "crossed %.0f msg/s (e2e p50 %.1f us)",
        r.sent_across, r.stayed.throughput, r.stayed.e2e.p50_us, r.crossed.throughput,
        r.crossed.e2e.p50_us);
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
    result = Measure(floor_config, loop, fleet,
                     {std::span(&relay_stats, 1), std::span(&echo_stats, 1)}, unix_socket,
                     status);
  }
  StopInto(relay, result);
  return result;
}

// The client id of daemon `d`'s ghost: a federated bridge refuses two SIM
// clients of one id.
std::string GhostId(std::uint32_t d) {
  return d == 0 ? std::string("bench-ghost") : absl::StrCat("bench-ghost-", d + 1);
}

// Starts the bridge of `config`: one trestled and the ghost or, with several
// daemons, that many federated trestled sharing config.store under a fresh
// run name, each with its own --daemon-id, a ghost on the first or on each
// (BenchConfig::StartsSimulatorOn). Fills `launchers` in that order; on
// error, what started is stopped by their destructors.
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
        config.StartsSimulatorOn(d)
            ? RelayLauncher::Bridge(o.paths, config.store, config.pull, daemon_args, GhostId(d))
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
  std::vector<ProcessStats> sim_stats;
  std::vector<std::unique_ptr<RelayLauncher>> bridge;
  std::vector<std::string> addresses = o.daemon;
  if (addresses.empty()) {
    if (absl::Status s = StartBridge(o, config, unix_socket, bridge); !s.ok()) {
      return Failed(config, s);
    }
    for (std::uint32_t d = 0; d < bridge.size(); ++d) {
      addresses.push_back(bridge[d]->client_address());
      daemon_stats.emplace_back(bridge[d]->relay_pid());
      if (config.StartsSimulatorOn(d)) sim_stats.emplace_back(bridge[d]->peer_pid());
    }
  } else {
    for (pid_t pid : o.daemon_pids) daemon_stats.emplace_back(pid);
    if (o.sim_pid > 0) sim_stats.emplace_back(o.sim_pid);
    if (ConnectionsOf(config) / config.daemons > kUnixSocketAboveConnections && !unix_socket) {
      status.Finish(absl::StrFormat(
          "warning: %u TCP connections to one address may run out of loopback ephemeral "
          "ports; pass --daemon unix:PATH",
          ConnectionsOf(config) / config.daemons));
    }
  }
  LoadGenerator::Probes probes;
  probes.daemons = daemon_stats;
  probes.sims = sim_stats;
  BenchResult result;
  {
    EventLoop loop;
    BridgeFleet fleet(loop, config, addresses);
    result = Measure(config, loop, fleet, probes, unix_socket, status,
                     config.daemons > 1 ? addresses : std::vector<std::string>{});
  }
  // In reverse: with one ghost, the daemons without a simulator first, the
  // ghost's daemon last.
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
}  // namespace

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

}  // namespace trestle::bench
