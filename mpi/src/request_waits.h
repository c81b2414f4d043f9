// RequestWaits: MPI_Wait*, MPI_Test*, MPI_Request_free and MPI_Cancel over
// the requests the layer handed out (RequestTable, PersistentRequests), in
// virtual time.
//
// A send request is complete at once (its data was copied): completing it
// hands its real send to DetachedRequests if that is still going. A receive
// request is complete once its mirror has arrived (PointToPoint::Drive);
// completing it waits for the real data (sent before the mirror) and frees
// the real request. Waits block as the rank's lockstep app; tests first take
// what arrived by the rank's clock (SyncToNow), so their answer depends on
// virtual time only, and a test that finds nothing moves the clock by
// TRESTLE_MPI_POLL_NS. Where several requests are complete at the rank's
// time, waitany and testany pick the lowest index. Requests the layer did
// not hand out (MPI_REQUEST_NULL aside) go to the real MPI untouched.
//
// A persistent request stands, while active, for the request MPI_Start
// posted; completing that one leaves the handle valid and inactive. An
// inactive one counts as MPI_REQUEST_NULL does (complete, empty status).
//
// MPI_Cancel of a receive is decided in virtual time (PointToPoint::Cancel):
// a cancelled receive completes at once, its status saying so. A receive
// freed by MPI_Request_free goes on: the layer keeps following it, and
// waits for its real data once its mirror is here (at the next wait, test
// or free). MPI_Cancel of a send ends the run (not modelled: every send is
// complete at once in virtual time).
//
// Main thread only.
#pragma once

#include <mpi.h>

#include <memory>
#include <vector>

#include "mpi_layer.h"
#include "persistent_requests.h"
#include "request_table.h"

namespace trestle::mpi {

class RequestWaits {
 public:
  explicit RequestWaits(MpiLayer& layer) : layer_(layer) {}

  int Wait(MPI_Request* request, MPI_Status* status);
  int Waitall(int count, MPI_Request* requests, MPI_Status* statuses);
  int Waitany(int count, MPI_Request* requests, int* index, MPI_Status* status);
  int Waitsome(int count, MPI_Request* requests, int* outcount, int* indices,
               MPI_Status* statuses);
  int Test(MPI_Request* request, int* flag, MPI_Status* status);
  int Testall(int count, MPI_Request* requests, int* flag, MPI_Status* statuses);
  int Testany(int count, MPI_Request* requests, int* index, int* flag, MPI_Status* status);
  int Testsome(int count, MPI_Request* requests, int* outcount, int* indices,
               MPI_Status* statuses);
  // MPI_Request_get_status: as Test, without completing the request.
  int GetStatus(MPI_Request request, int* flag, MPI_Status* status);
  int RequestFree(MPI_Request* request);
  int Cancel(MPI_Request* request);

  PersistentRequests& persistent() { return persistent_; }

 private:
  enum class State { kInactive, kComplete, kPending };
  // What `request` stands for now: the request an active persistent one
  // posted, MPI_REQUEST_NULL for an inactive one, else itself.
  MPI_Request Operation(MPI_Request request);
  // Whether `request` is complete in virtual time (moving its receive on,
  // without waiting in Trestle). Untracked requests ask the real MPI.
  State Check(MPI_Request request);
  // Completes a request found complete: fills `status`, frees it, sets
  // *request to MPI_REQUEST_NULL (a persistent one: leaves it, inactive).
  int Complete(MPI_Request* request, MPI_Status* status);
  // Finishes the freed receives whose mirrors are here.
  void SweepFreed();
  // The lowest index complete now, -1 if none; `active` counts the others.
  int FirstComplete(int count, MPI_Request* requests, int* active);

  MpiLayer& layer_;
  PersistentRequests persistent_{layer_};
  // Receives freed (MPI_Request_free) before they completed.
  std::vector<std::unique_ptr<RealReceive>> freed_;
};

}  // namespace trestle::mpi
