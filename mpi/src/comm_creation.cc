#include "comm_creation.h"

#include "real_collective_call.h"

namespace trestle::mpi {

int CommCreation::RealCall(MPI_Comm* made, MPI_Comm* shadow, const std::function<int()>& real) {
  const int rc = real();
  if (rc == MPI_SUCCESS && *made != MPI_COMM_NULL) PMPI_Comm_dup(*made, shadow);
  return rc;
}

int CommCreation::Create(MPI_Comm parent, MPI_Comm* made, const std::function<int()>& real) {
  CommState& c = layer_.Comm(parent);
  MPI_Comm shadow = MPI_COMM_NULL;
  std::uint32_t instance = 0;
  const int rc =
      RunAsBarrier(layer_, c, [&] { return RealCall(made, &shadow, real); }, &instance);
  if (rc == MPI_SUCCESS && *made != MPI_COMM_NULL) {
    MPI_Group group, world;
    PMPI_Comm_group(*made, &group);
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    int zero = 0, first = 0;
    PMPI_Group_translate_ranks(group, 1, &zero, world, &first);
    PMPI_Group_free(&group);
    PMPI_Group_free(&world);
    layer_.comms().Add(*made, shadow, CommRegistry::ChildId(c.id, instance, first));
  }
  return rc;
}

int CommCreation::Free(MPI_Comm* comm) {
  if (*comm != MPI_COMM_NULL) layer_.comms().Remove(*comm);
  return PMPI_Comm_free(comm);
}

}  // namespace trestle::mpi
