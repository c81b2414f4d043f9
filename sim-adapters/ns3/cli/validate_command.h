// Internal to trestle_ns3_cli: registers `trestle-sim validate` (the
// congestion-unaware model, the flow model and ns-3 on the same workloads;
// validate_command.cc says what it does).
#ifndef TRESTLE_NS3_CLI_VALIDATE_COMMAND_H_
#define TRESTLE_NS3_CLI_VALIDATE_COMMAND_H_

#include <CLI/CLI.hpp>

namespace trestle::ns3_adapter::cli {

void RegisterValidateCommand(CLI::App& app);

}  // namespace trestle::ns3_adapter::cli

#endif  // TRESTLE_NS3_CLI_VALIDATE_COMMAND_H_
