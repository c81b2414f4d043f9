// `trestle-sim ns3 --daemon ADDR (--topology SPEC | --scenario wifi-adhoc:N)`:
// the live ns-3 adapter. Runs an Ns3TransitHandler on SimAdapter until SIGINT
// or SIGTERM, then prints what it did and exits 0; exits 1 on a bad flag,
// when it cannot connect, when --time-mode is not the daemon's mode, or when
// the daemon goes away.
#include "trestle/ns3/ns3_command.h"

#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "cli/commands.h"
#include "cli/network_flags.h"
#include "cli/sweep_backend.h"
#include "cli/validate_command.h"
#include "trestle/adapter/adapter_flags.h"
#include "trestle/adapter/adapter_run.h"
#include "trestle/event_loop.h"
#include "trestle/fabric/topology_builder.h"
#include "trestle/ns3/ns3_network.h"
#include "trestle/ns3/ns3_transit_handler.h"

namespace trestle::ns3_adapter {
namespace cli {
namespace {

using fabric::cli::Fail;
using fabric::cli::OrFail;

constexpr char kPrefix[] = "trestle-sim ns3";
constexpr char kGroup[] = "Network";
constexpr char kWifiGroup[] = "wifi-adhoc scenario";

struct AdapterFlags {
  adapter::ConnectionFlags connection;
  adapter::EndpointAdapterFlags endpoints;
  std::string topology;
  std::string scenario;
  fabric::cli::LinkFlags links;
  NetworkFlags network;
  std::string endpoint_delay = "0ns";
  std::uint64_t seed = 1;
  std::string warmup;  // "": 10 s with OLSR, else 0
  std::string wifi_routing = "aodv";
  std::string mobility = "constant";
  std::string area = "100x100";
  double min_speed = 1;
  double max_speed = 5;
  std::string pause = "0s";
  std::uint64_t max_events = 10'000;
  fabric::cli::OrderingFlag ordering;
  bool describe = false;
};

absl::StatusOr<WifiAdhocOptions> ResolveScenario(const AdapterFlags& flags) {
  WifiAdhocOptions scenario;
  absl::StatusOr<std::uint32_t> nodes = WifiAdhocOptions::ParseScenario(flags.scenario);
  if (!nodes.ok()) return nodes.status();
  scenario.nodes = *nodes;
  absl::StatusOr<WifiRouting> routing = ParseWifiRouting(flags.wifi_routing);
  if (!routing.ok()) return routing.status();
  scenario.routing = *routing;
  absl::StatusOr<Mobility> mobility = ParseMobility(flags.mobility);
  if (!mobility.ok()) return mobility.status();
  scenario.mobility = *mobility;
  std::vector<std::string> sides = absl::StrSplit(flags.area, 'x');
  if (sides.size() != 2 || !absl::SimpleAtod(sides[0], &scenario.width_m) ||
      !absl::SimpleAtod(sides[1], &scenario.height_m)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--area: '", flags.area, "' is not WIDTHxHEIGHT in metres (e.g. 200x100)"));
  }
  scenario.min_speed_mps = flags.min_speed;
  scenario.max_speed_mps = flags.max_speed;
  absl::StatusOr<std::uint64_t> pause = ParseDurationNs(flags.pause, "--pause");
  if (!pause.ok()) return pause.status();
  scenario.pause_ns = *pause;
  if (absl::Status s = scenario.Validate(); !s.ok()) return s;
  return scenario;
}

absl::StatusOr<Ns3NetworkOptions> ResolveNetwork(const AdapterFlags& flags, bool olsr) {
  Ns3NetworkOptions base;
  base.seed = flags.seed;
  absl::StatusOr<std::uint64_t> delay = ParseDurationNs(flags.endpoint_delay, "--endpoint-delay");
  if (!delay.ok()) return delay.status();
  base.endpoint_delay_ns = *delay;
  absl::StatusOr<std::uint64_t> warmup =
      ParseDurationNs(flags.warmup.empty() ? (olsr ? "10s" : "0s") : flags.warmup, "--warmup");
  if (!warmup.ok()) return warmup.status();
  base.warmup_ns = *warmup;
  return flags.network.Resolve(base);
}

// The network the flags describe; exactly one of --topology and --scenario.
std::unique_ptr<Ns3Network> BuildNetwork(const AdapterFlags& flags) {
  if (flags.topology.empty() == flags.scenario.empty()) {
    Fail(absl::InvalidArgumentError(
        "ns3: give exactly one of --topology SPEC (a wired network) and --scenario "
        "wifi-adhoc:N"));
  }
  if (!flags.topology.empty()) {
    const Ns3NetworkOptions options = OrFail(ResolveNetwork(flags, false));
    fabric::TopologyPtr topology =
        OrFail(fabric::TopologyBuilder::FromText(flags.topology, OrFail(flags.links.Resolve())));
    return OrFail(Ns3Network::BuildWired(*topology, options));
  }
  const WifiAdhocOptions scenario = OrFail(ResolveScenario(flags));
  const Ns3NetworkOptions options =
      OrFail(ResolveNetwork(flags, scenario.routing == WifiRouting::kOlsr));
  return OrFail(Ns3Network::BuildWifiAdhoc(scenario, options));
}

// --describe: builds the network, says what it built and how fast, and exits.
void Describe(const AdapterFlags& flags) {
  std::unique_ptr<Ns3Network> network = BuildNetwork(flags);
  std::printf("network      %s\n", network->description().c_str());
  std::printf("endpoints    %u of %u nodes\n", network->endpoint_count(), network->node_count());
  std::printf("links        %u\n", network->link_count());
  std::printf("min latency  %llu ns between endpoints (before --endpoint-delay)\n",
              static_cast<unsigned long long>(network->min_transfer_ns()));
  std::printf("built in     %.3f s\n", network->build_seconds());
}

void RunNs3Adapter(const AdapterFlags& flags) {
  adapter::SimAdapterOptions base;
  base.name = "ns3";
  base.seed = flags.seed;
  base.pace = false;  // the handler runs ns-3 behind the wall clock itself
  const adapter::SimAdapterOptions adapter_options = OrFail(flags.endpoints.Resolve(base));
  std::unique_ptr<Ns3Network> network = BuildNetwork(flags);
  adapter::EndpointMap map = OrFail(flags.endpoints.LoadMap(network->endpoint_count()));
  const ClientOptions client = flags.connection.Resolve();

  EventLoop loop;
  Ns3TransitHandler handler(loop, *network,
                            Ns3HandlerOptions{adapter_options.dilation, flags.max_events,
                                              OrFail(flags.ordering.Resolve())});
  adapter::SimAdapter sim(loop, client, adapter_options, handler, std::move(map));
  adapter::AdapterRun run = adapter::RunAdapter(loop, sim, kPrefix, [&] {
    const wire::TimeMode mode = sim.time_mode();
    std::fprintf(stderr,
                 "%s: \"%s\" connected to %s (%s): %s, %u endpoints, %s time%s, endpoints %s; "
                 "built in %.2f s\n",
                 kPrefix, client.client_id.c_str(), client.daemon.c_str(),
                 flags.connection.pull ? "pull" : "push", network->description().c_str(),
                 network->endpoint_count(), std::string(wire::TimeModeName(mode)).c_str(),
                 mode == wire::TIME_MODE_PACED
                     ? absl::StrCat(" x", adapter_options.dilation).c_str()
                     : "",
                 flags.endpoints.MapDescription().c_str(),
                 network->build_seconds());
  });
  if (!run.started.ok()) Fail(run.started);
  if (run.lost) throw CLI::RuntimeError(1);
  const adapter::AdapterCounters& counters = run.counters;
  const Ns3HandlerStats stats = handler.stats();
  std::fprintf(
      stderr,
      "%s: stopped after %llu transits: %llu delivered, %llu dropped (network), %llu dropped "
      "(loss), %llu dropped (no endpoint), %llu in flight, %llu started late; ns-3 ran %llu "
      "events to %.6f s%s%s\n",
      kPrefix, static_cast<unsigned long long>(counters.transits),
      static_cast<unsigned long long>(counters.delivered),
      static_cast<unsigned long long>(counters.dropped_by_model),
      static_cast<unsigned long long>(counters.dropped_by_loss),
      static_cast<unsigned long long>(counters.dropped_unmapped),
      static_cast<unsigned long long>(stats.in_flight + stats.waiting),
      static_cast<unsigned long long>(stats.late_transits),
      static_cast<unsigned long long>(stats.events), static_cast<double>(stats.now_ns) / 1e9,
      run.closed.ok() ? "" : "; close: ", run.closed.ok() ? "" : run.closed.ToString().c_str());
}

void AddFlags(CLI::App* ns3, AdapterFlags& flags) {
  flags.connection.AddTo(ns3, "ns3", "", "");
  ns3->add_option("--topology", flags.topology,
                  "wired network: a topology spec or YAML file, as for the fabric model "
                  "(e.g. ring:8,link_bw=400Gbps,link_latency=500ns)")
      ->group(kGroup);
  ns3->add_option("--scenario", flags.scenario, "wireless network: wifi-adhoc:N")->group(kGroup);
  flags.links.AddTo(ns3);
  flags.network.AddTo(ns3, kGroup);
  for (const char* name : {"--link-bw", "--link-latency"}) ns3->get_option(name)->group(kGroup);
  ns3->add_option("--endpoint-delay", flags.endpoint_delay,
                  "per-message endpoint overhead: the network gets a message this long after "
                  "its t_send")
      ->capture_default_str()
      ->group(kGroup);
  ns3->add_option("--seed", flags.seed, "seed of ns-3's random streams and of --loss-rate")
      ->capture_default_str()
      ->group(kGroup);
  ns3->add_option("--warmup", flags.warmup,
                  "simulated time before time zero, for routing to settle (default: 10s with "
                  "olsr, else 0s)")
      ->group(kGroup);
  ns3->add_option("--max-events", flags.max_events,
                  "ns-3 events per slice between two turns of the daemon connection")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->group(kGroup);
  flags.ordering.AddTo(ns3, kGroup);
  ns3->add_option("--wifi-routing", flags.wifi_routing, "aodv or olsr")
      ->capture_default_str()
      ->group(kWifiGroup);
  ns3->add_option("--mobility", flags.mobility,
                  "constant (a grid filling the area) or random-waypoint")
      ->capture_default_str()
      ->group(kWifiGroup);
  ns3->add_option("--area", flags.area, "WIDTHxHEIGHT in metres")
      ->capture_default_str()
      ->group(kWifiGroup);
  ns3->add_option("--min-speed", flags.min_speed, "random-waypoint: slowest speed, m/s")
      ->capture_default_str()
      ->group(kWifiGroup);
  ns3->add_option("--max-speed", flags.max_speed, "random-waypoint: fastest speed, m/s")
      ->capture_default_str()
      ->group(kWifiGroup);
  ns3->add_option("--pause", flags.pause, "random-waypoint: pause at each waypoint")
      ->capture_default_str()
      ->group(kWifiGroup);
  flags.endpoints.AddTo(ns3, "Time and endpoints");
  ns3->add_flag("--describe", flags.describe,
                "build the network, print its size and build time, and exit (no --daemon)");
}

}  // namespace
}  // namespace cli

void RegisterNs3Commands(CLI::App& app) {
  // Owned by the callback, which CLI11 keeps alive with the app.
  auto flags = std::make_shared<cli::AdapterFlags>();
  CLI::App* ns3 = app.add_subcommand(
      "ns3",
      "ns-3 packet-level simulator: run the live adapter (--daemon ADDR and --topology SPEC or "
      "--scenario wifi-adhoc:N)");
  cli::AddFlags(ns3, *flags);
  ns3->footer(
      "Each message becomes a TCP (or UDP) transfer through the ns-3 network, from the sender's "
      "endpoint to the receiver's; its outcome is posted when the last byte arrives, at the "
      "ns-3 time. Runs in the daemon's time mode until SIGINT or SIGTERM. See "
      "sim-adapters/ns3/README.md and docs/validation.md.");
  ns3->callback([flags] {
    if (flags->describe) {
      cli::Describe(*flags);
      return;
    }
    if (flags->connection.client.daemon.empty()) {
      cli::Fail(absl::InvalidArgumentError("ns3: the live adapter needs --daemon ADDR"));
    }
    cli::RunNs3Adapter(*flags);
  });
  cli::RegisterSweepBackend(app);
  cli::RegisterValidateCommand(app);
}

}  // namespace trestle::ns3_adapter
