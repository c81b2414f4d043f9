// `trestle bench`: measures the bridge's own overhead with ghost clients.
//
// RegisterBenchCommand adds the `bench` subcommand to the `trestle` command
// line. The subcommand starts (or, with --daemon, reaches) a trestled and the
// ghost simulator, drives N app clients on one event loop at an open-loop
// rate, drains, checks exactly-once delivery and prints one Markdown row per
// configuration (and JSON Lines with --json). See docs/benchmarks.md.
#pragma once

#include <CLI/CLI.hpp>

namespace trestle::bench {

// Adds `bench` to `app`. The subcommand's options live as long as `app`.
// When it runs, a failed configuration (a lost or duplicated message, a
// bridge that would not start) makes the command exit with status 1 through
// CLI::RuntimeError; bad flags exit with CLI11's usual status.
void RegisterBenchCommand(CLI::App& app);

}  // namespace trestle::bench
