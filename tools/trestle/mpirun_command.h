// `trestle mpirun`: runs an unmodified MPI program on a modelled network
// (docs/mpi.md). It preloads libtrestle-mpi into every rank through Open
// MPI's mpirun and either joins a running lockstep trestled (--daemon) or
// starts one, with a fabric simulator on --topology, for the run.
#pragma once

namespace CLI {
class App;
}

namespace trestle {

void RegisterMpirunCommand(CLI::App& app);

}  // namespace trestle
