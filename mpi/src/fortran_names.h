// The names a Fortran MPI call reaches the library by, defined for one
// implementation: TRESTLE_FORTRAN(send, SEND, impl) makes `mpi_send`,
// `mpi_send_`, `mpi_send__` and `MPI_SEND` (gfortran's and other
// compilers' manglings, which Open MPI's libmpi_mpifh exports for mpif.h
// and `use mpi`), `ompi_send_f` (what Open MPI 4.1's `use mpi_f08`,
// libmpi_usempif08, calls) and `pmpi_send_` (what mpi_f08 calls instead for
// a few, those with LOGICAL arguments: MPI_Test, MPI_Iprobe,
// MPI_Cart_create, ...) aliases of `impl`, an extern "C" function of this
// file. Preloaded, these definitions come before Open MPI's.
#pragma once

#define TRESTLE_FORTRAN_ALIAS(name, impl) \
  extern "C" decltype(impl) name __attribute__((alias(#impl)));

#define TRESTLE_FORTRAN(stem, STEM, impl)              \
  TRESTLE_FORTRAN_ALIAS(mpi_##stem, impl)              \
  TRESTLE_FORTRAN_ALIAS(mpi_##stem##_, impl)           \
  TRESTLE_FORTRAN_ALIAS(mpi_##stem##__, impl)          \
  TRESTLE_FORTRAN_ALIAS(MPI_##STEM, impl)              \
  TRESTLE_FORTRAN_ALIAS(ompi_##stem##_f, impl)         \
  TRESTLE_FORTRAN_ALIAS(pmpi_##stem##_, impl)
