#include "collective_runner.h"

#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "send_copy.h"

namespace trestle::mpi {
std::uint64_t CollectiveRunner::Bytes(int count, MPI_Datatype type) const {
  int size = 0;
  PMPI_Type_size(type, &size);
  return static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size);
}

std::uint64_t CollectiveRunner::BlockBytes(const void* sendbuf, int sendcount,
                                           MPI_Datatype sendtype, int recvcount,
                                           MPI_Datatype recvtype) const {
  return sendbuf == MPI_IN_PLACE ? Bytes(recvcount, recvtype) : Bytes(sendcount, sendtype);
}

CollectivePlan CollectiveRunner::PlanOrFail(absl::StatusOr<CollectivePlan> plan) {
  if (!plan.ok()) {
    Fatal(absl::StrCat(layer_.current_call(), ": ", plan.status().message(),
                       " (TRESTLE_MPI_COLL, trestle mpirun --coll)"));
  }
  return *std::move(plan);
}

void CollectiveRunner::Mirror(const CommState& c, std::uint32_t instance,
                              const CollectivePlan& plan, MPI_Request real, const Hooks& hooks) {
  // Whole, unless the layer's own messages move along the plan.
  if (layer_.MirrorsCollectives() && !hooks.before_send && !hooks.after_receive) {
    layer_.MirrorCollective(c, instance, plan);
    return;
  }
  MirrorInbox& inbox = layer_.inbox();
  auto poll = [real] {
    if (real == MPI_REQUEST_NULL) return false;
    int done = 0;
    PMPI_Request_get_status(real, &done, MPI_STATUS_IGNORE);
    return !done;
  };
  for (const PlanStep& step : plan) {
    for (const PlanSend& s : step.sends) {
      if (hooks.before_send) hooks.before_send(s.peer);
      layer_.MirrorStep(c, s.peer, instance, s.label, s.bytes);
    }
    layer_.Block(
        [&] {
          for (const PlanRecv& r : step.recvs) {
            if (!inbox.HasStep(c.id, instance, r.label, c.world_of[r.peer])) return false;
          }
          return true;
        },
        poll);
    for (const PlanRecv& r : step.recvs) {
      inbox.TakeStep(c.id, instance, r.label, c.world_of[r.peer]);
      if (hooks.after_receive) hooks.after_receive(r.peer);
    }
    const double bw = layer_.options().reduce_bytes_per_second;
    if (step.reduce_bytes != 0 && bw > 0) {
      layer_.link().Advance(static_cast<std::uint64_t>(
          std::llround(static_cast<double>(step.reduce_bytes) * 1e9 / bw)));
    }
  }
}

int CollectiveRunner::MirrorAndWait(CommState& c, const CollectivePlan& plan, int posted,
                                    MPI_Request real) {
  if (posted != MPI_SUCCESS) return posted;
  Mirror(c, c.instances++, plan, real);
  return layer_.MirrorsCollectives() ? layer_.WaitReal(&real) : PMPI_Wait(&real, MPI_STATUS_IGNORE);
}

int CollectiveRunner::RealAndMirrored(CommState& c, const CollectivePlan& plan,
                                      absl::FunctionRef<int()> blocking,
                                      absl::FunctionRef<int(MPI_Request*)> post) {
  if (layer_.BlocksInRealCalls()) {
    layer_.MirrorCollective(c, c.instances++, plan);
    return layer_.BlockingReal(blocking);
  }
  MPI_Request real = MPI_REQUEST_NULL;
  const int posted = post(&real);
  return MirrorAndWait(c, plan, posted, real);
}

int CollectiveRunner::Barrier(MPI_Comm comm) {
  CommState& c = layer_.Comm(comm);
  const Algorithm a = layer_.options().algorithms.For(Collective::kBarrier, c.size, 0, true);
  const CollectivePlan plan = PlanOrFail(BarrierPlan(a, c.rank, c.size));
  return RealAndMirrored(
      c, plan, [&] { return PMPI_Barrier(comm); },
      [&](MPI_Request* real) { return PMPI_Ibarrier(comm, real); });
}

int CollectiveRunner::Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                                MPI_Op op, MPI_Comm comm) {
  CommState& c = layer_.Comm(comm);
  int commutative = 1;
  PMPI_Op_commutative(op, &commutative);
  int type_size = 0;
  PMPI_Type_size(type, &type_size);
  const std::uint64_t bytes = Bytes(count, type);
  const Algorithm a =
      layer_.options().algorithms.For(Collective::kAllreduce, c.size, bytes, commutative != 0);
  const CollectivePlan plan = PlanOrFail(AllreducePlan(
      a, c.rank, c.size, static_cast<std::uint64_t>(count), static_cast<std::uint64_t>(type_size)));
  return RealAndMirrored(
      c, plan, [&] { return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm); },
      [&](MPI_Request* real) {
        return PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, real);
      });
}

