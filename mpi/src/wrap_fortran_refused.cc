// The Fortran twins of the calls libtrestle-mpi refuses (fortran_names.h):
// one for each entry of wrap_refused.cc's table, read from it when the
// build is configured (mpi/CMakeLists.txt writes fortran_refused_calls.inc),
// so the two tables cannot differ; and MPI-IO, which C programs run for
// real (wrap_file_io.cc) but Fortran programs may not yet: their file
// calls would reach MPI without the barriers. Each ends the run naming
// the call.
#include "fortran_names.h"
#include "refused_calls.h"

#define TRESTLE_FORTRAN_REFUSE(stem, STEM, CALL, WHAT)                          \
  extern "C" void trestle_fortran_refuse_##stem() {                             \
    trestle::mpi::RefuseCall(CALL " (Fortran)", WHAT);                          \
  }                                                                             \
  TRESTLE_FORTRAN(stem, STEM, trestle_fortran_refuse_##stem)

#include "fortran_refused_calls.inc"

// The MPI-IO calls wrap_file_io.cc wraps in C.
#define TRESTLE_FORTRAN_REFUSE_FILE(stem, STEM, Name) \
  TRESTLE_FORTRAN_REFUSE(stem, STEM, "MPI_" #Name, "MPI-IO from Fortran")
TRESTLE_FORTRAN_REFUSE_FILE(file_open, FILE_OPEN, File_open)
TRESTLE_FORTRAN_REFUSE_FILE(file_close, FILE_CLOSE, File_close)
TRESTLE_FORTRAN_REFUSE_FILE(file_set_view, FILE_SET_VIEW, File_set_view)
TRESTLE_FORTRAN_REFUSE_FILE(file_set_size, FILE_SET_SIZE, File_set_size)
TRESTLE_FORTRAN_REFUSE_FILE(file_preallocate, FILE_PREALLOCATE, File_preallocate)
TRESTLE_FORTRAN_REFUSE_FILE(file_set_atomicity, FILE_SET_ATOMICITY, File_set_atomicity)
TRESTLE_FORTRAN_REFUSE_FILE(file_set_info, FILE_SET_INFO, File_set_info)
TRESTLE_FORTRAN_REFUSE_FILE(file_sync, FILE_SYNC, File_sync)
TRESTLE_FORTRAN_REFUSE_FILE(file_seek_shared, FILE_SEEK_SHARED, File_seek_shared)
TRESTLE_FORTRAN_REFUSE_FILE(file_read_all, FILE_READ_ALL, File_read_all)
TRESTLE_FORTRAN_REFUSE_FILE(file_write_all, FILE_WRITE_ALL, File_write_all)
TRESTLE_FORTRAN_REFUSE_FILE(file_read_at_all, FILE_READ_AT_ALL, File_read_at_all)
TRESTLE_FORTRAN_REFUSE_FILE(file_write_at_all, FILE_WRITE_AT_ALL, File_write_at_all)
TRESTLE_FORTRAN_REFUSE_FILE(file_read_ordered, FILE_READ_ORDERED, File_read_ordered)
TRESTLE_FORTRAN_REFUSE_FILE(file_write_ordered, FILE_WRITE_ORDERED, File_write_ordered)
