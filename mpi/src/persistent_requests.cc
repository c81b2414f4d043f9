#include "persistent_requests.h"

#include "absl/strings/str_cat.h"
#include "point_to_point.h"

namespace trestle::mpi {

int PersistentRequests::Init(const Operation& operation, MPI_Request* request) {
  const Operation& o = operation;
  // The real MPI checks the arguments as it makes the handle.
  const int rc = o.kind == Kind::kSend
                     ? PMPI_Send_init(o.buffer, o.count, o.type, o.peer, o.tag, o.comm, request)
                     : PMPI_Recv_init(o.buffer, o.count, o.type, o.peer, o.tag, o.comm, request);
  if (rc != MPI_SUCCESS) return rc;
  if (!table_.Add(*request, operation)) {
    Fatal(absl::StrCat(layer_.current_call(),
                       ": the real MPI handed out a request the layer holds already: a "
                       "libtrestle-mpi bug"));
  }
  return MPI_SUCCESS;
}

int PersistentRequests::Start(MPI_Request* request) {
  Table::Entry* e = *request == MPI_REQUEST_NULL ? nullptr : table_.Find(*request);
  if (e == nullptr) return PMPI_Start(request);
  if (e->posted.has_value()) {
    Fatal(absl::StrCat(layer_.current_call(),
                       " of a persistent request that is active (started and not completed by "
                       "a wait or test): erroneous in MPI"));
  }
  const Operation& o = e->operation;
  MPI_Request posted = MPI_REQUEST_NULL;
  PointToPoint& p2p = layer_.p2p();
  const int rc = o.kind == Kind::kSend
                     ? p2p.Send(o.buffer, o.count, o.type, o.peer, o.tag, o.comm, &posted)
                     : p2p.Recv(o.buffer, o.count, o.type, o.peer, o.tag, o.comm, &posted,
                                MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) return rc;
  table_.Start(*request, posted);
  return MPI_SUCCESS;
}

std::optional<MPI_Request> PersistentRequests::Free(MPI_Request* handle) {
  std::optional<MPI_Request> posted = table_.Erase(*handle);
  PMPI_Request_free(handle);  // never started: the real MPI frees it at once
  return posted;
}

}  // namespace trestle::mpi
