// CommCreation: communicators made by a collective call over a parent
// (dup, split, create, cart), modelled as a barrier (RunAsBarrier: the real
// creation inside it). The new communicator gets its shadow (a duplicate)
// in the same real call, and its id from CommRegistry::ChildId.
//
// Main thread only.
#pragma once

#include <mpi.h>

#include <functional>

#include "mpi_layer.h"

namespace trestle::mpi {

class CommCreation {
 public:
  explicit CommCreation(MpiLayer& layer) : layer_(layer) {}

  // Runs `real` (the PMPI creation call, which fills *made) as described,
  // and registers *made unless it is MPI_COMM_NULL. Returns real's result.
  int Create(MPI_Comm parent, MPI_Comm* made, const std::function<int()>& real);
  // MPI_Comm_free: forgets it, then frees it.
  int Free(MPI_Comm* comm);

 private:
  // The real call and the new communicator's shadow.
  int RealCall(MPI_Comm* made, MPI_Comm* shadow, const std::function<int()>& real);

  MpiLayer& layer_;
};

}  // namespace trestle::mpi
