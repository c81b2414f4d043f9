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

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
             MPI_Comm comm) {
  CallScope scope("MPI_Scan");
  if (scope.layer() == nullptr) return PMPI_Scan(sendbuf, recvbuf, count, type, op, comm);
  return scope.layer()->collectives().Scan(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm) {
  CallScope scope("MPI_Exscan");
  if (scope.layer() == nullptr) return PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm);
  return scope.layer()->collectives().Exscan(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                       MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  CallScope scope("MPI_Reduce_scatter");
  if (scope.layer() == nullptr) {
    return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm);
  }
  return scope.layer()->collectives().ReduceScatter(sendbuf, recvbuf, recvcounts, type, op, comm);
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype type,
                             MPI_Op op, MPI_Comm comm) {
  CallScope scope("MPI_Reduce_scatter_block");
  if (scope.layer() == nullptr) {
    return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm);
  }
  return scope.layer()->collectives().ReduceScatterBlock(sendbuf, recvbuf, recvcount, type, op,
                                                         comm);
}

int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                  const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  CallScope scope("MPI_Alltoallw");
  if (scope.layer() == nullptr) {
    return PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                          recvtypes, comm);
  }
  return scope.layer()->collectives().Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                                recvcounts, rdispls, recvtypes, comm);
}

}  // extern "C"
