// Internal to trestle_fabric_cli: the subcommand registrations and the link
// flags that describe and sweep share.
#ifndef TRESTLE_FABRIC_CLI_COMMANDS_H_
#define TRESTLE_FABRIC_CLI_COMMANDS_H_

#include <string>

#include <CLI/CLI.hpp>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "trestle/fabric/fabric_params.h"

namespace trestle::fabric::cli {

// --link-bw and --link-latency: defaults for link values a spec leaves unset.
struct LinkFlags {
  std::string link_bw;
  std::string link_latency;

  void AddTo(CLI::App* command);
  absl::StatusOr<FabricParams> Resolve() const;
};

// Prints "error: MESSAGE" to stderr and throws CLI::RuntimeError carrying
// the message, exit code 1.
[[noreturn]] void Fail(const absl::Status& status);

void RegisterDescribeCommand(CLI::App* fabric);
void RegisterSweepCommand(CLI::App* app);

}  // namespace trestle::fabric::cli

#endif  // TRESTLE_FABRIC_CLI_COMMANDS_H_
