#include "bench_command_options.h"

#include <chrono>
#include <optional>
#include <string>

#include "absl/strings/str_format.h"
#include "bench_matrix.h"
#include "trestle/platform/socket_address.h"

namespace trestle::bench {
namespace {

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

}  // namespace

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
  c.peers = o.peers == "across"   ? PeerChoice::kAcross
            : o.peers == "within" ? PeerChoice::kWithin
                                  : PeerChoice::kAny;
  if (c.peers == PeerChoice::kAcross && c.daemons < 2) {
    throw CLI::ValidationError("--peers", "across needs several daemons (--daemons N, or "
                                          "--daemon given several times)");
  }
  if (c.peers == PeerChoice::kWithin && c.nodes < 2 * c.daemons) {
    throw CLI::ValidationError(
        "--peers", absl::StrFormat("within needs at least two sending apps on each daemon: "
                                   "--nodes %u over %u daemons",
                                   c.nodes, c.daemons));
  }
  c.simulators = o.simulators == "each" ? SimulatorPlacement::kEach : SimulatorPlacement::kFirst;
  if (c.simulators == SimulatorPlacement::kEach && !o.daemon.empty()) {
    throw CLI::ValidationError("--simulators",
                               "each starts a ghost for every daemon this command starts; "
                               "with --daemon it starts no daemon and no simulator");
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

}  // namespace trestle::bench
