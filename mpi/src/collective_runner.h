// CollectiveRunner: the modelled collectives. Each call mirrors its
// algorithm's point-to-point pattern (CollectivePlan, chosen by
// AlgorithmChoice) as collective instance N of its communicator, while the
// real MPI moves the data:
//  - barrier, allreduce, allgather, alltoall, and reduce at its root: the
//    real nonblocking collective is posted first, the plan mirrored (its
//    real request polled between mirrors), then the real collective waited
//    for. Every member has posted it by then (each one's mirrors depend on
//    every other's), so it completes with no rank's virtual progress.
//  - reduce off the root: the rank's data is copied, the real reduction
//    posted on the copy and detached: the rank has nothing to wait for.
//  - bcast: the data moves by the layer's own real point-to-point messages
//    along the mirrored tree (on the communicator's shadow), each sent from
//    a copy before its mirror and received once its mirror arrived, so no
//    rank waits on one that did not enter the bcast yet.
// A reduction step charges its bytes at TRESTLE_MPI_REDUCE_BW, if set.
//
// Main thread only.
#pragma once

#include <mpi.h>

#include <functional>

#include "algorithm_choice.h"
#include "collective_plan.h"
#include "mpi_layer.h"

namespace trestle::mpi {

class CollectiveRunner {
 public:
  explicit CollectiveRunner(MpiLayer& layer) : layer_(layer) {}

  int Barrier(MPI_Comm comm);
  int Bcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm);
  int Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
             int root, MPI_Comm comm);
  int Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                MPI_Comm comm);
  int Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
  int Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
               int recvcount, MPI_Datatype recvtype, MPI_Comm comm);

  // Mirrors `plan` as instance `instance` of `c`: each step's sends (after
  // `before_send(peer)`), then its receives (then `after_receive(peer)`
  // for each), then its reduction charge. `real` (may be null) is polled
  // between mirrors for progress.
  struct Hooks {
    std::function<void(int peer)> before_send;
    std::function<void(int peer)> after_receive;
  };
  void Mirror(const CommState& c, std::uint32_t instance, const CollectivePlan& plan,
              MPI_Request real, const Hooks& hooks = {});

 private:
  // The plan for this call, or Fatal naming the collective and the problem.
  CollectivePlan PlanOrFail(absl::StatusOr<CollectivePlan> plan);
  // Mirrors `plan` around the real collective already posted (`posted`:
  // the post's return code; `real`: its request), then waits for it.
  int MirrorAndWait(CommState& c, const CollectivePlan& plan, int posted, MPI_Request real);
  std::uint64_t Bytes(int count, MPI_Datatype type) const;

  MpiLayer& layer_;
};

}  // namespace trestle::mpi
