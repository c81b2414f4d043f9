// DrainCoordinator: answers admin Drain requests. Each waits until nothing
// is in flight or its own deadline, whichever comes first; one timer is
// armed for the earliest deadline, and the data path calls Check() once per
// loop pass while requests wait.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "admin.pb.h"
#include "messages/message_ledger.h"
#include "trestle/platform/uv_handle.h"

namespace trestle::daemon {

class DrainCoordinator {
 public:
  // `ledger` must outlive the coordinator.
  DrainCoordinator(uv_loop_t* loop, const MessageLedger& ledger);
  // Closes the timer (the loop must run once more); requests still waiting
  // are answered by the next Check only.
  void Close() { timer_.Close(); }

  void Add(std::uint32_t timeout_ms, std::function<void(const admin::DrainReply&)> done);
  bool waiting() const { return !waiters_.empty(); }
  // Answers every request once nothing is in flight, and each whose deadline passed.
  void Check();

 private:
  struct Waiter {
    std::uint64_t deadline_ms;
    std::function<void(const admin::DrainReply&)> done;
  };

  uv_loop_t* loop_;
  const MessageLedger& ledger_;
  platform::UvHandle<uv_timer_t> timer_;
  std::vector<Waiter> waiters_;
};

}  // namespace trestle::daemon