int CollectiveRunner::Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm) {
  CommState& c = layer_.Comm(comm);
  const std::uint64_t block = BlockBytes(sendbuf, sendcount, sendtype, recvcount, recvtype);
  const Algorithm a = layer_.options().algorithms.For(Collective::kAllgather, c.size, block, true);
  const CollectivePlan plan = PlanOrFail(AllgatherPlan(a, c.rank, c.size, block));
  return RealAndMirrored(
      c, plan,
      [&] {
        return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
      },
      [&](MPI_Request* real) {
        return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                               real);
      });
}

int CollectiveRunner::Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                               void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  CommState& c = layer_.Comm(comm);
  const std::uint64_t block = BlockBytes(sendbuf, sendcount, sendtype, recvcount, recvtype);
  const Algorithm a = layer_.options().algorithms.For(Collective::kAlltoall, c.size, block, true);
  const CollectivePlan plan = PlanOrFail(AlltoallPlan(a, c.rank, c.size, block));
  return RealAndMirrored(
      c, plan,
      [&] {
        return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
      },
      [&](MPI_Request* real) {
        return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              real);
      });
}

int CollectiveRunner::Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void* recvbuf, const int recvcounts[], const int displs[],
                                 MPI_Datatype recvtype, MPI_Comm comm) {
  CommState& c = layer_.Comm(comm);
  std::vector<std::uint64_t> bytes(c.size);
  for (int r = 0; r < c.size; ++r) bytes[r] = Bytes(recvcounts[r], recvtype);
  const CollectivePlan plan = PlanOrFail(AllgathervPlan(c.rank, c.size, bytes));
  return RealAndMirrored(
      c, plan,
      [&] {
        return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                               comm);
      },
      [&](MPI_Request* real) {
        return PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                                comm, real);
      });
}

CollectivePlan CollectiveRunner::AlltoallvPlanFor(const CommState& c,
                                                 const std::vector<std::uint64_t>& to) {
  std::uint64_t total = 0;
  for (std::uint64_t bytes : to) total += bytes;
  const Algorithm a = layer_.options().algorithms.For(
      Collective::kAlltoall, c.size, total / static_cast<std::uint64_t>(c.size), true);
  return PlanOrFail(AlltoallvPlan(a, c.rank, c.size, to));
}

int CollectiveRunner::Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  CommState& c = layer_.Comm(comm);
  // In place, what this rank sends each is what it receives from each.
  const int* counts = sendbuf == MPI_IN_PLACE ? recvcounts : sendcounts;
  const MPI_Datatype type = sendbuf == MPI_IN_PLACE ? recvtype : sendtype;
  std::vector<std::uint64_t> to(c.size);
  for (int r = 0; r < c.size; ++r) to[r] = Bytes(counts[r], type);
  const CollectivePlan plan = AlltoallvPlanFor(c, to);
  return RealAndMirrored(
      c, plan,
      [&] {
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                              recvtype, comm);
      },
      [&](MPI_Request* real) {
        return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                               recvtype, comm, real);
      });
}

int CollectiveRunner::ReduceScatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                                    MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  CommState& c = layer_.Comm(comm);
  std::vector<std::uint64_t> bytes(c.size);
  for (int r = 0; r < c.size; ++r) bytes[r] = Bytes(recvcounts[r], type);
  const CollectivePlan plan = PlanOrFail(ReduceScatterPlan(c.rank, c.size, bytes));
  return RealAndMirrored(
      c, plan, [&] { return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm); },
      [&](MPI_Request* real) {
        return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm, real);
      });
}

int CollectiveRunner::ReduceScatterBlock(const void* sendbuf, void* recvbuf, int recvcount,
                                         MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  CommState& c = layer_.Comm(comm);
  const std::vector<std::uint64_t> bytes(c.size, Bytes(recvcount, type));
  const CollectivePlan plan = PlanOrFail(ReduceScatterPlan(c.rank, c.size, bytes));
  return RealAndMirrored(
      c, plan,
      [&] { return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm); },
      [&](MPI_Request* real) {
        return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm, real);
      });
}

int CollectiveRunner::Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                const MPI_Datatype sendtypes[], void* recvbuf,
                                const int recvcounts[], const int rdispls[],
                                const MPI_Datatype recvtypes[], MPI_Comm comm) {
  CommState& c = layer_.Comm(comm);
  // In place, what this rank sends each is what it receives from each.
  const bool in_place = sendbuf == MPI_IN_PLACE;
  std::vector<std::uint64_t> to(c.size);
  for (int r = 0; r < c.size; ++r) {
    to[r] = in_place ? Bytes(recvcounts[r], recvtypes[r]) : Bytes(sendcounts[r], sendtypes[r]);
  }
  const CollectivePlan plan = AlltoallvPlanFor(c, to);
  return RealAndMirrored(
      c, plan,
      [&] {
        return PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                              recvtypes, comm);
      },
      [&](MPI_Request* real) {
        return PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                               rdispls, recvtypes, comm, real);
      });
}

}  // namespace trestle::mpi
