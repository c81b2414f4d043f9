// PersistentTable: the persistent requests a program made (MPI_Send_init,
// MPI_Recv_init, ...), by the handle the program holds: each one's
// operation (its arguments), and whether it is active: from MPI_Start,
// which posts the operation and records the request it got, to the wait or
// test that completes that request (or MPI_Request_free, which hands it
// on). An inactive request waits and tests as complete with an empty
// status; its handle stays valid until MPI_Request_free.
//
// MPI-free (Request is MPI_Request in the layer). Single-threaded.
#pragma once

#include <optional>

#include "absl/container/flat_hash_map.h"

namespace trestle::mpi {

template <typename Request, typename Operation>
class PersistentTable {
 public:
  struct Entry {
    Operation operation;
    std::optional<Request> posted;  // set while active
  };

  // A persistent request made: `handle` is new (false if already here).
  bool Add(Request handle, Operation operation) {
    return entries_.emplace(handle, Entry{std::move(operation), std::nullopt}).second;
  }
  // Its entry, or null for a handle that is not a persistent request.
  Entry* Find(Request handle) {
    auto it = entries_.find(handle);
    return it == entries_.end() ? nullptr : &it->second;
  }
  // MPI_Start posted `posted` for `handle`: false (nothing changes) if it
  // was active already, which MPI calls erroneous.
  bool Start(Request handle, Request posted) {
    Entry* e = Find(handle);
    if (e == nullptr || e->posted.has_value()) return false;
    e->posted = posted;
    return true;
  }
  // The request MPI_Start posted was completed (or handed on): `handle` is
  // inactive again. Returns that request.
  std::optional<Request> Finish(Request handle) {
    Entry* e = Find(handle);
    if (e == nullptr) return std::nullopt;
    std::optional<Request> posted = e->posted;
    e->posted.reset();
    return posted;
  }
  // MPI_Request_free: forgets `handle`. Returns the request it had posted,
  // if it was active (the caller frees that one too).
  std::optional<Request> Erase(Request handle) {
    auto it = entries_.find(handle);
    if (it == entries_.end()) return std::nullopt;
    std::optional<Request> posted = it->second.posted;
    entries_.erase(it);
    return posted;
  }
  std::size_t size() const { return entries_.size(); }

 private:
  absl::flat_hash_map<Request, Entry> entries_;
};

}  // namespace trestle::mpi
