// trestle: operator commands for a Trestle deployment.
#include <CLI/CLI.hpp>

#include "admin_commands.h"
#include "trace_diff.h"
#include "trestle/gateway/gateway_run_command.h"

#ifdef TRESTLE_HAVE_MPIRUN
#include "mpirun_command.h"
#endif
#ifdef TRESTLE_HAVE_BENCH
#include "trestle/bench/bench_command.h"
#include "trestle/bench/floor_commands.h"
#endif

int main(int argc, char** argv) {
  CLI::App app{"trestle: operate and measure a Trestle bridge", "trestle"};
  app.require_subcommand(1);
  trestle::RegisterAdminCommands(app);
  trestle::RegisterTraceCommands(app);
  trestle::gateway::RegisterGatewayCommands(app);
#ifdef TRESTLE_HAVE_MPIRUN
  trestle::RegisterMpirunCommand(app);
#endif
#ifdef TRESTLE_HAVE_BENCH
  trestle::bench::RegisterBenchCommand(app);
  trestle::bench::RegisterFloorCommands(app);
#endif
  CLI11_PARSE(app, argc, argv);
  return 0;
}
