// BlockedWindow: while the main thread is inside a real MPI call that waits
// for other ranks (the real creation of a communicator), a helper thread
// keeps the rank's Trestle app blocked: it takes every mirror delivered in
// the meantime into the inbox and reports the rank blocked again after
// each, so the rank never holds the run's virtual time back (a delivery to
// an app that reported blocked counts it as running again). The rank must
// then wait for a message before it sends anything: the window is only for
// calls followed by such a wait (CommCreation's release).
//
// Lifetime: opened by the constructor (the rank reported blocked first,
// on the calling thread), closed by Close() or the destructor, which stop
// the helper (within one slice, 2 ms) and join it. The link and the inbox
// belong to the helper in between: the calling thread must not touch them.
#pragma once

#include <atomic>
#include <thread>

#include "absl/status/status.h"
#include "trestle_link.h"

namespace trestle::mpi {

class BlockedWindow {
 public:
  // Fails (no thread started) when the rank cannot report itself blocked.
  static absl::StatusOr<std::unique_ptr<BlockedWindow>> Open(TrestleLink& link);
  ~BlockedWindow();
  BlockedWindow(const BlockedWindow&) = delete;
  BlockedWindow& operator=(const BlockedWindow&) = delete;

  // Stops and joins the helper; the first error it met (a lost daemon, a
  // stray message), if any.
  absl::Status Close();

 private:
  explicit BlockedWindow(TrestleLink& link);
  void Pump();

  TrestleLink& link_;
  std::atomic<bool> stop_{false};
  absl::Status error_;  // written by the helper, read after join
  std::thread helper_;
};

}  // namespace trestle::mpi
