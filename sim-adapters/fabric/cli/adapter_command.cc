// `trestle-sim fabric --daemon ADDR --topology SPEC ...`: the live adapter.
// Runs a FabricAdapter until SIGINT or SIGTERM, then exits 0; exits 1 on a
// bad flag or spec, when it cannot connect, when its --time-mode disagrees
// with the daemon's, or when the daemon goes away.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "common/text.h"
#include "trestle/adapter/adapter_flags.h"
#include "trestle/adapter/adapter_run.h"
#include "trestle/event_loop.h"
#include "trestle/fabric/fabric_adapter.h"
#include "trestle/fabric/topology_builder.h"

namespace trestle::fabric::cli {
namespace {

constexpr char kGroup[] = "Live adapter (fabric without a subcommand)";
constexpr char kPrefix[] = "trestle-sim fabric";

struct AdapterFlags {
  adapter::ConnectionFlags connection;
  adapter::EndpointAdapterFlags endpoints;
  std::string topology;
  std::string model = "unaware";
  OrderingFlag ordering;
  FlowFlags flow;
  std::string drain_after = "1ms";
  PricingFlags pricing;
  LinkFlags links;
};

FabricAdapterOptions ResolveOptions(const AdapterFlags& flags) {
  PricingFlags::Resolved pricing = OrFail(flags.pricing.Resolve());
  adapter::SimAdapterOptions base;
  base.name = "fabric";
  base.seed = pricing.seed;
  FabricAdapterOptions options;
  options.adapter = OrFail(flags.endpoints.Resolve(base));
  options.model = OrFail(ParseNetworkModelKind(flags.model));
  options.pricing = NetworkModelOptions{pricing.routing, pricing.seed, pricing.endpoint_delay,
                                        OrFail(flags.flow.Resolve())};
  options.pricing.ordering = OrFail(flags.ordering.Resolve());
  const Duration drain = OrFail(Duration::Parse(flags.drain_after));
  if (drain.ns() < 0 || drain.ns() > 60e9) {
    Fail(absl::InvalidArgumentError(internal::Concat(
        "--drain-after '", flags.drain_after, "': must be between 0 and 60s")));
  }
  options.drain_after = std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(drain.ns() / 1e6)));
  return options;
}

// What the flow model does with time in this run, for the start-up line.
std::string FlowModelNote(const AdapterFlags& flags, const FabricAdapterOptions& options,
                          wire::TimeMode mode) {
  if (options.model != NetworkModelKind::kFlow) return "";
  std::string note = internal::Concat("; flow model, congestion control ", flags.flow.cc, ", ",
                                      options.pricing.flow.classes.Describe());
  if (mode == wire::TIME_MODE_VIRTUAL || mode == wire::TIME_MODE_PACED ||
      mode == wire::TIME_MODE_WALLCLOCK) {
    note += internal::Concat(
        "; transits taken in arrival order (causal only in lockstep time): each advances the "
        "model to its t_send, and what is in flight completes after ",
        flags.drain_after, " without transits");
  }
  return note;
}

void RunFabricAdapter(const AdapterFlags& flags) {
  const FabricAdapterOptions options = ResolveOptions(flags);
  TopologyPtr topology =
      OrFail(TopologyBuilder::FromText(flags.topology, OrFail(flags.links.Resolve())));
  const std::uint32_t endpoints = topology->EndpointCount();
  adapter::EndpointMap map = OrFail(flags.endpoints.LoadMap(endpoints));
  const ClientOptions client = flags.connection.Resolve();

  EventLoop loop;
  FabricAdapter fabric(loop, client, *topology, std::move(map), options);
  adapter::AdapterRun run = adapter::RunAdapter(loop, fabric.adapter(), kPrefix, [&] {
    const wire::TimeMode mode = fabric.adapter().time_mode();
    const std::string pacing =
        mode == wire::TIME_MODE_PACED ? internal::Concat(" x", options.adapter.dilation) : "";
    std::fprintf(
        stderr,
        "%s: \"%s\" connected to %s (%s): %s, %u endpoints, %s routing, %s ordering, "
        "%s time%s, endpoints %s%s\n",
        kPrefix, client.client_id.c_str(), client.daemon.c_str(),
        flags.connection.pull ? "pull" : "push", topology->Name().c_str(), endpoints,
        flags.pricing.routing.c_str(), flags.ordering.ordering.c_str(),
        std::string(wire::TimeModeName(mode)).c_str(),
        pacing.c_str(),
        flags.endpoints.MapDescription().c_str(),
        FlowModelNote(flags, options, mode).c_str());
  });
  if (!run.started.ok()) Fail(run.started);
  if (run.lost) throw CLI::RuntimeError(1);
  const adapter::AdapterCounters& counters = run.counters;
  std::fprintf(
      stderr,
      "%s: stopped after %llu transits: %llu delivered, %llu dropped "
      "(loss), %llu dropped (no endpoint), %zu held discarded%s%s\n",
      kPrefix, static_cast<unsigned long long>(counters.transits),
      static_cast<unsigned long long>(counters.delivered),
      static_cast<unsigned long long>(counters.dropped_by_loss),
      static_cast<unsigned long long>(counters.dropped_unmapped), run.held_discarded,
      run.closed.ok() ? "" : "; close: ", run.closed.ok() ? "" : run.closed.ToString().c_str());
}

}  // namespace

void AddAdapterOptions(CLI::App* fabric) {
  // Owned by the callback, which CLI11 keeps alive with the app.
  auto flags = std::make_shared<AdapterFlags>();
  flags->connection.AddTo(fabric, "fabric", "", kGroup);
  fabric->add_option("--topology", flags->topology, "topology spec or YAML file")->group(kGroup);
  fabric->add_option("--model", flags->model,
                     "unaware (each message alone on an idle network) or flow (messages in "
                     "flight share links)")
      ->capture_default_str()
      ->group(kGroup);
  flags->ordering.AddTo(fabric, kGroup);
  flags->flow.AddTo(fabric, kGroup);
  fabric->add_option("--drain-after", flags->drain_after,
                     "flow model, virtual/paced/wallclock time: run what is in flight to "
                     "completion after this long without a transit")
      ->capture_default_str()
      ->group(kGroup);
  flags->endpoints.AddTo(fabric, kGroup);
  flags->pricing.AddTo(fabric,
                       "per-message endpoint overhead added to every modelled time, e.g. 10ns");
  flags->links.AddTo(fabric);
  for (const char* name :
       {"--routing", "--seed", "--endpoint-delay", "--link-bw", "--link-latency"}) {
    fabric->get_option(name)->group(kGroup);
  }
  fabric->footer(
      "Without a subcommand, fabric runs the live adapter: it connects to trestled as a "
      "simulator, prices every message with the model and runs until SIGINT or SIGTERM, in "
      "the daemon's time mode. --daemon and --topology are required then. See docs/fabric.md, "
      "\"Live adapter\".");
  fabric->callback([fabric, flags] {
    if (!fabric->get_subcommands().empty()) return;  // describe ran instead
    if (flags->connection.client.daemon.empty() || flags->topology.empty()) {
      Fail(absl::InvalidArgumentError(
          "fabric: the live adapter needs --daemon ADDR and --topology SPEC (or use a "
          "subcommand: fabric describe --topology SPEC; see --help)"));
    }
    RunFabricAdapter(*flags);
  });
}

}  // namespace trestle::fabric::cli
