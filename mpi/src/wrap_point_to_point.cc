// Point-to-point entry points: every send mode as a buffered send (the
// layer copies the data; MPI_Ssend and MPI_Rsend are not synchronous in
// virtual time: docs/mpi.md), receives, MPI_Sendrecv(_replace), probes and
// matched probes.
#include <mpi.h>

#include "mpi_layer.h"
#include "point_to_point.h"
#include "send_copy.h"

using trestle::mpi::CallScope;

extern "C" {

#define TRESTLE_SEND(NAME, PNAME)                                                             \
  int NAME(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) { \
    CallScope scope(#NAME);                                                                    \
    if (scope.layer() == nullptr) return PNAME(buf, count, type, dest, tag, comm);             \
    return scope.layer()->p2p().Send(buf, count, type, dest, tag, comm, nullptr);              \
  }
TRESTLE_SEND(MPI_Send, PMPI_Send)
TRESTLE_SEND(MPI_Ssend, PMPI_Ssend)
TRESTLE_SEND(MPI_Rsend, PMPI_Rsend)
TRESTLE_SEND(MPI_Bsend, PMPI_Bsend)
#undef TRESTLE_SEND

#define TRESTLE_ISEND(NAME, PNAME)                                                          \
  int NAME(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, \
           MPI_Request* request) {                                                           \
    CallScope scope(#NAME);                                                                  \
    if (scope.layer() == nullptr) return PNAME(buf, count, type, dest, tag, comm, request);  \
    return scope.layer()->p2p().Send(buf, count, type, dest, tag, comm, request);            \
  }
TRESTLE_ISEND(MPI_Isend, PMPI_Isend)
TRESTLE_ISEND(MPI_Issend, PMPI_Issend)
TRESTLE_ISEND(MPI_Irsend, PMPI_Irsend)
TRESTLE_ISEND(MPI_Ibsend, PMPI_Ibsend)
#undef TRESTLE_ISEND

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status* status) {
  CallScope scope("MPI_Recv");
  if (scope.layer() == nullptr) return PMPI_Recv(buf, count, type, source, tag, comm, status);
  return scope.layer()->p2p().Recv(buf, count, type, source, tag, comm, nullptr, status);
}

int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  CallScope scope("MPI_Irecv");
  if (scope.layer() == nullptr) return PMPI_Irecv(buf, count, type, source, tag, comm, request);
  return scope.layer()->p2p().Recv(buf, count, type, source, tag, comm, request,
                                   MPI_STATUS_IGNORE);
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status* status) {
  CallScope scope("MPI_Sendrecv");
  if (scope.layer() == nullptr) {
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                         recvtype, source, recvtag, comm, status);
  }
  trestle::mpi::PointToPoint& p2p = scope.layer()->p2p();
  const int rc = p2p.Send(sendbuf, sendcount, sendtype, dest, sendtag, comm, nullptr);
  if (rc != MPI_SUCCESS) return rc;
  return p2p.Recv(recvbuf, recvcount, recvtype, source, recvtag, comm, nullptr, status);
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  CallScope scope("MPI_Sendrecv_replace");
  if (scope.layer() == nullptr) {
    return PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);
  }
  // The send reads its own copy, so the receive may overwrite the buffer.
  trestle::mpi::PointToPoint& p2p = scope.layer()->p2p();
  const int rc = p2p.Send(buf, count, type, dest, sendtag, comm, nullptr);
  if (rc != MPI_SUCCESS) return rc;
  return p2p.Recv(buf, count, type, source, recvtag, comm, nullptr, status);
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  CallScope scope("MPI_Probe");
  if (scope.layer() == nullptr) return PMPI_Probe(source, tag, comm, status);
  return scope.layer()->p2p().Probe(source, tag, comm, nullptr, status);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  CallScope scope("MPI_Iprobe");
  if (scope.layer() == nullptr) return PMPI_Iprobe(source, tag, comm, flag, status);
  return scope.layer()->p2p().Probe(source, tag, comm, flag, status);
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  CallScope scope("MPI_Mprobe");
  if (scope.layer() == nullptr) return PMPI_Mprobe(source, tag, comm, message, status);
  return scope.layer()->p2p().Probe(source, tag, comm, nullptr, status, message);
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message,
                MPI_Status* status) {
  CallScope scope("MPI_Improbe");
  if (scope.layer() == nullptr) return PMPI_Improbe(source, tag, comm, flag, message, status);
  return scope.layer()->p2p().Probe(source, tag, comm, flag, status, message);
}

int MPI_Mrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status) {
  CallScope scope("MPI_Mrecv");
  if (scope.layer() == nullptr) return PMPI_Mrecv(buf, count, type, message, status);
  return scope.layer()->p2p().MatchedRecv(buf, count, type, message, nullptr, status);
}

int MPI_Imrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message,
               MPI_Request* request) {
  CallScope scope("MPI_Imrecv");
  if (scope.layer() == nullptr) return PMPI_Imrecv(buf, count, type, message, request);
  return scope.layer()->p2p().MatchedRecv(buf, count, type, message, request, MPI_STATUS_IGNORE);
}

}  // extern "C"
