// Fortran's MPI arguments as the C entry points take them, for the Fortran
// bindings (wrap_fortran_*.cc): handles are MPI_Fint (MPI_Comm_f2c, ...),
// a status is an integer array (MPI_Status_c2f), LOGICAL is an MPI_Fint,
// and MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE,
// MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY are the addresses of Open MPI's
// common blocks (mpif-sentinels.h: mpi_fortran_bottom_, ...), not C's
// constants.
#pragma once

#include <mpi.h>

#include <vector>

namespace trestle::mpi::fortran {

// Integers in a Fortran status (MPI_STATUS_SIZE): MPI_F_STATUS_SIZE where
// mpi.h has it; Open MPI 4.1's has not, and sizes it as the C status.
#ifdef MPI_F_STATUS_SIZE
inline constexpr int kStatusSize = MPI_F_STATUS_SIZE;
#else
inline constexpr int kStatusSize = sizeof(MPI_Status) / sizeof(MPI_Fint);
#endif

// The addresses of Open MPI's Fortran sentinels in this process: the one
// copy every library and the program resolve to (the program's, or the
// first library's that defines it), found by name once. Null for a
// sentinel the MPI does not define (another MPI's Fortran uses other
// names): no Fortran argument is then taken for it.
struct Sentinels {
  const void* bottom = nullptr;
  const void* in_place = nullptr;
  const void* status_ignore = nullptr;
  const void* statuses_ignore = nullptr;
  const void* unweighted = nullptr;
  const void* weights_empty = nullptr;
};
const Sentinels& FortranSentinels();

// A Fortran weights argument of the distributed graph constructors:
// MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY become C's.
const int* Weights(const MPI_Fint* fortran);

// A Fortran buffer argument: MPI_BOTTOM and MPI_IN_PLACE become C's.
const void* Buffer(const void* fortran);
void* Buffer(void* fortran);

// *ierr = rc, where the caller gave an ierr (mpi_f08 always does).
inline void SetError(MPI_Fint* ierr, int rc) {
  if (ierr != nullptr) *ierr = static_cast<MPI_Fint>(rc);
}
// gfortran's .TRUE. is 1 and .FALSE. 0 (Open MPI's OMPI_FORTRAN_VALUE_TRUE).
inline void SetLogical(MPI_Fint* logical, int value) { *logical = value != 0 ? 1 : 0; }

// A Fortran status argument: c() is where the C call writes (C's
// MPI_STATUS_IGNORE for Fortran's), Store() copies it back.
class StatusOut {
 public:
  explicit StatusOut(MPI_Fint* fortran)
      : fortran_(fortran == FortranSentinels().status_ignore ? nullptr : fortran) {}
  MPI_Status* c() { return fortran_ == nullptr ? MPI_STATUS_IGNORE : &status_; }
  void Store() {
    if (fortran_ != nullptr) MPI_Status_c2f(&status_, fortran_);
  }

 private:
  MPI_Fint* fortran_;
  MPI_Status status_{};
};

// An array of Fortran statuses (MPI_STATUS_SIZE integers each), or
// Fortran's MPI_STATUSES_IGNORE.
class StatusesOut {
 public:
  StatusesOut(MPI_Fint* fortran, int count);
  MPI_Status* c() { return fortran_ == nullptr ? MPI_STATUSES_IGNORE : statuses_.data(); }
  // Copies back the first `n`.
  void Store(int n);

 private:
  MPI_Fint* fortran_;
  std::vector<MPI_Status> statuses_;
};

// An array of Fortran requests, as C requests; Store() writes each back
// (a completed one is then Fortran's MPI_REQUEST_NULL).
class Requests {
 public:
  Requests(MPI_Fint* fortran, int count);
  MPI_Request* c() { return requests_.data(); }
  void Store();

 private:
  MPI_Fint* fortran_;
  std::vector<MPI_Request> requests_;
};

}  // namespace trestle::mpi::fortran
