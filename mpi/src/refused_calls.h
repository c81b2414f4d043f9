// RefuseCall: ends the run, naming an MPI call libtrestle-mpi does not
// model and what it belongs to. Declared without mpi.h, for the table of
// refused entry points (wrap_refused.cc).
#pragma once

namespace trestle::mpi {

[[noreturn]] void RefuseCall(const char* call, const char* what);

}  // namespace trestle::mpi
