// The Fortran persistent requests (fortran_names.h): each calls its C entry
// point (wrap_persistent.cc), which models it.
#include <mpi.h>

#include "fortran_handles.h"
#include "fortran_names.h"

using trestle::mpi::fortran::Buffer;
using trestle::mpi::fortran::Requests;
using trestle::mpi::fortran::SetError;

using F = const MPI_Fint;

extern "C" {

// The *_init calls: MPI_Send_init's forms and MPI_Recv_init.
#define TRESTLE_FORTRAN_INIT(stem, STEM, CALL)                                                \
  void trestle_fortran_##stem(void* buf, F* count, F* type, F* peer, F* tag, F* comm,          \
                              MPI_Fint* request, MPI_Fint* ierr) {                             \
    MPI_Request c_request = MPI_REQUEST_NULL;                                                  \
    const int rc = CALL(Buffer(buf), *count, MPI_Type_f2c(*type), *peer, *tag,                 \
                        MPI_Comm_f2c(*comm), &c_request);                                      \
    if (rc == MPI_SUCCESS) *request = MPI_Request_c2f(c_request);                              \
    SetError(ierr, rc);                                                                        \
  }                                                                                            \
  TRESTLE_FORTRAN(stem, STEM, trestle_fortran_##stem)
TRESTLE_FORTRAN_INIT(send_init, SEND_INIT, MPI_Send_init)
TRESTLE_FORTRAN_INIT(bsend_init, BSEND_INIT, MPI_Bsend_init)
TRESTLE_FORTRAN_INIT(ssend_init, SSEND_INIT, MPI_Ssend_init)
TRESTLE_FORTRAN_INIT(rsend_init, RSEND_INIT, MPI_Rsend_init)
TRESTLE_FORTRAN_INIT(recv_init, RECV_INIT, MPI_Recv_init)
#undef TRESTLE_FORTRAN_INIT

void trestle_fortran_start(MPI_Fint* request, MPI_Fint* ierr) {
  MPI_Request c_request = MPI_Request_f2c(*request);
  const int rc = MPI_Start(&c_request);
  if (rc == MPI_SUCCESS) *request = MPI_Request_c2f(c_request);
  SetError(ierr, rc);
}

void trestle_fortran_startall(F* count, MPI_Fint* requests, MPI_Fint* ierr) {
  Requests r(requests, *count);
  const int rc = MPI_Startall(*count, r.c());
  if (rc == MPI_SUCCESS) r.Store();
  SetError(ierr, rc);
}

}  // extern "C"

TRESTLE_FORTRAN(start, START, trestle_fortran_start)
TRESTLE_FORTRAN(startall, STARTALL, trestle_fortran_startall)
