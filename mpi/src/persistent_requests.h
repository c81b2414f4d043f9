// PersistentRequests: MPI_Send_init (and its Bsend, Ssend, Rsend forms),
// MPI_Recv_init, MPI_Start and MPI_Startall, over the layer's own sends and
// receives.
//
// The program's handle is a real persistent request the layer makes with
// the same arguments and never starts (so it is a valid, unique MPI
// request, inactive in the real MPI's view too). The layer keeps the
// arguments (PersistentTable); MPI_Start posts the equivalent nonblocking
// operation through PointToPoint (an MPI_Isend or MPI_Irecv, mirrored with
// its real size at the start) and records the request it got. RequestWaits
// looks through an active handle to that request: a wait or test that
// completes it leaves the handle valid and inactive; an inactive one waits
// and tests as complete, with an empty status. Every send mode is the
// layer's buffered send (docs/mpi.md), its data copied at MPI_Start.
//
// Main thread only.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>

#include "mpi_layer.h"
#include "persistent_table.h"

namespace trestle::mpi {

class PersistentRequests {
 public:
  enum class Kind : std::uint8_t { kSend, kReceive };
  // The arguments of the *_init call.
  struct Operation {
    Kind kind = Kind::kSend;
    void* buffer = nullptr;
    int count = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    int peer = MPI_PROC_NULL;  // dest or source
    int tag = 0;
    MPI_Comm comm = MPI_COMM_NULL;
  };
  using Table = PersistentTable<MPI_Request, Operation>;

  explicit PersistentRequests(MpiLayer& layer) : layer_(layer) {}

  // MPI_*_init: makes the handle (*request), inactive.
  int Init(const Operation& operation, MPI_Request* request);
  // MPI_Start: posts the operation. A handle that is no persistent request
  // of the layer's goes to the real MPI; one already active ends the run.
  int Start(MPI_Request* request);

  // The handle's entry, or null if it is not a persistent request.
  Table::Entry* Find(MPI_Request handle) { return table_.Find(handle); }
  // The request MPI_Start posted was completed: inactive again.
  void Finish(MPI_Request handle) { table_.Finish(handle); }
  // MPI_Request_free of a persistent handle: frees it (*handle becomes
  // MPI_REQUEST_NULL) and returns the request it had posted, if active,
  // which the caller frees as MPI_Request_free does.
  std::optional<MPI_Request> Free(MPI_Request* handle);

 private:
  MpiLayer& layer_;
  Table table_;
};

}  // namespace trestle::mpi
