// The Fortran entry points that start and end the layer, and its clock
// (mpif.h, `use mpi`, `use mpi_f08`: fortran_names.h): each calls the C
// entry point of wrap_init.cc, so Fortran gets the same layer.
#include <mpi.h>

#include "fortran_handles.h"
#include "fortran_names.h"

using trestle::mpi::fortran::SetError;

extern "C" {

// Fortran has no argc and argv to give, as Open MPI's own binding.
void trestle_fortran_init(MPI_Fint* ierr) { SetError(ierr, MPI_Init(nullptr, nullptr)); }

void trestle_fortran_init_thread(const MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr) {
  int c_provided = 0;
  const int rc = MPI_Init_thread(nullptr, nullptr, *required, &c_provided);
  if (rc == MPI_SUCCESS) *provided = c_provided;
  SetError(ierr, rc);
}

void trestle_fortran_query_thread(MPI_Fint* provided, MPI_Fint* ierr) {
  int c_provided = 0;
  const int rc = MPI_Query_thread(&c_provided);
  if (rc == MPI_SUCCESS) *provided = c_provided;
  SetError(ierr, rc);
}

void trestle_fortran_finalize(MPI_Fint* ierr) { SetError(ierr, MPI_Finalize()); }

void trestle_fortran_abort(const MPI_Fint* comm, const MPI_Fint* errorcode, MPI_Fint* ierr) {
  SetError(ierr, MPI_Abort(MPI_Comm_f2c(*comm), *errorcode));
}

double trestle_fortran_wtime() { return MPI_Wtime(); }

double trestle_fortran_wtick() { return MPI_Wtick(); }

}  // extern "C"

TRESTLE_FORTRAN(init, INIT, trestle_fortran_init)
TRESTLE_FORTRAN(abort, ABORT, trestle_fortran_abort)
TRESTLE_FORTRAN(init_thread, INIT_THREAD, trestle_fortran_init_thread)
TRESTLE_FORTRAN(query_thread, QUERY_THREAD, trestle_fortran_query_thread)
TRESTLE_FORTRAN(finalize, FINALIZE, trestle_fortran_finalize)
TRESTLE_FORTRAN(wtime, WTIME, trestle_fortran_wtime)
TRESTLE_FORTRAN(wtick, WTICK, trestle_fortran_wtick)
