// PointToPoint: sends, receives and probes, mirrored.
//
// A send copies its data (SendCopy), starts the real send from the copy,
// then mirrors the message at the rank's clock; the program's send is
// complete at once, in virtual time as in its view (a buffered send), and
// the real send finishes on its own (DetachedRequests, or the program's
// request). A receive posts the real receive at once and is followed by
// the ReceiveMatcher; it completes, in virtual time, when the mirror of the
// real message it took has arrived (the clock then is at least that
// mirror's t_deliver), and then waits for the real data, which was sent
// before its mirror. A blocking receive from MPI_ANY_SOURCE (or with
// MPI_ANY_TAG), and a probe, are decided by the mirrors when no pending
// receive could take what they match: the first mirror they match, in the
// model's order, names the message, and the real receive (or probe) asks
// for that one; so ANY_SOURCE programs are deterministic in virtual time.
// Otherwise (an MPI_Irecv from MPI_ANY_SOURCE, or receives pending that
// overlap) the real MPI decides and the mirrors follow it. A matched probe
// is decided as a probe is, and takes the message's mirror with it.
//
// Loop thread only (the rank's main thread). See mpi_layer.h for the waits.
#pragma once

#include <mpi.h>

#include <memory>

#include "absl/container/flat_hash_map.h"
#include "mpi_layer.h"
#include "request_table.h"

namespace trestle::mpi {

class PointToPoint {
 public:
  explicit PointToPoint(MpiLayer& layer) : layer_(layer) {}

  // `request` null: a blocking send (its real send is detached).
  int Send(const void* buffer, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
           MPI_Request* request);
  // `request` null: a blocking receive, complete with `status` on return.
  int Recv(void* buffer, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
           MPI_Request* request, MPI_Status* status);
  // `flag` null: a blocking probe (MPI_Probe). `message` set: a matched
  // probe (MPI_Mprobe, MPI_Improbe), which takes the message it finds, and
  // its mirror, for MatchedRecv.
  int Probe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status,
            MPI_Message* message = nullptr);
  // MPI_Mrecv (`request` null) or MPI_Imrecv of a message a matched probe
  // took: complete at once in virtual time (its mirror is here).
  int MatchedRecv(void* buffer, int count, MPI_Datatype type, MPI_Message* message,
                  MPI_Request* request, MPI_Status* status);

  // Moves `op` towards kReady without waiting in Trestle: resolves it, and
  // waits for real receives only when that is safe. True once ready.
  bool Drive(RealReceive& op);
  // Waits (Block) until `op` is ready.
  void WaitReady(RealReceive& op);
  // MPI_Cancel of a receive, decided in virtual time: it fails (false: the
  // receive completes as usual) when the message it takes has arrived by
  // the rank's clock, its mirror here after SyncToNow; else the real
  // receive is cancelled and `op` withdrawn from the matcher (true), so the
  // mirror it was owed goes to the next receive of its key. Fatal when the
  // real MPI had already given it a message whose mirror is due later: MPI
  // would have it both ways by wall-clock timing.
  bool Cancel(RealReceive& op);

 private:
  // Waits for op's real receive to complete, without freeing it, and
  // records which message it took.
  void LearnRealKey(RealReceive& op);
  // A wildcard pattern (*source, *tag) decided by the mirrors: if they may
  // decide it (ReceiveMatcher::MirrorsDecide), waits (Block, or with !wait
  // only up to the rank's clock) for the first mirror it matches and makes
  // the pattern that message's source and tag. False when it stays as it
  // was (the real MPI decides, or !wait and nothing by then).
  bool DecideByMirrors(const CommState& c, int* source, int* tag, bool wait = true);
  std::unique_ptr<RealReceive> Follow(const CommState& c, int source, int tag);

  MpiLayer& layer_;
  // Messages matched probes took, with their mirrors, until received.
  absl::flat_hash_map<MPI_Message, std::unique_ptr<RealReceive>> matched_;
};

}  // namespace trestle::mpi
