// `trestle-sim congestion`: how much an aggressor job slows a victim job, in
// the flow model (CongestionExperiment); one run, or with --sweep the grid of
// victims × aggressors × allocations × congestion control, with a CSV file
// and a heat map.
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/congestion_report.h"
#include "cli/heat_map_plotter.h"
#include "common/text.h"
#include "trestle/fabric/byte_size.h"
#include "trestle/fabric/congestion_experiment.h"
#include "trestle/fabric/duration.h"
#include "trestle/fabric/topology_builder.h"

namespace trestle::fabric::cli {
namespace {

// The grid of --sweep, unless --victim / --aggressor / --allocation narrow it.
const char* const kSweepVictims[] = {"allreduce:8B", "ring-latency:8B", "ring-bw:128KiB",
                                     "alltoall:4KiB"};
const char* const kSweepAggressors[] = {"incast", "alltoall"};
const char* const kSweepAllocations[] = {"linear", "interleaved", "random"};

struct CongestionFlags {
  std::string topology;
  std::vector<std::string> victims;
  std::vector<std::string> aggressors;
  std::string split = "20:80";
  std::vector<std::string> allocations;
  FlowFlags flow;
  std::string tc = "same";
  std::uint32_t iterations = 0;
  PricingFlags pricing;
  LinkFlags links;
  bool sweep = false;
  std::string csv;
  std::string plot;
};

std::string Seconds(std::chrono::steady_clock::time_point start) {
  return fmt::format(
      "{:.2f} s",
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

// A latency sample (ns) or a bandwidth sample (bytes/ns = GB/s), for people.
std::string Sample(const VictimSpec& victim, double value) {
  if (victim.MeasuresLatency()) return Duration::Nanoseconds(value).ToString();
  return fmt::format("{:.3f} GB/s", value);
}

void PrintRun(const Topology& topology, const CongestionOptions& options,
              const CongestionFlags& flags, const CongestionResult& r) {
  const bool latency = options.victim.MeasuresLatency();
  auto stats = [&](double mean, double tail, std::size_t samples) {
    return internal::Concat("mean ", Sample(options.victim, mean), latency ? ", p99 " : ", p1 ",
                            Sample(options.victim, tail), " (", samples, " samples)");
  };
  const std::string tclass_victim = options.separate_classes ? "tclass 1" : "tclass 0";
  const std::string tclass_aggressor = options.separate_classes ? "tclass 2" : "tclass 0";
  std::printf("topology    %s, %u endpoints: victim on %zu, aggressor on %zu (split %s, %s)\n",
              flags.topology.c_str(), topology.EndpointCount(), r.victim_endpoints,
              r.aggressor_endpoints, options.split.ToString().c_str(),
              std::string(AllocationKindName(options.allocation)).c_str());
  std::printf("victim      %s, %u iterations, %s\n", options.victim.Name().c_str(), r.iterations,
              tclass_victim.c_str());
  std::printf("aggressor   %s (%s messages), %s\n", options.aggressor.Name().c_str(),
              ByteSize::Bytes(options.aggressor.bytes).ToString().c_str(),
              tclass_aggressor.c_str());
  std::printf("model       flow, congestion control %s, %s, %s routing\n",
              options.congestion_control ? "on" : "off", options.classes.Describe().c_str(),
              flags.pricing.routing.c_str());
  std::printf("alone       %s\n", stats(r.alone_mean, r.alone_tail, r.alone.size()).c_str());
  std::printf("congested   %s\n",
              stats(r.congested_mean, r.congested_tail, r.congested.size()).c_str());
  std::printf("impact      mean %.3f, %s %.3f (%s)\n", r.impact_mean, latency ? "p99" : "p1",
              r.impact_p99, latency ? "congested ÷ alone time" : "alone ÷ congested bandwidth");
  if (!latency) {
    std::printf("kept        %.1f %% of its bandwidth on average, %.1f %% in its slowest 1 %%\n",
                100 / r.impact_mean, 100 / r.impact_p99);
  }
  if (r.approximate_solves > 0) {
    std::printf("note        %llu solves settled with frozen class allocations (approximate)\n",
                static_cast<unsigned long long>(r.approximate_solves));
  }
}

void RunCongestion(const CongestionFlags& flags) {
  const FabricParams defaults = OrFail(flags.links.Resolve());
  TopologyPtr topology = OrFail(TopologyBuilder::FromText(flags.topology, defaults));
  const PricingFlags::Resolved pricing = OrFail(flags.pricing.Resolve());
  const FlowModelOptions flow = OrFail(flags.flow.Resolve());
  if (flags.tc != "same" && flags.tc != "separate") {
    Fail(absl::InvalidArgumentError(
        internal::Concat("--tc '", flags.tc, "': expected same or separate")));
  }
  if (!flags.sweep) {
    if (flags.victims.size() != 1 || flags.aggressors.size() != 1 || flags.allocations.size() > 1) {
      Fail(absl::InvalidArgumentError(
          "congestion: one run needs one --victim and one --aggressor (and at most one "
          "--allocation); --sweep runs a grid"));
    }
    if (!flags.plot.empty()) {
      Fail(absl::InvalidArgumentError("congestion: --plot draws the heat map of --sweep"));
    }
  }
  CongestionOptions base;
  base.split = OrFail(NodeSplit::Parse(flags.split));
  base.classes = flow.classes;
  base.queues = flow.queues;
  base.separate_classes = flags.tc == "separate";
  base.routing = pricing.routing;
  base.seed = pricing.seed;
  base.endpoint_delay = pricing.endpoint_delay;
  base.iterations = flags.iterations;
  base.warmup_ns = 20000;

  auto list = [](const std::vector<std::string>& given, const auto& defaults) {
    return given.empty() ? std::vector<std::string>(std::begin(defaults), std::end(defaults))
                         : given;
  };
  const std::vector<std::string> victims = list(flags.victims, kSweepVictims);
  const std::vector<std::string> aggressors = list(flags.aggressors, kSweepAggressors);
  const std::vector<std::string> allocations =
      flags.sweep ? list(flags.allocations, kSweepAllocations)
                  : std::vector<std::string>{flags.allocations.empty() ? "linear"
                                                                        : flags.allocations[0]};
  const std::vector<bool> ccs =
      flags.sweep ? std::vector<bool>{true, false} : std::vector<bool>{flow.congestion_control};
  // Parse everything before the first run.
  std::vector<VictimSpec> victim_specs;
  for (const std::string& v : victims) victim_specs.push_back(OrFail(VictimSpec::Parse(v)));
  std::vector<AggressorSpec> aggressor_specs;
  for (const std::string& a : aggressors) {
    aggressor_specs.push_back(OrFail(AggressorSpec::Parse(a)));
  }
  std::vector<AllocationKind> allocation_kinds;
  for (const std::string& a : allocations) {
    allocation_kinds.push_back(OrFail(ParseAllocationKind(a)));
  }

  CongestionReport report;
  const std::size_t total =
      victim_specs.size() * aggressor_specs.size() * allocation_kinds.size() * ccs.size();
  const auto sweep_start = std::chrono::steady_clock::now();
  std::size_t done = 0;
  for (bool cc : ccs) {
    for (const VictimSpec& victim : victim_specs) {
      for (const AggressorSpec& aggressor : aggressor_specs) {
        for (AllocationKind allocation : allocation_kinds) {
          CongestionOptions options = base;
          options.victim = victim;
          options.aggressor = aggressor;
          options.allocation = allocation;
          options.congestion_control = cc;
          const auto start = std::chrono::steady_clock::now();
          std::fprintf(stderr, "congestion [%zu/%zu] %s + %s, %s, cc %s, tc %s:", ++done, total,
                       victim.Name().c_str(), aggressor.Name().c_str(),
                       std::string(AllocationKindName(allocation)).c_str(), cc ? "on" : "off",
                       flags.tc.c_str());
          std::fflush(stderr);
          const CongestionResult result =
              OrFail(CongestionExperiment::Run(*topology, options, [](std::string_view phase) {
                std::fprintf(stderr, " %.*s...", static_cast<int>(phase.size()), phase.data());
                std::fflush(stderr);
              }));
          std::fprintf(stderr, " impact %.3f / %.3f (%s)\n", result.impact_mean,
                       result.impact_p99, Seconds(start).c_str());
          report.Add({victim.Name(), aggressor.Name(), base.split.ToString(),
                      std::string(AllocationKindName(allocation)), cc ? "on" : "off", flags.tc,
                      result.impact_mean, result.impact_p99});
          if (!flags.sweep) PrintRun(*topology, options, flags, result);
        }
      }
    }
  }
  if (flags.sweep) {
    std::fprintf(stderr, "congestion: %zu runs in %s\n", total, Seconds(sweep_start).c_str());
    report.PrintTable(stdout);
  }
  const std::string csv = flags.csv.empty() && flags.sweep ? "congestion.csv" : flags.csv;
  if (!csv.empty()) {
    if (absl::Status s = report.WriteCsv(csv); !s.ok()) Fail(s);
    std::printf("wrote %s\n", csv.c_str());
  }
  if (flags.sweep) {
    const std::string png = flags.plot.empty() ? "congestion.png" : flags.plot;
    const std::string title = internal::Concat(
        "Trestle flow model: congestion impact on ", flags.topology, ", split ",
        base.split.ToString(), ", tc ", flags.tc);
    if (absl::Status s = HeatMapPlotter().Plot(report, title, png); !s.ok()) Fail(s);
    std::printf("wrote %s\n", png.c_str());
  }
}

}  // namespace

void RegisterCongestionCommand(CLI::App* app) {
  auto flags = std::make_shared<CongestionFlags>();
  CLI::App* congestion = app->add_subcommand(
      "congestion", "how much an aggressor job slows a victim job (flow model)");
  congestion->add_option("--topology", flags->topology, "topology spec or YAML file")->required();
  congestion->add_option(
      "--victim", flags->victims,
      "allreduce:SIZE, ring-latency:SIZE, ring-bw:SIZE or alltoall:SIZE (--sweep: repeatable, "
      "default allreduce:8B ring-latency:8B ring-bw:128KiB alltoall:4KiB)");
  congestion->add_option("--aggressor", flags->aggressors,
                         "incast[:SIZE] or alltoall[:SIZE], messages of SIZE (default 256KiB) "
                         "(--sweep: repeatable, default both)");
  congestion->add_option("--split", flags->split, "victim:aggressor percentages of the endpoints")
      ->capture_default_str();
  congestion->add_option("--allocation", flags->allocations,
                         "linear, interleaved or random (default linear; --sweep: repeatable, "
                         "default all three)");
  congestion->add_option("--tc", flags->tc,
                         "same (both jobs in tclass 0) or separate (victim tclass 1, aggressor "
                         "tclass 2)")
      ->capture_default_str();
  congestion->add_option("--iterations", flags->iterations,
                         "victim iterations (default: allreduce 50, ring-latency 20, ring-bw 10, "
                         "alltoall 1)");
  flags->flow.AddTo(congestion, "Flow model");
  congestion->get_option("--cc")->description(
      "endpoint congestion control on or off (--sweep runs both)");
  flags->pricing.AddTo(congestion, "per-message endpoint overhead, e.g. 10ns");
  flags->links.AddTo(congestion);
  congestion->add_flag("--sweep", flags->sweep,
                       "run the grid victims x aggressors x allocations x cc on/off; write the "
                       "CSV and the heat map");
  congestion->add_option("--csv", flags->csv,
                         "write one row per run (--sweep: default congestion.csv)");
  congestion->add_option("--plot", flags->plot, "--sweep: the heat map PNG (default congestion.png)");
  congestion->callback([flags] { RunCongestion(*flags); });
}

}  // namespace trestle::fabric::cli
