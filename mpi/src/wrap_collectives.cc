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

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm) {
  CallScope scope("MPI_Allgatherv");
  if (scope.layer() == nullptr) {
    return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                           comm);
  }
  return scope.layer()->collectives().Allgatherv(sendbuf, sendcount, sendtype, recvbuf,
                                                 recvcounts, displs, recvtype, comm);
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                  const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  CallScope scope("MPI_Alltoallv");
  if (scope.layer() == nullptr) {
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm);
  }
  return scope.layer()->collectives().Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                                recvcounts, rdispls, recvtype, comm);
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CallScope scope("MPI_Gather");
  if (scope.layer() == nullptr) {
    return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  }
  return scope.layer()->collectives().Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                             recvtype, root, comm);
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm) {
  CallScope scope("MPI_Gatherv");
  if (scope.layer() == nullptr) {
    return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                        comm);
  }
  return scope.layer()->collectives().Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                              displs, recvtype, root, comm);
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CallScope scope("MPI_Scatter");
  if (scope.layer() == nullptr) {
    return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  }
  return scope.layer()->collectives().Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                              recvtype, root, comm);
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm) {
  CallScope scope("MPI_Scatterv");
  if (scope.layer() == nullptr) {
    return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                         comm);
  }
  return scope.layer()->collectives().Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf,
                                               recvcount, recvtype, root, comm);
}

}  // extern "C"
