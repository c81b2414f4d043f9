// BlockedWindow: while the main thread is inside a real MPI call that waits
// for other ranks (the real creation of a communicator), a helper thread
// keeps the rank's Trestle app blocked: it takes every mirror delivered in
// the meantime into the inbox and reports the rank blocked again after
// each, so the rank never holds the run's virtual time back (a delivery to
// an app that reported blocked counts it as running again). The rank must
// wait for a message, its release, before it sends anything: the window is
// only for calls followed by such a wait (CommCreation's fan-out). Once the
// release is taken the helper stops reporting: the rank runs from the
// release's time (what the daemon assumes of an app it handed a delivery).
//
// Lifetime: opened by the constructor (the rank reported blocked first,
// on the calling thread), closed by Close() or the destructor, which stop
// the helper (within one slice, 2 ms) and join it. The link and the inbox
// belong to the helper in between: the calling thread must not touch them.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <thread>

#include "absl/status/status.h"
#include "trestle_link.h"

namespace trestle::mpi {

class BlockedWindow {
 public:
  // Fails (no thread started) when the rank cannot report itself blocked.
  // `released` (called on the helper thread, after each mirror taken) says
  // whether the release is in.
  static absl::StatusOr<std::unique_ptr<BlockedWindow>> Open(TrestleLink& link,
                                                             std::function<bool()> released);
  ~BlockedWindow();
  BlockedWindow(const BlockedWindow&) = delete;
  BlockedWindow& operator=(const BlockedWindow&) = delete;

  // Stops and joins the helper; the first error it met (a lost daemon, a
  // stray message), if any.
  absl::Status Close();

 private:
  BlockedWindow(TrestleLink& link, std::function<bool()> released);
  void Pump();

  TrestleLink& link_;
  const std::function<bool()> released_;
  std::atomic<bool> stop_{false};
  absl::Status error_;  // written by the helper, read after join
  std::thread helper_;
};

}  // namespace trestle::mpi
