// RunBench: the run of `trestle bench` once its flags are parsed. For each
// configuration (the base, or each of --matrix's grid), --repeat times: start
// the bridge (or reach the --daemon ones), drive the apps, stop it, and with
// --floor the same through the floor relay; then one row each to the report.
#pragma once

#include "bench_command_options.h"

namespace trestle::bench {

// Throws CLI::ValidationError for bad flags (ResolveBase, --matrix), and
// CLI::RuntimeError(1) when a configuration failed or was skipped.
void RunBench(BenchCommandOptions& o);

}  // namespace trestle::bench
