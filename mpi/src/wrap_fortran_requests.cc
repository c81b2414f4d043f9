// The Fortran waits and tests, MPI_Request_get_status, MPI_Request_free
// and MPI_Cancel (fortran_names.h): requests and statuses
// converted, each calls its C entry point (wrap_requests.cc). Fortran
// indices count from 1.
#include <mpi.h>

#include "fortran_handles.h"
#include "fortran_names.h"

using trestle::mpi::fortran::Requests;
using trestle::mpi::fortran::SetError;
using trestle::mpi::fortran::SetLogical;
using trestle::mpi::fortran::StatusesOut;
using trestle::mpi::fortran::StatusOut;

namespace {

// A C index out of MPI_Waitany, MPI_Testany or MPI_Waitsome, for Fortran.
MPI_Fint FortranIndex(int index) { return index == MPI_UNDEFINED ? index : index + 1; }

}  // namespace

extern "C" {

void trestle_fortran_wait(MPI_Fint* request, MPI_Fint* status, MPI_Fint* ierr) {
  MPI_Request c_request = MPI_Request_f2c(*request);
  StatusOut s(status);
  const int rc = MPI_Wait(&c_request, s.c());
  if (rc == MPI_SUCCESS) {
    *request = MPI_Request_c2f(c_request);
    s.Store();
  }
  SetError(ierr, rc);
}

void trestle_fortran_test(MPI_Fint* request, MPI_Fint* flag, MPI_Fint* status, MPI_Fint* ierr) {
  MPI_Request c_request = MPI_Request_f2c(*request);
  StatusOut s(status);
  int c_flag = 0;
  const int rc = MPI_Test(&c_request, &c_flag, s.c());
  if (rc == MPI_SUCCESS) {
    *request = MPI_Request_c2f(c_request);
    SetLogical(flag, c_flag);
    if (c_flag != 0) s.Store();
  }
  SetError(ierr, rc);
}

void trestle_fortran_waitall(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* statuses,
                             MPI_Fint* ierr) {
  Requests r(requests, *count);
  StatusesOut s(statuses, *count);
  const int rc = MPI_Waitall(*count, r.c(), s.c());
  if (rc == MPI_SUCCESS) {
    r.Store();
    s.Store(*count);
  }
  SetError(ierr, rc);
}

void trestle_fortran_testall(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* flag,
                             MPI_Fint* statuses, MPI_Fint* ierr) {
  Requests r(requests, *count);
  StatusesOut s(statuses, *count);
  int c_flag = 0;
  const int rc = MPI_Testall(*count, r.c(), &c_flag, s.c());
  if (rc == MPI_SUCCESS) {
    r.Store();
    SetLogical(flag, c_flag);
    if (c_flag != 0) s.Store(*count);
  }
  SetError(ierr, rc);
}

void trestle_fortran_waitany(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index,
                             MPI_Fint* status, MPI_Fint* ierr) {
  Requests r(requests, *count);
  StatusOut s(status);
  int c_index = MPI_UNDEFINED;
  const int rc = MPI_Waitany(*count, r.c(), &c_index, s.c());
  if (rc == MPI_SUCCESS) {
    r.Store();
    *index = FortranIndex(c_index);
    s.Store();
  }
  SetError(ierr, rc);
}

void trestle_fortran_testany(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index,
                             MPI_Fint* flag, MPI_Fint* status, MPI_Fint* ierr) {
  Requests r(requests, *count);
  StatusOut s(status);
  int c_index = MPI_UNDEFINED;
  int c_flag = 0;
  const int rc = MPI_Testany(*count, r.c(), &c_index, &c_flag, s.c());
  if (rc == MPI_SUCCESS) {
    r.Store();
    *index = FortranIndex(c_index);
    SetLogical(flag, c_flag);
    if (c_flag != 0) s.Store();
  }
  SetError(ierr, rc);
}

// MPI_Waitsome and MPI_Testsome: `outcount` requests done, their indices.
#define TRESTLE_FORTRAN_SOME(stem, STEM, CALL)                                                   \
  void trestle_fortran_##stem(const MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount,    \
                              MPI_Fint* indices, MPI_Fint* statuses, MPI_Fint* ierr) {            \
    Requests r(requests, *incount);                                                               \
    StatusesOut s(statuses, *incount);                                                            \
    int c_outcount = MPI_UNDEFINED;                                                               \
    const int rc = CALL(*incount, r.c(), &c_outcount, indices, s.c());                            \
    if (rc == MPI_SUCCESS) {                                                                      \
      r.Store();                                                                                  \
      *outcount = c_outcount;                                                                     \
      if (c_outcount != MPI_UNDEFINED) {                                                          \
        for (int i = 0; i < c_outcount; ++i) indices[i] = FortranIndex(indices[i]);               \
        s.Store(c_outcount);                                                                      \
      }                                                                                           \
    }                                                                                             \
    SetError(ierr, rc);                                                                           \
  }                                                                                               \
  TRESTLE_FORTRAN(stem, STEM, trestle_fortran_##stem)
TRESTLE_FORTRAN_SOME(waitsome, WAITSOME, MPI_Waitsome)
TRESTLE_FORTRAN_SOME(testsome, TESTSOME, MPI_Testsome)
#undef TRESTLE_FORTRAN_SOME

void trestle_fortran_request_get_status(const MPI_Fint* request, MPI_Fint* flag,
                                        MPI_Fint* status, MPI_Fint* ierr) {
  StatusOut s(status);
  int c_flag = 0;
  const int rc = MPI_Request_get_status(MPI_Request_f2c(*request), &c_flag, s.c());
  if (rc == MPI_SUCCESS) {
    SetLogical(flag, c_flag);
    if (c_flag != 0) s.Store();
  }
  SetError(ierr, rc);
}

void trestle_fortran_request_free(MPI_Fint* request, MPI_Fint* ierr) {
  MPI_Request c_request = MPI_Request_f2c(*request);
  const int rc = MPI_Request_free(&c_request);
  if (rc == MPI_SUCCESS) *request = MPI_Request_c2f(c_request);
  SetError(ierr, rc);
}

void trestle_fortran_cancel(const MPI_Fint* request, MPI_Fint* ierr) {
  MPI_Request c_request = MPI_Request_f2c(*request);
  SetError(ierr, MPI_Cancel(&c_request));
}

}  // extern "C"

TRESTLE_FORTRAN(wait, WAIT, trestle_fortran_wait)
TRESTLE_FORTRAN(test, TEST, trestle_fortran_test)
TRESTLE_FORTRAN(waitall, WAITALL, trestle_fortran_waitall)
TRESTLE_FORTRAN(testall, TESTALL, trestle_fortran_testall)
TRESTLE_FORTRAN(waitany, WAITANY, trestle_fortran_waitany)
TRESTLE_FORTRAN(testany, TESTANY, trestle_fortran_testany)
TRESTLE_FORTRAN(request_get_status, REQUEST_GET_STATUS, trestle_fortran_request_get_status)
TRESTLE_FORTRAN(request_free, REQUEST_FREE, trestle_fortran_request_free)
TRESTLE_FORTRAN(cancel, CANCEL, trestle_fortran_cancel)
