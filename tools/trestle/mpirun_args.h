// The Open MPI command line that `trestle mpirun` runs: how many ranks it
// starts, and the same command with the ranks' environment (the preload
// and the TRESTLE_MPI_* settings) added as `-x NAME=VALUE` options, which
// Open MPI's mpirun exports to every rank and to nothing else.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace trestle {

using EnvironmentList = std::vector<std::pair<std::string, std::string>>;

// The number of ranks `argv` (an mpirun command, argv[0] the launcher)
// starts: the sum of its -np/-n/-c/--np/--n values (one per app context),
// read among mpirun's own options only (a program's "-n 100" is its own).
// InvalidArgument naming the problem when it has none or a value is not a
// positive number.
absl::StatusOr<int> WorldSizeOf(const std::vector<std::string>& argv);

// `argv` with `-x NAME=VALUE` for each of `environment` after argv[0]
// (`-x NAME` for an empty value: mpirun exports its own value, which then
// stays off the command line, as for a token).
// InvalidArgument when argv[0] is not Open MPI's launcher (mpirun, mpiexec
// or orterun, by file name).
absl::StatusOr<std::vector<std::string>> WithRankEnvironment(const std::vector<std::string>& argv,
                                                             const EnvironmentList& environment);

}  // namespace trestle
