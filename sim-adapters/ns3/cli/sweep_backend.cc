// `trestle-sim sweep --backend ns3`: the ns-3 backend of the fabric CLI's
// sweep command. The sweep's own flags (topologies, collective, algorithms,
// sizes, chunks, endpoint delay, reduce bandwidth, link defaults, routing,
// seed, ranks, CSV, plot) mean what they mean for the fabric backend; the
// network flags (NetworkFlags) are added to the sweep command for this one.
#include "cli/sweep_backend.h"

#include <cstdio>
#include <memory>
#include <utility>

#include "cli/network_flags.h"
#include "trestle/fabric/cli.h"
#include "trestle/ns3/ns3_collective_sweep.h"

namespace trestle::ns3_adapter::cli {

void RegisterSweepBackend(CLI::App& app) {
  std::vector<CLI::App*> found =
      app.get_subcommands([](CLI::App* command) { return command->get_name() == "sweep"; });
  if (found.empty()) return;  // no sweep command to extend
  CLI::App* sweep = found.front();
  auto flags = std::make_shared<NetworkFlags>();
  flags->AddTo(sweep, "ns3 backend (--backend ns3)");
  fabric::RegisterSweepBackend(
      "ns3", [flags](const fabric::Topology& topology, const fabric::CollectiveSchedule& schedule,
                     const std::vector<std::uint64_t>& sizes,
                     const fabric::SweepOptions& options) -> absl::StatusOr<std::vector<double>> {
        Ns3NetworkOptions network;
        network.seed = options.seed;
        absl::StatusOr<Ns3NetworkOptions> resolved = flags->Resolve(network);
        if (!resolved.ok()) return resolved.status();
        Ns3SweepStats stats;
        absl::StatusOr<std::vector<double>> times =
            Ns3CollectiveSweep::Run(topology, schedule, sizes, options, *resolved, &stats);
        if (times.ok()) {
          // What the simulation cost, beside the table on stdout.
          std::fprintf(stderr,
                       "ns3 backend: %s, %u ranks: %llu packets sent on links, %llu events, "
                       "%.3f s simulating (%.0f packets/s), %.3f s building networks\n",
                       topology.Name().c_str(), schedule.ranks(),
                       static_cast<unsigned long long>(stats.packets),
                       static_cast<unsigned long long>(stats.events), stats.run_seconds,
                       stats.run_seconds > 0 ? static_cast<double>(stats.packets) / stats.run_seconds
                                             : 0.0,
                       stats.build_seconds);
        }
        return times;
      });
}

}  // namespace trestle::ns3_adapter::cli
