// `trestle-sim fabric describe --topology SPEC`: the shape of a topology.
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "trestle/fabric/hop_statistics.h"
#include "trestle/fabric/topology_builder.h"
#include "common/text.h"

namespace trestle::fabric::cli {
namespace {

struct DescribeFlags {
  std::string topology;
  LinkFlags links;
};

double MillisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

void Describe(const DescribeFlags& flags) {
  absl::StatusOr<FabricParams> defaults = flags.links.Resolve();
  if (!defaults.ok()) Fail(defaults.status());
  auto start = std::chrono::steady_clock::now();
  absl::StatusOr<TopologyPtr> built = TopologyBuilder::FromText(flags.topology, *defaults);
  if (!built.ok()) Fail(built.status());
  const Topology& t = **built;
  double build_ms = MillisecondsSince(start);
  start = std::chrono::steady_clock::now();
  LinkCounts links = t.CountLinks();
  HopStatistics hops = HopStatistics::Compute(t);
  double stats_ms = MillisecondsSince(start);

  const char* hop_unit = t.IsDirect() ? "router-to-router hops (direct network: endpoints route)"
                                      : "switch-to-switch hops";
  const FabricParams& p = t.params();
  std::string name = t.Name();
  if (name != flags.topology) name += " (from '" + flags.topology + "')";
  std::printf("topology        %s\n", name.c_str());
  std::printf("endpoints       %u\n", t.EndpointCount());
  std::printf("switches        %u\n", t.SwitchCount());
  std::printf("links           %llu total: %llu host, %llu local, %llu global (bidirectional)\n",
              static_cast<unsigned long long>(links.Total()),
              static_cast<unsigned long long>(links.host),
              static_cast<unsigned long long>(links.local),
              static_cast<unsigned long long>(links.global));
  std::printf("%-15s %u ports\n", t.IsDirect() ? "endpoint ports" : "switch radix", t.Radix());
  if (hops.connected) {
    std::printf("diameter        %u %s%s\n", hops.diameter, hop_unit,
                hops.exact ? "" : " (lower bound, sampled)");
  } else {
    std::printf("diameter        infinite: some endpoints cannot reach each other\n");
  }
  std::printf("average hops    %.3f %s, minimal, over endpoint pairs%s\n", hops.average_hops,
              t.IsDirect() ? "router-to-router" : "switch-to-switch",
              hops.exact ? "" : internal::Concat(" (estimate from ", hops.sources,
                                             " sampled sources)").c_str());
  std::printf("bisection       %llu links (%s)\n",
              static_cast<unsigned long long>(t.BisectionLinks()), t.BisectionCut().c_str());
  std::printf("link            %s, %s latency; injection %s; switch latency %s\n",
              p.link_bandwidth.ToString().c_str(), p.link_latency.ToString().c_str(),
              p.injection_bandwidth.ToString().c_str(), p.switch_latency.ToString().c_str());
  std::printf("computed in     %.1f ms build, %.1f ms statistics\n", build_ms, stats_ms);
}

}  // namespace

void RegisterDescribeCommand(CLI::App* fabric) {
  auto flags = std::make_shared<DescribeFlags>();
  CLI::App* describe = fabric->add_subcommand("describe", "print the shape of a topology");
  describe->add_option("--topology", flags->topology, "topology spec or YAML file")->required();
  flags->links.AddTo(describe);
  describe->callback([flags] { Describe(*flags); });
}

}  // namespace trestle::fabric::cli
