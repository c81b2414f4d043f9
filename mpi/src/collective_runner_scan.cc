// CollectiveRunner, scan and exscan (collective_runner.h): the prefix moves
// by the layer's own messages along ScanPlan's chain, on the communicator's
// shadow. Rank r receives the prefix of the ranks below it once its mirror
// is here, combines its own data after it (PMPI_Reduce_local: the lower
// ranks' first, as MPI orders a scan for an operation that does not
// commute), and sends that on from a copy, so no rank waits on one that
// has not entered the call.
#include <memory>

#include "collective_runner.h"
#include "send_copy.h"

namespace trestle::mpi {

int CollectiveRunner::Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                           MPI_Op op, MPI_Comm comm) {
  return Prefix(sendbuf, recvbuf, count, type, op, comm, /*exclusive=*/false);
}

int CollectiveRunner::Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                             MPI_Op op, MPI_Comm comm) {
  return Prefix(sendbuf, recvbuf, count, type, op, comm, /*exclusive=*/true);
}

int CollectiveRunner::Prefix(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
                             MPI_Op op, MPI_Comm comm, bool exclusive) {
  CommState& c = layer_.Comm(comm);
  const CollectivePlan plan =
      PlanOrFail(ScanPlan(c.rank, c.size, Bytes(count, type), exclusive));
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  // Scan: recvbuf starts as this rank's data and the prefix comes into a
  // buffer of its own. Exscan: the prefix comes into recvbuf (the result),
  // and what goes on is a copy of this rank's data, taken first (in place,
  // recvbuf holds it).
  std::shared_ptr<SendCopy> passed_on;  // exscan: prefix op own
  std::shared_ptr<SendCopy> prefix;     // scan: the prefix from below
  void* into = recvbuf;
  if (exclusive) {
    passed_on = SendCopy::Of(mine, count, type);
  } else {
    if (sendbuf != MPI_IN_PLACE) {
      const int rc = CopyWithin(c, sendbuf, count, type, recvbuf, count, type);
      if (rc != MPI_SUCCESS) return rc;
    }
    prefix = SendCopy::Of(recvbuf, count, type);
    into = prefix->writable();
  }
  bool combined = c.rank == 0;  // rank 0 has no prefix to combine
  int rc = MPI_SUCCESS;
  auto combine = [&] {
    if (combined || count == 0) return;
    combined = true;
    const int done = exclusive ? PMPI_Reduce_local(recvbuf, passed_on->writable(), count, type, op)
                               : PMPI_Reduce_local(prefix->address(), recvbuf, count, type, op);
    if (done != MPI_SUCCESS) rc = done;
  };
  const int along = AlongPlan(c, plan, kScanTag, into, count, type, [&](int) {
    combine();
    return OwnSend{exclusive ? passed_on : SendCopy::Of(recvbuf, count, type), count, type};
  });
  if (!exclusive) combine();  // the last rank sends nothing on
  return along != MPI_SUCCESS ? along : rc;
}

}  // namespace trestle::mpi
