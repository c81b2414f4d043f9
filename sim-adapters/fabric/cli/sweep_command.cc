// `trestle-sim sweep --backend fabric ...`: collective sweeps, offline.
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.h"
#include "cli/gnuplot_plotter.h"
#include "cli/sweep_report.h"
#include "trestle/fabric/byte_size.h"
#include "trestle/fabric/cli.h"
#include "trestle/fabric/collective_schedule.h"
#include "trestle/fabric/collective_sweep.h"
#include "trestle/fabric/topology_builder.h"
#include "common/text.h"

namespace trestle::fabric {
namespace cli {
namespace {

// --backend NAME -> how it prices a schedule; "fabric" is this library's.
std::map<std::string, SweepBackend>& Backends() {
  static std::map<std::string, SweepBackend> backends = {{"fabric", &CollectiveSweep::Run}};
  return backends;
}

struct SweepFlags {
  std::string backend;
  std::string model = "unaware";
  std::string timing = "dataflow";
  OrderingFlag ordering;
  FlowFlags flow;
  std::vector<std::string> topologies;
  std::string collective;
  std::vector<std::string> algorithms;
  std::string sizes;
  std::uint32_t chunks = 1;
  std::string reduce_bw;
  PricingFlags pricing;
  std::uint32_t ranks = 0;
  std::string csv;
  std::string plot;
  LinkFlags links;
};

void Sweep(const SweepFlags& flags) {
  const auto backend = Backends().find(flags.backend);
  if (backend == Backends().end()) {
    std::vector<std::string> names;
    for (const auto& [name, run] : Backends()) names.push_back(name);
    Fail(absl::InvalidArgumentError(internal::Concat(
        "unknown backend '", flags.backend, "' (this build has: ", internal::Join(names, ", "), ")")));
  }
  FabricParams defaults = OrFail(flags.links.Resolve());
  Collective collective = OrFail(ParseCollective(flags.collective));
  std::vector<CollectiveAlgorithm> algorithms;
  for (const std::string& a : flags.algorithms) {
    algorithms.push_back(OrFail(ParseCollectiveAlgorithm(a)));
  }
  std::vector<std::uint64_t> sizes;
  for (ByteSize s : OrFail(ByteSize::ParseList(flags.sizes))) sizes.push_back(s.bytes());
  PricingFlags::Resolved pricing = OrFail(flags.pricing.Resolve());
  SweepOptions options;
  options.endpoint_delay = pricing.endpoint_delay;
  if (!flags.reduce_bw.empty()) options.reduce_bandwidth = OrFail(Bandwidth::Parse(flags.reduce_bw));
  options.chunks = flags.chunks;
  options.routing = pricing.routing;
  options.seed = pricing.seed;
  options.model = OrFail(ParseNetworkModelKind(flags.model));
  options.timing = OrFail(ParseSweepTiming(flags.timing));
  options.ordering = OrFail(flags.ordering.Resolve());
  options.flow = OrFail(flags.flow.Resolve());

  SweepReport report;
  for (const std::string& spec : flags.topologies) {
    TopologyPtr topology = OrFail(TopologyBuilder::FromText(spec, defaults));
    std::uint32_t ranks = flags.ranks > 0 ? flags.ranks : topology->EndpointCount();
    for (CollectiveAlgorithm algorithm : algorithms) {
      CollectiveSchedule schedule = OrFail(CollectiveSchedule::Build(collective, algorithm, ranks));
      std::vector<double> times = OrFail(backend->second(*topology, schedule, sizes, options));
      for (std::size_t i = 0; i < sizes.size(); ++i) {
        report.Add({flags.backend, spec, std::string(CollectiveAlgorithmName(algorithm)),
                    std::string(CollectiveName(collective)), sizes[i], times[i]});
      }
    }
  }
  report.PrintTable(stdout);
  if (!flags.csv.empty()) {
    if (absl::Status s = report.WriteCsv(flags.csv); !s.ok()) Fail(s);
    std::printf("wrote %s\n", flags.csv.c_str());
  }
  if (!flags.plot.empty()) {
    std::vector<std::string> details = {std::string(CollectiveName(collective)),
                                        internal::Concat(flags.pricing.routing, " routing")};
    if (!flags.links.link_bw.empty()) details.push_back(flags.links.link_bw);
    if (!flags.links.link_latency.empty()) details.push_back(flags.links.link_latency);
    if (flags.chunks > 1) details.push_back(internal::Concat(flags.chunks, " chunks"));
    if (options.model != NetworkModelKind::kUnaware) details.push_back(flags.model + " model");
    if (options.timing != SweepTiming::kDataflow) details.push_back(flags.timing);
    std::string title =
        internal::Concat("Trestle ", flags.backend == "fabric" ? "fabric model" : flags.backend,
                         ": ", internal::Join(details, ", "));
    if (absl::Status s = GnuplotPlotter().Plot(report, title, flags.plot); !s.ok()) Fail(s);
    std::printf("wrote %s\n", flags.plot.c_str());
  }
}

}  // namespace

void RegisterSweepCommand(CLI::App* app) {
  auto flags = std::make_shared<SweepFlags>();
  CLI::App* sweep = app->add_subcommand("sweep", "price collectives offline over topologies");
  sweep->add_option("--backend", flags->backend,
                    "model to use: fabric, or ns3 when trestle-sim is built with ns-3")
      ->required();
  sweep->add_option("--model", flags->model,
                    "fabric backend: unaware (each message alone on an idle network) or flow "
                    "(messages in flight share links)")
      ->capture_default_str();
  sweep->add_option("--timing", flags->timing,
                    "dataflow (each rank sends its next message once the one it waits for has "
                    "arrived, as live ranks do) or bulk-synchronous (each step starts when the "
                    "previous step's slowest message has arrived)")
      ->capture_default_str();
  flags->ordering.AddTo(sweep, "Options");
  flags->flow.AddTo(sweep, "Options");
  sweep->add_option("--topology", flags->topologies, "topology spec or YAML file (repeatable)")
      ->required();
  sweep->add_option("--collective", flags->collective,
                    "allreduce, allgather, reducescatter or alltoall")
      ->required();
  sweep->add_option("--algorithm", flags->algorithms,
                    "ring, halving-doubling or direct (repeatable)")
      ->required();
  sweep->add_option("--sizes", flags->sizes, "comma-separated sizes, e.g. 16KiB,64KiB,1MiB")
      ->required();
  sweep->add_option("--chunks", flags->chunks, "run the collective in C chunks, one after another")
      ->check(CLI::PositiveNumber);
  sweep->add_option("--reduce-bw", flags->reduce_bw,
                    "reduction throughput, e.g. 1600GBps (default: reductions are free)");
  sweep->add_option("--ranks", flags->ranks,
                    "ranks on endpoints 0..N-1 (default: every endpoint)");
  sweep->add_option("--csv", flags->csv, "also write the rows to this CSV file");
  sweep->add_option("--plot", flags->plot, "also draw time against size to this PNG (gnuplot)");
  flags->pricing.AddTo(sweep, "per-message endpoint overhead, paid every step, e.g. 10ns");
  flags->links.AddTo(sweep);
  sweep->callback([flags] { Sweep(*flags); });
}

}  // namespace cli

void RegisterSweepBackend(const std::string& name, SweepBackend backend) {
  cli::Backends()[name] = std::move(backend);
}

}  // namespace trestle::fabric
