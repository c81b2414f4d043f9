// The `ghost` subcommand of trestle-sim:
//
//   trestle-sim ghost [--daemon ADDR] [--pull] [--id NAME] [--token T]
//
// Runs a GhostSimulator until SIGINT or SIGTERM, then exits 0. Exits 1 if it
// cannot connect or the daemon connection is lost.
#pragma once

#include <CLI/CLI.hpp>

namespace trestle::ghost {

// Adds the subcommand to `app`; `app` must outlive the parse.
void RegisterGhostCommand(CLI::App& app);

}  // namespace trestle::ghost
