// CollectiveRunner, the collectives with a root (collective_runner.h):
// reduce and gather post the real collective (on a copy of the rank's data
// off the root, which then detaches it); bcast and scatter move their data
// with the layer's own messages along the mirrored plan.
#include <vector>

#include "collective_runner.h"
#include "send_copy.h"

namespace trestle::mpi {

int CollectiveRunner::ToRoot(CommState& c, int root, const CollectivePlan& plan,
                             const void* data, int count, MPI_Datatype type,
                             const std::function<int(const void*, MPI_Request*)>& post) {
  MPI_Request real = MPI_REQUEST_NULL;
  if (c.rank == root) {
    const int posted = post(data, &real);
    return MirrorAndWait(c, plan, posted, real);
  }
  std::shared_ptr<SendCopy> copy = SendCopy::Of(data, count, type);
  const int rc = post(copy->address(), &real);
  if (rc != MPI_SUCCESS) return rc;
  Mirror(c, c.instances++, plan, real);
  layer_.detached().Add(real, std::move(copy));
  return MPI_SUCCESS;
}

int CollectiveRunner::CopyWithin(const CommState& c, const void* from, int from_count,
                                 MPI_Datatype from_type, void* to, int to_count,
                                 MPI_Datatype to_type) {
  return PMPI_Sendrecv(from, from_count, from_type, c.rank, kLocalCopyTag, to, to_count, to_type,
                       c.rank, kLocalCopyTag, c.shadow, MPI_STATUS_IGNORE);
}

int CollectiveRunner::AlongPlan(CommState& c, const CollectivePlan& plan, int tag, void* into,
                                int into_count, MPI_Datatype into_type,
                                const std::function<OwnSend(int peer)>& block) {
  // Off the root, the data comes from the one peer the plan receives from.
  MPI_Request from_parent = MPI_REQUEST_NULL;
  for (const PlanStep& step : plan) {
    for (const PlanRecv& r : step.recvs) {
      const int rc = PMPI_Irecv(into, into_count, into_type, r.peer, tag, c.shadow, &from_parent);
      if (rc != MPI_SUCCESS) return rc;
    }
  }
  int rc = MPI_SUCCESS;
  Hooks hooks;
  hooks.after_receive = [&](int) { rc = PMPI_Wait(&from_parent, MPI_STATUS_IGNORE); };
  hooks.before_send = [&](int peer) {
    const OwnSend s = block(peer);
    MPI_Request real = MPI_REQUEST_NULL;
    const int sent = PMPI_Isend(s.copy->address(), s.count, s.type, peer, tag, c.shadow, &real);
    if (sent != MPI_SUCCESS) rc = sent;
    layer_.detached().Add(real, s.copy);
  };
  Mirror(c, c.instances++, plan, MPI_REQUEST_NULL, hooks);
  return rc;
}

int CollectiveRunner::Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                             MPI_Op op, int root, MPI_Comm comm) {
  CommState& c = layer_.Comm(comm);
  int commutative = 1;
  PMPI_Op_commutative(op, &commutative);
  const std::uint64_t bytes = Bytes(count, type);
  const Algorithm a =
      layer_.options().algorithms.For(Collective::kReduce, c.size, bytes, commutative != 0);
  const CollectivePlan plan = PlanOrFail(ReducePlan(a, c.rank, c.size, root, bytes));
  return ToRoot(c, root, plan, sendbuf, count, type, [&](const void* data, MPI_Request* real) {
    return PMPI_Ireduce(data, recvbuf, count, type, op, root, comm, real);
  });
}

int CollectiveRunner::Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                              void* recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CommState& c = layer_.Comm(comm);
  std::vector<std::uint64_t> bytes(c.size, 0);
  bytes[c.rank] = Bytes(sendcount, sendtype);  // only the root receives
  const CollectivePlan plan = PlanOrFail(GatherPlan(c.rank, c.size, root, bytes));
  return ToRoot(c, root, plan, sendbuf, sendcount, sendtype,
                [&](const void* data, MPI_Request* real) {
                  return PMPI_Igatherv(data, sendcount, sendtype, recvbuf, recvcounts, displs,
                                       recvtype, root, comm, real);
                });
}

int CollectiveRunner::Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm) {
  CommState& c = layer_.Comm(comm);
  std::vector<std::uint64_t> bytes(c.size, 0);
  bytes[c.rank] = Bytes(sendcount, sendtype);
  const CollectivePlan plan = PlanOrFail(GatherPlan(c.rank, c.size, root, bytes));
  return ToRoot(c, root, plan, sendbuf, sendcount, sendtype,
                [&](const void* data, MPI_Request* real) {
                  return PMPI_Igather(data, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                      root, comm, real);
                });
}

int CollectiveRunner::Bcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  CommState& c = layer_.Comm(comm);
  const std::uint64_t bytes = Bytes(count, type);
  const Algorithm a = layer_.options().algorithms.For(Collective::kBcast, c.size, bytes, true);
  const CollectivePlan plan = PlanOrFail(BcastPlan(a, c.rank, c.size, root, bytes));
  std::shared_ptr<SendCopy> copy;  // made once, after the data is here
  return AlongPlan(c, plan, kBcastTag, buffer, count, type, [&](int) {
    if (copy == nullptr) copy = SendCopy::Of(buffer, count, type);
    return OwnSend{copy, count, type};
  });
}

int CollectiveRunner::Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                               MPI_Datatype sendtype, void* recvbuf, int recvcount,
                               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CommState& c = layer_.Comm(comm);
  std::vector<std::uint64_t> bytes(c.size, 0);
  MPI_Aint lb = 0, extent = 0;
  if (c.rank == root) {
    for (int r = 0; r < c.size; ++r) bytes[r] = Bytes(sendcounts[r], sendtype);
    PMPI_Type_get_extent(sendtype, &lb, &extent);
  }
  const CollectivePlan plan = PlanOrFail(ScatterPlan(c.rank, c.size, root, bytes));
  auto block = [&](int peer) {
    const char* at = static_cast<const char*>(sendbuf) + displs[peer] * extent;
    return OwnSend{SendCopy::Of(at, sendcounts[peer], sendtype), sendcounts[peer], sendtype};
  };
  if (c.rank == root && recvbuf != MPI_IN_PLACE) {
    // The root's own block is a copy within the rank.
    const char* at = static_cast<const char*>(sendbuf) + displs[root] * extent;
    const int rc = CopyWithin(c, at, sendcounts[root], sendtype, recvbuf, recvcount, recvtype);
    if (rc != MPI_SUCCESS) return rc;
  }
  return AlongPlan(c, plan, kScatterTag, recvbuf, recvcount, recvtype, block);
}

int CollectiveRunner::Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                              void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                              MPI_Comm comm) {
  CommState& c = layer_.Comm(comm);
  const std::vector<int> counts(c.size, sendcount);
  std::vector<int> displs(c.size);
  for (int r = 0; r < c.size; ++r) displs[r] = r * sendcount;
  return Scatterv(sendbuf, counts.data(), displs.data(), sendtype, recvbuf, recvcount, recvtype,
                  root, comm);
}

}  // namespace trestle::mpi
