// Collective entry points (CollectiveRunner).
#include <mpi.h>

#include "collective_runner.h"
#include "mpi_layer.h"

using trestle::mpi::CallScope;

extern "C" {

int MPI_Barrier(MPI_Comm comm) {
  CallScope scope("MPI_Barrier");
  if (scope.layer() == nullptr) return PMPI_Barrier(comm);
  return scope.layer()->collectives().Barrier(comm);
}

int MPI_Bcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  CallScope scope("MPI_Bcast");
  if (scope.layer() == nullptr) return PMPI_Bcast(buffer, count, type, root, comm);
  return scope.layer()->collectives().Bcast(buffer, count, type, root, comm);
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm comm) {
  CallScope scope("MPI_Reduce");
  if (scope.layer() == nullptr) return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
  return scope.layer()->collectives().Reduce(sendbuf, recvbuf, count, type, op, root, comm);
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm) {
  CallScope scope("MPI_Allreduce");
  if (scope.layer() == nullptr) return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
  return scope.layer()->collectives().Allreduce(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  CallScope scope("MPI_Allgather");
  if (scope.layer() == nullptr) {
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }
  return scope.layer()->collectives().Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                recvtype, comm);
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  CallScope scope("MPI_Alltoall");
  if (scope.layer() == nullptr) {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }
  return scope.layer()->collectives().Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                               recvtype, comm);
}

}  // extern "C"
