// RequestTable: the requests the layer handed the program (MPI_Isend,
// MPI_Irecv) by their handle, which is the real MPI request's. A send's
// entry keeps the copy its real send reads; a receive's entry owns the
// RealReceive the ReceiveMatcher follows (and says whether MPI_Cancel
// cancelled it). Entries go when the program's wait or test completes the
// request, or MPI_Request_free frees it. Single-threaded.
#pragma once

#include <mpi.h>

#include <memory>

#include "absl/container/flat_hash_map.h"
#include "comm_registry.h"
#include "receive_op.h"
#include "send_copy.h"

namespace trestle::mpi {

// A receive the layer follows: the matcher's op plus its real request.
struct RealReceive : ReceiveOp {
  MPI_Request real = MPI_REQUEST_NULL;
  const CommState* comm = nullptr;
};

struct TrackedRequest {
  std::shared_ptr<SendCopy> send;        // a send (its data)
  std::unique_ptr<RealReceive> receive;  // or a receive
  bool cancelled = false;                // the receive was cancelled (complete)
};

class RequestTable {
 public:
  void AddSend(MPI_Request request, std::shared_ptr<SendCopy> copy) {
    entries_[request].send = std::move(copy);
  }
  RealReceive* AddReceive(MPI_Request request, std::unique_ptr<RealReceive> receive) {
    RealReceive* r = receive.get();
    entries_[request].receive = std::move(receive);
    return r;
  }
  TrackedRequest* Find(MPI_Request request) {
    auto it = entries_.find(request);
    return it == entries_.end() ? nullptr : &it->second;
  }
  // Takes the entry out (the caller destroys it when done).
  TrackedRequest Take(MPI_Request request) {
    auto it = entries_.find(request);
    TrackedRequest out = std::move(it->second);
    entries_.erase(it);
    return out;
  }
  std::size_t size() const { return entries_.size(); }
  // Every send request's real request and copy (at MPI_Finalize: sends the
  // program never waited for must still finish before their copies go).
  template <typename Fn>
  void ForEachSend(Fn&& fn) {
    for (auto& [request, entry] : entries_) {
      if (entry.send != nullptr) fn(request, entry.send);
    }
  }

 private:
  absl::flat_hash_map<MPI_Request, TrackedRequest> entries_;
};

}  // namespace trestle::mpi
