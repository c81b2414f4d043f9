// The MPI entry points that start and end the layer, and its clock:
// MPI_Init, MPI_Init_thread (at most MPI_THREAD_FUNNELED is provided),
// MPI_Finalize, MPI_Wtime (the rank's virtual time) and MPI_Wtick (1 ns).
#include <mpi.h>

#include "mpi_layer.h"

using trestle::mpi::CallScope;
using trestle::mpi::MpiLayer;

extern "C" {

int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) MpiLayer::Start();
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  // One thread calls MPI (FUNNELED at most): a program asking for more is
  // told so through `provided`, as the standard allows.
  const int asked = required > MPI_THREAD_FUNNELED ? MPI_THREAD_FUNNELED : required;
  const int rc = PMPI_Init_thread(argc, argv, asked, provided);
  if (rc != MPI_SUCCESS) return rc;
  if (*provided > MPI_THREAD_FUNNELED) *provided = MPI_THREAD_FUNNELED;
  MpiLayer::Start();
  return rc;
}

int MPI_Query_thread(int* provided) {
  const int rc = PMPI_Query_thread(provided);
  if (MpiLayer::Get() != nullptr && *provided > MPI_THREAD_FUNNELED) {
    *provided = MPI_THREAD_FUNNELED;
  }
  return rc;
}

int MPI_Finalize(void) {
  if (MpiLayer* layer = MpiLayer::Get(); layer != nullptr) {
    layer->CallStarts("MPI_Finalize");
    MpiLayer::Finish();
  }
  return PMPI_Finalize();
}

// The job ends here: what the rank's timeline holds is written first. No
// call scope: resolving the clock could wait for other ranks' progress.
int MPI_Abort(MPI_Comm comm, int errorcode) {
  if (MpiLayer* layer = MpiLayer::Get(); layer != nullptr) layer->FlushTimeline();
  return PMPI_Abort(comm, errorcode);
}

double MPI_Wtime(void) {
  CallScope scope("MPI_Wtime");
  if (scope.layer() == nullptr) return PMPI_Wtime();
  return static_cast<double>(scope.layer()->ReadClock()) * 1e-9;
}

double MPI_Wtick(void) {
  if (MpiLayer::Get() == nullptr) return PMPI_Wtick();
  return 1e-9;
}

}  // extern "C"
