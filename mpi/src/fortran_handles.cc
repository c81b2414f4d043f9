#include "fortran_handles.h"

#include <dlfcn.h>

namespace trestle::mpi::fortran {

const Sentinels& FortranSentinels() {
  static const Sentinels sentinels = [] {
    // gfortran names a common block /name/ `name_`; the program's own copy
    // (a Fortran program has one) comes first in the global scope.
    auto find = [](const char* name) -> const void* { return dlsym(RTLD_DEFAULT, name); };
    Sentinels s;
    s.bottom = find("mpi_fortran_bottom_");
    s.in_place = find("mpi_fortran_in_place_");
    s.status_ignore = find("mpi_fortran_status_ignore_");
    s.statuses_ignore = find("mpi_fortran_statuses_ignore_");
    s.unweighted = find("mpi_fortran_unweighted_");
    s.weights_empty = find("mpi_fortran_weights_empty_");
    return s;
  }();
  return sentinels;
}

const void* Buffer(const void* fortran) {
  if (fortran == nullptr) return fortran;
  const Sentinels& s = FortranSentinels();
  if (fortran == s.bottom) return MPI_BOTTOM;
  if (fortran == s.in_place) return MPI_IN_PLACE;
  return fortran;
}

const int* Weights(const MPI_Fint* fortran) {
  static_assert(sizeof(MPI_Fint) == sizeof(int), "a Fortran INTEGER is a C int here");
  if (fortran == nullptr) return nullptr;
  const Sentinels& s = FortranSentinels();
  if (fortran == s.unweighted) return MPI_UNWEIGHTED;
  if (fortran == s.weights_empty) return MPI_WEIGHTS_EMPTY;
  return fortran;
}

void* Buffer(void* fortran) { return const_cast<void*>(Buffer(static_cast<const void*>(fortran))); }

StatusesOut::StatusesOut(MPI_Fint* fortran, int count)
    : fortran_(fortran == FortranSentinels().statuses_ignore ? nullptr : fortran) {
  if (fortran_ != nullptr) statuses_.resize(count > 0 ? static_cast<std::size_t>(count) : 0);
}

void StatusesOut::Store(int n) {
  if (fortran_ == nullptr) return;
  for (int i = 0; i < n; ++i) {
    MPI_Status_c2f(&statuses_[static_cast<std::size_t>(i)], fortran_ + i * kStatusSize);
  }
}

Requests::Requests(MPI_Fint* fortran, int count) : fortran_(fortran) {
  requests_.resize(count > 0 ? static_cast<std::size_t>(count) : 0);
  for (std::size_t i = 0; i < requests_.size(); ++i) requests_[i] = MPI_Request_f2c(fortran_[i]);
}

void Requests::Store() {
  for (std::size_t i = 0; i < requests_.size(); ++i) fortran_[i] = MPI_Request_c2f(requests_[i]);
}

}  // namespace trestle::mpi::fortran
