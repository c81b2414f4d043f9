// The Fortran collectives (fortran_names.h): handles and MPI_IN_PLACE /
// MPI_BOTTOM converted, each calls its C entry point
// (wrap_collectives.cc). Count and displacement arrays are MPI_Fint, as
// C's int.
#include <mpi.h>

#include <vector>

#include "fortran_handles.h"
#include "fortran_names.h"

using trestle::mpi::fortran::Buffer;
using trestle::mpi::fortran::SetError;

using F = const MPI_Fint;

extern "C" {

void trestle_fortran_barrier(F* comm, MPI_Fint* ierr) {
  SetError(ierr, MPI_Barrier(MPI_Comm_f2c(*comm)));
}

void trestle_fortran_bcast(void* buffer, F* count, F* type, F* root, F* comm, MPI_Fint* ierr) {
  SetError(ierr,
           MPI_Bcast(Buffer(buffer), *count, MPI_Type_f2c(*type), *root, MPI_Comm_f2c(*comm)));
}

void trestle_fortran_reduce(const void* sendbuf, void* recvbuf, F* count, F* type, F* op,
                            F* root, F* comm, MPI_Fint* ierr) {
  SetError(ierr, MPI_Reduce(Buffer(sendbuf), Buffer(recvbuf), *count, MPI_Type_f2c(*type),
                            MPI_Op_f2c(*op), *root, MPI_Comm_f2c(*comm)));
}

// MPI_Allreduce, MPI_Scan and MPI_Exscan.
#define TRESTLE_FORTRAN_REDUCTION(stem, STEM, CALL)                                            \
  void trestle_fortran_##stem(const void* sendbuf, void* recvbuf, F* count, F* type, F* op,    \
                              F* comm, MPI_Fint* ierr) {                                       \
    SetError(ierr, CALL(Buffer(sendbuf), Buffer(recvbuf), *count, MPI_Type_f2c(*type),         \
                        MPI_Op_f2c(*op), MPI_Comm_f2c(*comm)));                                \
  }                                                                                            \
  TRESTLE_FORTRAN(stem, STEM, trestle_fortran_##stem)
TRESTLE_FORTRAN_REDUCTION(allreduce, ALLREDUCE, MPI_Allreduce)
TRESTLE_FORTRAN_REDUCTION(scan, SCAN, MPI_Scan)
TRESTLE_FORTRAN_REDUCTION(exscan, EXSCAN, MPI_Exscan)
#undef TRESTLE_FORTRAN_REDUCTION

void trestle_fortran_reduce_scatter(const void* sendbuf, void* recvbuf, F* recvcounts, F* type,
                                    F* op, F* comm, MPI_Fint* ierr) {
  SetError(ierr, MPI_Reduce_scatter(Buffer(sendbuf), Buffer(recvbuf), recvcounts,
                                    MPI_Type_f2c(*type), MPI_Op_f2c(*op), MPI_Comm_f2c(*comm)));
}

void trestle_fortran_reduce_scatter_block(const void* sendbuf, void* recvbuf, F* recvcount,
                                          F* type, F* op, F* comm, MPI_Fint* ierr) {
  SetError(ierr, MPI_Reduce_scatter_block(Buffer(sendbuf), Buffer(recvbuf), *recvcount,
                                          MPI_Type_f2c(*type), MPI_Op_f2c(*op),
                                          MPI_Comm_f2c(*comm)));
}

// MPI_Allgather and MPI_Alltoall.
#define TRESTLE_FORTRAN_ALL(stem, STEM, CALL)                                                    \
  void trestle_fortran_##stem(const void* sendbuf, F* sendcount, F* sendtype, void* recvbuf,      \
                              F* recvcount, F* recvtype, F* comm, MPI_Fint* ierr) {               \
    SetError(ierr, CALL(Buffer(sendbuf), *sendcount, MPI_Type_f2c(*sendtype), Buffer(recvbuf),    \
                        *recvcount, MPI_Type_f2c(*recvtype), MPI_Comm_f2c(*comm)));               \
  }                                                                                               \
  TRESTLE_FORTRAN(stem, STEM, trestle_fortran_##stem)
TRESTLE_FORTRAN_ALL(allgather, ALLGATHER, MPI_Allgather)
TRESTLE_FORTRAN_ALL(alltoall, ALLTOALL, MPI_Alltoall)
#undef TRESTLE_FORTRAN_ALL

void trestle_fortran_allgatherv(const void* sendbuf, F* sendcount, F* sendtype, void* recvbuf,
                                F* recvcounts, F* displs, F* recvtype, F* comm, MPI_Fint* ierr) {
  SetError(ierr, MPI_Allgatherv(Buffer(sendbuf), *sendcount, MPI_Type_f2c(*sendtype),
                                Buffer(recvbuf), recvcounts, displs, MPI_Type_f2c(*recvtype),
                                MPI_Comm_f2c(*comm)));
}

void trestle_fortran_alltoallv(const void* sendbuf, F* sendcounts, F* sdispls, F* sendtype,
                               void* recvbuf, F* recvcounts, F* rdispls, F* recvtype, F* comm,
                               MPI_Fint* ierr) {
  SetError(ierr, MPI_Alltoallv(Buffer(sendbuf), sendcounts, sdispls, MPI_Type_f2c(*sendtype),
                               Buffer(recvbuf), recvcounts, rdispls, MPI_Type_f2c(*recvtype),
                               MPI_Comm_f2c(*comm)));
}

void trestle_fortran_alltoallw(const void* sendbuf, F* sendcounts, F* sdispls, F* sendtypes,
                               void* recvbuf, F* recvcounts, F* rdispls, F* recvtypes, F* comm,
                               MPI_Fint* ierr) {
  const MPI_Comm c = MPI_Comm_f2c(*comm);
  int size = 0;
  PMPI_Comm_size(c, &size);
  // In place, the send types are not read (nor given, perhaps).
  const bool in_place = Buffer(sendbuf) == MPI_IN_PLACE;
  std::vector<MPI_Datatype> send(in_place ? 0 : size), recv(size);
  for (int r = 0; r < size; ++r) {
    if (!in_place) send[r] = MPI_Type_f2c(sendtypes[r]);
    recv[r] = MPI_Type_f2c(recvtypes[r]);
  }
  SetError(ierr, MPI_Alltoallw(Buffer(sendbuf), sendcounts, sdispls, send.data(), Buffer(recvbuf),
                               recvcounts, rdispls, recv.data(), c));
}

// MPI_Gather and MPI_Scatter.
#define TRESTLE_FORTRAN_ROOTED(stem, STEM, CALL)                                                \
  void trestle_fortran_##stem(const void* sendbuf, F* sendcount, F* sendtype, void* recvbuf,     \
                              F* recvcount, F* recvtype, F* root, F* comm, MPI_Fint* ierr) {     \
    SetError(ierr, CALL(Buffer(sendbuf), *sendcount, MPI_Type_f2c(*sendtype), Buffer(recvbuf),   \
                        *recvcount, MPI_Type_f2c(*recvtype), *root, MPI_Comm_f2c(*comm)));       \
  }                                                                                              \
  TRESTLE_FORTRAN(stem, STEM, trestle_fortran_##stem)
TRESTLE_FORTRAN_ROOTED(gather, GATHER, MPI_Gather)
TRESTLE_FORTRAN_ROOTED(scatter, SCATTER, MPI_Scatter)
#undef TRESTLE_FORTRAN_ROOTED

void trestle_fortran_gatherv(const void* sendbuf, F* sendcount, F* sendtype, void* recvbuf,
                             F* recvcounts, F* displs, F* recvtype, F* root, F* comm,
                             MPI_Fint* ierr) {
  SetError(ierr, MPI_Gatherv(Buffer(sendbuf), *sendcount, MPI_Type_f2c(*sendtype),
                             Buffer(recvbuf), recvcounts, displs, MPI_Type_f2c(*recvtype), *root,
                             MPI_Comm_f2c(*comm)));
}

void trestle_fortran_scatterv(const void* sendbuf, F* sendcounts, F* displs, F* sendtype,
                              void* recvbuf, F* recvcount, F* recvtype, F* root, F* comm,
                              MPI_Fint* ierr) {
  SetError(ierr, MPI_Scatterv(Buffer(sendbuf), sendcounts, displs, MPI_Type_f2c(*sendtype),
                              Buffer(recvbuf), *recvcount, MPI_Type_f2c(*recvtype), *root,
                              MPI_Comm_f2c(*comm)));
}

}  // extern "C"

TRESTLE_FORTRAN(barrier, BARRIER, trestle_fortran_barrier)
TRESTLE_FORTRAN(bcast, BCAST, trestle_fortran_bcast)
TRESTLE_FORTRAN(reduce, REDUCE, trestle_fortran_reduce)
TRESTLE_FORTRAN(reduce_scatter, REDUCE_SCATTER, trestle_fortran_reduce_scatter)
TRESTLE_FORTRAN(reduce_scatter_block, REDUCE_SCATTER_BLOCK, trestle_fortran_reduce_scatter_block)
TRESTLE_FORTRAN(alltoallw, ALLTOALLW, trestle_fortran_alltoallw)
TRESTLE_FORTRAN(allgatherv, ALLGATHERV, trestle_fortran_allgatherv)
TRESTLE_FORTRAN(alltoallv, ALLTOALLV, trestle_fortran_alltoallv)
TRESTLE_FORTRAN(gatherv, GATHERV, trestle_fortran_gatherv)
TRESTLE_FORTRAN(scatterv, SCATTERV, trestle_fortran_scatterv)
