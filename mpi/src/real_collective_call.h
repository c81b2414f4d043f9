// RunAsBarrier: a collective call the layer does not model message by
// message, made for real (a communicator's creation, MPI-IO's collective
// calls), modelled as a barrier: a binomial fan-in of 8-byte messages to
// the communicator's rank 0, then a fan-out back.
//
// The real call waits, in real time, for every member to make it, and MPI
// has no nonblocking form of most such calls. So a member that has sent its
// fan-in message makes the real call inside a BlockedWindow (its app
// blocked: it holds no virtual time back), and then waits for its fan-out
// message before it goes on; rank 0, once every fan-in message is in, makes
// the real call as a running app and then sends the fan-out. While rank 0
// holds virtual time at its clock, every member has sent its fan-in message
// and is in (or entering) the real call, so none needs virtual time to
// move.
//
// Main thread only.
#pragma once

#include <cstdint>
#include <functional>

#include "mpi_layer.h"

namespace trestle::mpi {

// Runs `real` on this member of `c` as described, as collective instance
// c.instances++ (stored in *instance, if given). Returns real's result.
int RunAsBarrier(MpiLayer& layer, CommState& c, const std::function<int()>& real,
                 std::uint32_t* instance = nullptr);

}  // namespace trestle::mpi
