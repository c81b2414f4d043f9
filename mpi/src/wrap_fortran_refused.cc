// The Fortran twins of the calls libtrestle-mpi refuses (fortran_names.h):
// one for each entry of wrap_refused.cc's table, read from it when the
// build is configured (mpi/CMakeLists.txt writes fortran_refused_calls.inc),
// so the two tables cannot differ. Each ends the run naming the call.
#include "fortran_names.h"
#include "refused_calls.h"

#define TRESTLE_FORTRAN_REFUSE(stem, STEM, CALL, WHAT)                          \
  extern "C" void trestle_fortran_refuse_##stem() {                             \
    trestle::mpi::RefuseCall(CALL " (Fortran)", WHAT);                          \
  }                                                                             \
  TRESTLE_FORTRAN(stem, STEM, trestle_fortran_refuse_##stem)

#include "fortran_refused_calls.inc"
