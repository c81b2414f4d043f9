// CommCreation: communicators made by a collective call over a parent
// (dup, split, create, cart), modelled as a barrier: a binomial fan-in of
// 8-byte messages to the parent's rank 0, then a fan-out back.
//
// The real creation waits, in real time, for every member to call it, and
// MPI has no nonblocking form of most of them. So a member that has sent
// its fan-in message makes the real call inside a BlockedWindow (its app
// blocked: it holds no virtual time back), and then waits for its fan-out
// message before it goes on; rank 0, once every fan-in message is in, makes
// the real call as a running app and then sends the fan-out. While rank 0
// holds virtual time at its clock, every member has sent its fan-in message
// and is in (or entering) the real call, so none needs virtual time to
// move. The new communicator gets its shadow (a duplicate) in the same
// window, and its id from CommRegistry::ChildId.
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
