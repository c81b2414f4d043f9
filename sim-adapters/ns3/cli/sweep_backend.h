// Internal to trestle_ns3_cli: registers the ns3 backend of
// `trestle-sim sweep` (Ns3CollectiveSweep) and adds its network flags to the
// sweep command, which the fabric CLI must have added to `app` already.
#ifndef TRESTLE_NS3_CLI_SWEEP_BACKEND_H_
#define TRESTLE_NS3_CLI_SWEEP_BACKEND_H_

#include <CLI/CLI.hpp>

namespace trestle::ns3_adapter::cli {

void RegisterSweepBackend(CLI::App& app);

}  // namespace trestle::ns3_adapter::cli

#endif  // TRESTLE_NS3_CLI_SWEEP_BACKEND_H_
