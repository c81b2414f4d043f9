// Command-line front end of the fabric model, for the trestle-sim binary.
//
// RegisterFabricCommands adds to `app`:
//   fabric --daemon ADDR --topology SPEC [--routing minimal|minimal-dmodk|valiant|adaptive]
//          [--seed S] [--map FILE] [--time-mode virtual|paced|wallclock] [--dilation X]
//          [--loss-rate P] [--endpoint-delay T] [--link-bw BW] [--link-latency T]
//          [--pull] [--id NAME] [--token T]
//       (no subcommand) runs the live adapter, a FabricAdapter, until SIGINT or
//       SIGTERM, then exits 0; exit 1 if it cannot start or loses the daemon.
//   fabric describe --topology SPEC [--link-bw BW] [--link-latency T]
//       prints endpoints, switches, links by kind, radix, diameter, average
//       minimal hops and bisection links.
//   sweep --backend fabric --topology SPEC [--topology SPEC ...]
//         --collective allreduce|allgather|reducescatter|alltoall
//         --algorithm ring|halving-doubling|direct [--algorithm ...]
//         --sizes 16KiB,64KiB,... [--chunks C] [--endpoint-delay T]
//         [--reduce-bw BW] [--link-bw BW] [--link-latency T]
//         [--routing minimal|minimal-dmodk|valiant|adaptive] [--seed S] [--ranks N]
//         [--csv FILE] [--plot FILE.png]
//       prices collectives offline and prints a table (CSV, PNG optional).
//
// The commands run from CLI11 callbacks during app.parse(). Failures (bad
// specs, unwritable files, gnuplot missing) print "error: MESSAGE" to stderr
// and throw CLI::RuntimeError (exit code 1, what() = MESSAGE), which
// CLI11_PARSE / app.exit() turn into the exit code without printing again. `app` must outlive parsing; output goes to stdout.
#ifndef TRESTLE_FABRIC_CLI_H_
#define TRESTLE_FABRIC_CLI_H_

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "trestle/fabric/collective_schedule.h"
#include "trestle/fabric/collective_sweep.h"
#include "trestle/fabric/topology.h"

namespace trestle::fabric {

void RegisterFabricCommands(CLI::App& app);

// Another backend for `sweep --backend NAME` (the ns-3 adapter's): the time
// in ns of `schedule` on `topology` at each size, as CollectiveSweep::Run.
// Other adapters register theirs after RegisterFabricCommands (and may add
// their own flags to app.get_subcommand("sweep")); rows and plots are then
// labelled NAME.
using SweepBackend = std::function<absl::StatusOr<std::vector<double>>(
    const Topology&, const CollectiveSchedule&, const std::vector<std::uint64_t>&,
    const SweepOptions&)>;
void RegisterSweepBackend(const std::string& name, SweepBackend backend);

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_CLI_H_
