// trestle: operator commands for a Trestle deployment. The admin, trace and
// gateway commands are always here; the rest are added by the libraries built
// alongside (registered_commands.h), e.g. `bench` where bench/load is built.
#include <CLI/CLI.hpp>

#include "admin_commands.h"
#include "registered_commands.h"
#include "trace_diff.h"
#include "trestle/gateway/gateway_run_command.h"

int main(int argc, char** argv) {
  CLI::App app{"trestle: operator commands for a Trestle bridge", "trestle"};
  app.require_subcommand(1);
  trestle::RegisterAdminCommands(app);
  trestle::RegisterTraceCommands(app);
  trestle::gateway::RegisterGatewayCommands(app);
  trestle::RegisterBuiltCommands(app);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
