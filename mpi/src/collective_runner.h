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
//  - allgatherv and alltoallv as allgather and alltoall, and gather(v) as
//    reduce (real nonblocking collective; off the root, on a copy, detached);
//  - reduce-scatter (and its block form) and alltoallw as allreduce and
//    alltoall;
//  - scan and exscan: the data moves by the layer's own messages along the
//    chain, as bcast's, each rank combining its own (PMPI_Reduce_local);
//  - bcast and scatter(v): the data moves by the layer's own real
//    point-to-point messages along the mirrored plan (on the communicator's
//    shadow), each sent from a copy before its mirror and received once its
//    mirror arrived, so no rank waits on one that did not enter the call.
// A reduction step charges its bytes at TRESTLE_MPI_REDUCE_BW, if set.
// With collectives mirrored whole (MpiLayer::MirrorsCollectives), the plan
// goes to the batch instead of step by step, and the real collective is
// the program's blocking one (MpiLayer::BlockingReal; under an MPI without
// Open MPI's progress hook, nonblocking and MpiLayer::WaitReal); bcast and
// scatter, scan and exscan, whose data follows the plan's steps, are
// mirrored step by step still.
//
// Main thread only.
#pragma once

#include <mpi.h>

#include <functional>
#include <memory>
#include <vector>

#include "absl/functional/function_ref.h"
#include "algorithm_choice.h"
#include "collective_plan.h"
#include "mpi_layer.h"
#include "send_copy.h"

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
  int Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                 MPI_Comm comm);
  int Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
  int Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
  int Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
              const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
              MPI_Comm comm);
  int Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
              int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
  int Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
               MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
               int root, MPI_Comm comm);

  int Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
           MPI_Comm comm);
  int Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
             MPI_Comm comm);
  int ReduceScatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype type,
                    MPI_Op op, MPI_Comm comm);
  int ReduceScatterBlock(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype type,
                         MPI_Op op, MPI_Comm comm);
  int Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);

  // Mirrors `plan` as instance `instance` of `c` (whole, to the batch, when
  // the layer mirrors collectives so and there are no hooks): each step's sends (after
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
  // Tags of the layer's own data messages on a communicator's shadow.
  static constexpr int kBcastTag = 1;
  static constexpr int kScatterTag = 2;
  static constexpr int kScanTag = 3;
  static constexpr int kLocalCopyTag = 4;  // a rank's copy to itself

  // The plan for this call, or Fatal naming the collective and the problem.
  CollectivePlan PlanOrFail(absl::StatusOr<CollectivePlan> plan);
  // Mirrors `plan` around the real collective already posted (`posted`:
  // the post's return code; `real`: its request), then waits for it.
  int MirrorAndWait(CommState& c, const CollectivePlan& plan, int posted, MPI_Request real);
  // The collectives whose real call every member's mirrors wait behind:
  // mirrored whole under Open MPI (MpiLayer::BlocksInRealCalls), the plan
  // to the batch then the program's own `blocking` call; else the real
  // nonblocking one `post`ed, then MirrorAndWait.
  int RealAndMirrored(CommState& c, const CollectivePlan& plan, absl::FunctionRef<int()> blocking,
                      absl::FunctionRef<int(MPI_Request*)> post);
  // Alltoallv and alltoallw: `to[d]` bytes for rank d, by the alltoall
  // algorithm for their average.
  CollectivePlan AlltoallvPlanFor(const CommState& c, const std::vector<std::uint64_t>& to);
  std::uint64_t Bytes(int count, MPI_Datatype type) const;
  // Allgather, alltoall: the bytes of one block (in place: the receive's).
  std::uint64_t BlockBytes(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                           int recvcount, MPI_Datatype recvtype) const;
  // Reduce and gather: at the root, `post`s the real collective on `data`,
  // mirrors and waits; elsewhere posts it on a copy of `data` (count
  // elements of `type`), mirrors and detaches it.
  int ToRoot(CommState& c, int root, const CollectivePlan& plan, const void* data, int count,
             MPI_Datatype type, const std::function<int(const void*, MPI_Request*)>& post);
  // Bcast and scatter: the layer's own messages on c's shadow (tag `tag`)
  // along `plan`: receives into `into` what the plan receives (once its
  // mirror is here), sends each peer `block(peer)` before its mirror.
  struct OwnSend {
    std::shared_ptr<SendCopy> copy;
    int count = 0;
    MPI_Datatype type = MPI_BYTE;
  };
  int AlongPlan(CommState& c, const CollectivePlan& plan, int tag, void* into, int into_count,
                MPI_Datatype into_type, const std::function<OwnSend(int peer)>& block);
  // A copy within the rank by MPI's datatype engine: a message to itself
  // on c's shadow.
  int CopyWithin(const CommState& c, const void* from, int from_count, MPI_Datatype from_type,
                 void* to, int to_count, MPI_Datatype to_type);
  // Scan (`exclusive` false) and exscan along ScanPlan's chain.
  int Prefix(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
             MPI_Comm comm, bool exclusive);

  MpiLayer& layer_;
};

}  // namespace trestle::mpi
