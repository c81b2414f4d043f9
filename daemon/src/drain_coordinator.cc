#include "drain_coordinator.h"

#include <algorithm>

namespace trestle::daemon {

DrainCoordinator::DrainCoordinator(uv_loop_t* loop, const MessageLedger& ledger)
    : loop_(loop), ledger_(ledger) {
  timer_.Init(uv_timer_init, loop);
  timer_->data = this;
}

void DrainCoordinator::Add(std::uint32_t timeout_ms,
                           std::function<void(const admin::DrainReply&)> done) {
  waiters_.push_back({uv_now(loop_) + timeout_ms, std::move(done)});
  Check();
}

void DrainCoordinator::Check() {
  const bool drained = ledger_.totals().in_flight == 0;
  const std::uint64_t now = uv_now(loop_);
  std::vector<Waiter> keep;
  for (Waiter& w : waiters_) {
    if (!drained && now < w.deadline_ms) {
      keep.push_back(std::move(w));
      continue;
    }
    admin::DrainReply reply;
    reply.set_drained(drained);
    ledger_.totals().CopyTo(reply.mutable_totals());
    w.done(reply);
  }
  waiters_.swap(keep);
  if (!timer_) return;  // closed: the daemon is stopping
  if (waiters_.empty()) {
    uv_timer_stop(timer_.get());
    return;
  }
  std::uint64_t earliest = waiters_.front().deadline_ms;
  for (const Waiter& w : waiters_) earliest = std::min(earliest, w.deadline_ms);
  uv_timer_start(timer_.get(), [](uv_timer_t* t) { static_cast<DrainCoordinator*>(t->data)->Check(); },
                 earliest - now, 0);
}

}  // namespace trestle::daemon
