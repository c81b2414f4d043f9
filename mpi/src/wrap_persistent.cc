// Persistent request entry points: the *_init calls keep the arguments,
// MPI_Start posts them as the layer's MPI_Isend or MPI_Irecv
// (PersistentRequests); the waits and tests complete them (RequestWaits).
// Every send mode is the layer's buffered send, as MPI_Isend's forms are.
#include <mpi.h>

#include "mpi_layer.h"
#include "persistent_requests.h"
#include "request_waits.h"

using trestle::mpi::CallScope;
using trestle::mpi::PersistentRequests;

extern "C" {

#define TRESTLE_SEND_INIT(NAME, PNAME)                                                        \
  int NAME(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,   \
           MPI_Request* request) {                                                             \
    CallScope scope(#NAME);                                                                    \
    if (scope.layer() == nullptr) return PNAME(buf, count, type, dest, tag, comm, request);    \
    PersistentRequests::Operation o{PersistentRequests::Kind::kSend, const_cast<void*>(buf),   \
                                    count, type, dest, tag, comm};                             \
    return scope.layer()->waits().persistent().Init(o, request);                               \
  }
TRESTLE_SEND_INIT(MPI_Send_init, PMPI_Send_init)
TRESTLE_SEND_INIT(MPI_Bsend_init, PMPI_Bsend_init)
TRESTLE_SEND_INIT(MPI_Ssend_init, PMPI_Ssend_init)
TRESTLE_SEND_INIT(MPI_Rsend_init, PMPI_Rsend_init)
#undef TRESTLE_SEND_INIT

int MPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  CallScope scope("MPI_Recv_init");
  if (scope.layer() == nullptr) {
    return PMPI_Recv_init(buf, count, type, source, tag, comm, request);
  }
  PersistentRequests::Operation o{PersistentRequests::Kind::kReceive, buf, count, type, source,
                                  tag, comm};
  return scope.layer()->waits().persistent().Init(o, request);
}

int MPI_Start(MPI_Request* request) {
  CallScope scope("MPI_Start");
  if (scope.layer() == nullptr) return PMPI_Start(request);
  return scope.layer()->waits().persistent().Start(request);
}

int MPI_Startall(int count, MPI_Request requests[]) {
  CallScope scope("MPI_Startall");
  if (scope.layer() == nullptr) return PMPI_Startall(count, requests);
  for (int i = 0; i < count; ++i) {
    const int rc = scope.layer()->waits().persistent().Start(&requests[i]);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

}  // extern "C"
