// trestle-sim: one binary for every simulator adapter; each adapter library
// adds its subcommands (registered_adapters.h).
#include <CLI/CLI.hpp>

#include "registered_adapters.h"

int main(int argc, char** argv) {
  CLI::App app{"Trestle simulator adapters: connect a network model to trestled",
               "trestle-sim"};
  app.require_subcommand(1);
  trestle::sim::RegisterAdapters(app);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
