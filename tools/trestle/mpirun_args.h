// The MPI command line that `trestle mpirun` runs: which MPI its launcher
// starts ranks of (Open MPI or MPICH, and so which build of the layer they
// preload), how many ranks it starts, and the same command with the ranks'
// environment (the preload and the TRESTLE_MPI_* settings) added as that
// launcher's options, which set it in every rank and in nothing else
// (mpirun itself, or MPICH's proxies, must not preload the layer).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"

namespace trestle {

using EnvironmentList = std::vector<std::pair<std::string, std::string>>;

// The MPI implementations whose ABI the layer is built for.
enum class MpiAbi { kOpenMpi, kMpich };

// The MPI whose launcher `launcher` (argv[0] after --) is, by its file name:
// orterun, mpirun.openmpi, mpiexec.openmpi: Open MPI; mpiexec.mpich,
// mpirun.mpich, mpiexec.hydra: MPICH. mpirun and mpiexec may be either
// (Debian's alternatives): then `resolved()` (the file it leads to on PATH,
// symlinks followed) decides by the same names, and failing that
// `version()` (the launcher's --version output: HYDRA or MPICH in it is
// MPICH, Open MPI or OpenRTE is Open MPI). InvalidArgument naming the
// launcher when it is none of these.
absl::StatusOr<MpiAbi> MpiAbiOf(const std::string& launcher,
                                absl::FunctionRef<std::string()> resolved,
                                absl::FunctionRef<std::string()> version);

// The file name of the layer built for `abi`: libtrestle-mpi.so (Open MPI)
// or libtrestle-mpi-mpich.so.
std::string LayerFileName(MpiAbi abi);

// The number of ranks `argv` (a launcher command, argv[0] the launcher of
// `abi`) starts: the sum of its -np/-n/-c/--np/--n values (one per app
// context), read among the launcher's own options only (a program's
// "-n 100" is its own). InvalidArgument naming the problem when it has none
// or a value is not a positive number.
absl::StatusOr<int> WorldSizeOf(const std::vector<std::string>& argv, MpiAbi abi);

// `argv` with `environment` set in every rank, as options right after
// argv[0]. Open MPI: `-x NAME=VALUE` (`-x NAME` for an empty value: mpirun
// exports its own value, which then stays off the command line, as for a
// token). MPICH (hydra): `-genv NAME VALUE`, and the names with an empty
// value in one `-genvlist A,B` (hydra passes the caller's own value).
std::vector<std::string> WithRankEnvironment(const std::vector<std::string>& argv,
                                             const EnvironmentList& environment, MpiAbi abi);

}  // namespace trestle
