// trestle-sim: one binary for every simulator adapter; each adapter adds its
// subcommand (ghost; fabric when built).
#include <CLI/CLI.hpp>

#include "trestle/ghost/ghost_command.h"
#ifdef TRESTLE_HAVE_FABRIC
#include "trestle/fabric/cli.h"
#endif

int main(int argc, char** argv) {
  CLI::App app{"Trestle simulator adapters: connect a network model to trestled",
               "trestle-sim"};
  app.require_subcommand(1);
  trestle::ghost::RegisterGhostCommand(app);
#ifdef TRESTLE_HAVE_FABRIC
  trestle::fabric::RegisterFabricCommands(app);
#endif
  CLI11_PARSE(app, argc, argv);
  return 0;
}
