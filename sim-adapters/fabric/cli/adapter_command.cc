// `trestle-sim fabric --daemon ADDR --topology SPEC ...`: the live adapter.
// Runs a FabricAdapter until SIGINT or SIGTERM, then exits 0; exits 1 on a
// bad flag or spec, when it cannot connect, or when the daemon goes away.
#include <csignal>
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "common/text.h"
#include "trestle/event_loop.h"
#include "trestle/fabric/endpoint_map.h"
#include "trestle/fabric/fabric_adapter.h"
#include "trestle/fabric/time_mode.h"
#include "trestle/fabric/topology_builder.h"

namespace trestle::fabric::cli {
namespace {

constexpr char kGroup[] = "Live adapter (fabric without a subcommand)";

struct AdapterFlags {
  ClientOptions client;
  std::string topology;
  std::string map;
  std::string time = "virtual";
  double dilation = 1.0;
  double loss_rate = 0.0;
  bool pull = false;
  PricingFlags pricing;
  LinkFlags links;
};

FabricAdapterOptions ResolveOptions(const AdapterFlags& flags) {
  PricingFlags::Resolved pricing = OrFail(flags.pricing.Resolve());
  FabricAdapterOptions options;
  options.time_mode = OrFail(ParseTimeMode(flags.time));
  options.dilation = flags.dilation;
  options.routing = pricing.routing;
  options.seed = pricing.seed;
  options.loss_rate = flags.loss_rate;
  options.endpoint_delay = pricing.endpoint_delay;
  if (absl::Status s = options.Validate(); !s.ok()) Fail(s);
  return options;
}

void RunAdapter(const AdapterFlags& flags) {
  const FabricAdapterOptions options = ResolveOptions(flags);
  TopologyPtr topology = OrFail(TopologyBuilder::FromText(flags.topology, OrFail(flags.links.Resolve())));
  const std::uint32_t endpoints = topology->EndpointCount();
  EndpointMap map = flags.map.empty() ? EndpointMap(endpoints)
                                      : OrFail(EndpointMap::FromFile(flags.map, endpoints));
  ClientOptions client = flags.client;
  client.mode = flags.pull ? DeliveryMode::kPull : DeliveryMode::kPush;

  EventLoop loop;
  loop.StopOnSignal(SIGINT);
  loop.StopOnSignal(SIGTERM);
  FabricAdapter adapter(loop, client, *topology, std::move(map), options);
  bool lost = false;
  adapter.client().OnError([&](const absl::Status& status) {
    std::fprintf(stderr, "trestle-sim fabric: %s\n", status.ToString().c_str());
    if (status.code() == absl::StatusCode::kUnavailable && !adapter.client().connected()) {
      lost = true;
      loop.Stop();
    }
  });
  if (absl::Status s = adapter.Start(); !s.ok()) Fail(s);
  const std::string pacing =
      options.time_mode == TimeMode::kPaced ? internal::Concat(" x", options.dilation) : "";
  std::fprintf(stderr,
               "trestle-sim fabric: \"%s\" connected to %s (%s): %s, %u endpoints, %s routing, "
               "%s time%s, endpoints %s\n",
               client.client_id.c_str(), client.daemon.c_str(), flags.pull ? "pull" : "push",
               topology->Name().c_str(), endpoints, flags.pricing.routing.c_str(),
               flags.time.c_str(), pacing.c_str(),
               flags.map.empty() ? "in order of first appearance" : flags.map.c_str());
  loop.Run();
  if (lost) throw CLI::RuntimeError(1);
  const FabricAdapterCounters counters = adapter.counters();
  const std::size_t held = adapter.held();
  absl::Status closed = adapter.Stop(std::chrono::milliseconds(2000));
  std::fprintf(stderr,
               "trestle-sim fabric: stopped after %llu transits: %llu delivered, %llu dropped "
               "(loss), %llu dropped (no endpoint), %zu held discarded%s%s\n",
               static_cast<unsigned long long>(counters.transits),
               static_cast<unsigned long long>(counters.delivered),
               static_cast<unsigned long long>(counters.dropped_by_loss),
               static_cast<unsigned long long>(counters.dropped_unmapped), held,
               closed.ok() ? "" : "; close: ", closed.ok() ? "" : closed.ToString().c_str());
}

}  // namespace

void AddAdapterOptions(CLI::App* fabric) {
  // Owned by the callback, which CLI11 keeps alive with the app.
  auto flags = std::make_shared<AdapterFlags>();
  flags->client.client_id = "fabric";
  flags->client.daemon.clear();
  fabric->add_option("--daemon", flags->client.daemon, "daemon address, HOST:PORT or unix:PATH")
      ->group(kGroup);
  fabric->add_option("--topology", flags->topology, "topology spec or YAML file")->group(kGroup);
  fabric->add_option("--map", flags->map,
                     "YAML file of 'client-id: endpoint' lines (default: endpoints in order of "
                     "first appearance)")
      ->group(kGroup);
  fabric->add_option("--time", flags->time, "virtual, paced or wallclock")
      ->capture_default_str()
      ->group(kGroup);
  fabric->add_option("--dilation", flags->dilation,
                     "paced: wall seconds per virtual second (outcome at start + t_deliver x X)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->group(kGroup);
  fabric->add_option("--loss-rate", flags->loss_rate,
                     "drop each message with probability P (0..1, seeded), reported as DROPPED")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0))
      ->group(kGroup);
  fabric->add_flag("--pull", flags->pull, "fetch transits (long-poll) instead of having them pushed")
      ->group(kGroup);
  fabric->add_option("--id", flags->client.client_id, "simulator name (client id)")
      ->capture_default_str()
      ->group(kGroup);
  fabric->add_option("--token", flags->client.auth_token, "auth token (default: $TRESTLE_TOKEN)")
      ->group(kGroup);
  flags->pricing.AddTo(fabric, "per-message endpoint overhead added to every modelled time, e.g. 10ns");
  flags->links.AddTo(fabric);
  for (const char* name : {"--routing", "--seed", "--endpoint-delay", "--link-bw", "--link-latency"}) {
    fabric->get_option(name)->group(kGroup);
  }
  fabric->footer(
      "Without a subcommand, fabric runs the live adapter: it connects to trestled as a "
      "simulator, prices every message with the model and runs until SIGINT or SIGTERM. "
      "--daemon and --topology are required then. See docs/fabric.md, \"Live adapter\".");
  fabric->callback([fabric, flags] {
    if (!fabric->get_subcommands().empty()) return;  // describe ran instead
    if (flags->client.daemon.empty() || flags->topology.empty()) {
      Fail(absl::InvalidArgumentError(
          "fabric: the live adapter needs --daemon ADDR and --topology SPEC (or use a "
          "subcommand: fabric describe --topology SPEC; see --help)"));
    }
    RunAdapter(*flags);
  });
}

}  // namespace trestle::fabric::cli
