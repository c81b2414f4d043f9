// `trestle bench-floor-relay` and `trestle bench-floor-echo`: the two
// processes of the floor that `trestle bench --floor` starts beside the
// bridge (see docs/benchmarks.md, "The floor"). Not meant to be run by hand,
// but they may be: the relay listens and writes its port file, the echo
// connects to it and prints "connected to ADDRESS".
#pragma once

#include <CLI/CLI.hpp>

namespace trestle::bench {

// Adds both subcommands to `app`. Each runs until SIGTERM or SIGINT and then
// exits with status 0; a failure to listen or connect exits with status 1
// (CLI::RuntimeError) after saying why on stderr.
void RegisterFloorCommands(CLI::App& app);

}  // namespace trestle::bench
