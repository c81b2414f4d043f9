// TimeCoordinator, the apps of the run: their joins and leaves, their clocks
// from Sends and Clock reports, whether a blocked report is stale, and their
// terms in AppBounds, which every change of them updates (Touch).
#include <algorithm>

#include "lockstep/time_coordinator.h"
#include "lockstep/virtual_time.h"
#include "session/session.h"

namespace trestle::daemon {

TimeCoordinator::AppTime& TimeCoordinator::AppAt(std::uint32_t app) {
  for (std::size_t i = app_time_.size(); i <= app; ++i) {
    app_time_.emplace_back(static_cast<std::uint32_t>(i), apps_);
  }
  return app_time_[app];
}

void TimeCoordinator::Touch(const AppTime& a) {
  const bool stale = Stale(a);
  AppBounds::Terms t;
  t.joined = a.joined;
  t.running = a.joined && (!a.blocked || stale);
  t.clock = a.clock;
  if (a.joined && a.blocked && !stale) t.wake = a.wake;
  t.held = a.held.EarliestDue();  // kNever when none
  bounds_.Set(a.index, t);
}

void TimeCoordinator::RecheckStale() {
  std::size_t kept = 0;
  for (std::uint32_t app : stale_watch_) {
    const AppTime& a = app_time_[app];
    if (!a.remote && a.last_released != 0 && a.last_released_seq == 0 &&
        const_cast<MessageLedger&>(ledger_).Find(a.last_released) != nullptr) {
      stale_watch_[kept++] = app;  // still waiting to be written: nothing changed
    } else {
      Touch(a);  // written (Touched then already) or gone: stale no longer
    }
  }
  stale_watch_.resize(kept);
}

std::uint64_t TimeCoordinator::Join(Session& app) {
  return JoinApp(app.client(), &app, config_.daemon_id);
}

void TimeCoordinator::Leave(Session& app) {
  AppTime& a = AppAt(app.client());
  if (a.joined && !a.remote) LeaveApp(app.client());
}

std::uint64_t TimeCoordinator::JoinApp(std::uint32_t app, Session* session,
                                       std::uint32_t daemon) {
  AppTime& a = AppAt(app);
  const bool was_remote = a.joined && a.remote;
  if (!a.joined) joined_++;
  if (!never_joined_.empty()) never_joined_.erase(apps_.at(app).id);
  a.joined = true;
  a.session = session;
  a.remote = session == nullptr;
  a.daemon = daemon;
  a.blocked = false;
  a.wake.reset();
  a.quiescent_sent = false;
  a.clock = std::max(a.clock, started_ ? bound_ : 0);
  a.report = Report::kJoined;
  a.report_ms = uv_now(loop_);
  if (a.remote && !was_remote) {
    a.joined_ms = uv_now(loop_);
    a.released = a.taken = 0;
    a.last_released = a.last_released_seq = 0;
    apps_.Retain(app);  // a peer's app: no session here keeps its entry
  }
  const std::uint64_t start = a.clock;
  Touch(a);
  if (was_remote && !a.remote) apps_.Release(app);  // moved here (last: may free)
  MaybeStart();
  dirty_ = true;
  return start;
}

void TimeCoordinator::LeaveApp(std::uint32_t app) {
  AppTime& a = AppAt(app);
  if (!a.joined) return;
  const bool remote = a.remote;
  a.joined = false;
  a.session = nullptr;
  a.remote = false;
  joined_--;
  dirty_ = true;
  Touch(a);
  if (remote) apps_.Release(app);  // last: may free the entry (ForgetApp)
}

void TimeCoordinator::MaybeStart() {
  if (started_) return;
  if (!config_.lockstep_app_ids.empty()) {
    for (const std::string& id : config_.lockstep_app_ids) {
      const ClientEntry* e = apps_.Find(id);
      if (e == nullptr || e->index >= app_time_.size() || !app_time_[e->index].joined) return;
    }
  } else if (joined_ < config_.lockstep_app_count) {
    return;
  }
  started_ = true;
  bound_moved_ms_ = uv_now(loop_);
}

absl::Status TimeCoordinator::OnSend(Session& app, std::uint64_t t_send) {
  AppTime& a = AppAt(app.client());
  if (absl::Status in_time = CheckSendTime(t_send, a.clock); !in_time.ok()) return in_time;
  Sent(a, t_send);
  return absl::OkStatus();
}

std::uint64_t TimeCoordinator::ClockOf(Session& app) { return AppAt(app.client()).clock; }

void TimeCoordinator::Sent(AppTime& a, std::uint64_t t_send) {
  a.clock = std::max(a.clock, t_send);
  a.report = Report::kSent;
  a.report_ms = uv_now(loop_);
  a.blocked = false;
  a.wake.reset();
  a.quiescent_sent = false;
  dirty_ = true;
  Touch(a);
}

void TimeCoordinator::OnClock(Session& app, const wire::Clock& clock) {
  counts_.set_clocks(counts_.clocks() + 1);
  ClockOf(AppAt(app.client()), clock);
}

void TimeCoordinator::ClockOf(AppTime& a, const wire::Clock& clock) {
  a.clock = std::max(a.clock, clock.now_ns());
  a.seen_seq = std::max(a.seen_seq, clock.seen_delivery_seq());
  a.blocked = clock.blocked();
  a.block = clock.block();
  a.report = a.blocked ? Report::kBlocked : Report::kRunning;
  a.report_ms = uv_now(loop_);
  if (clock.blocked() && clock.has_wake_ns()) {
    a.wake = std::max(clock.wake_ns(), a.clock);
  } else {
    a.wake.reset();
  }
  a.quiescent_sent = false;
  dirty_ = true;
  Touch(a);
}

bool TimeCoordinator::Stale(const AppTime& a) const {
  if (a.remote) return a.taken < a.released;
  if (a.last_released == 0) return false;
  if (a.last_released_seq != 0) return a.seen_seq < a.last_released_seq;
  // Not written yet (or lost by the store before it was): stale while it
  // may still be written.
  return const_cast<MessageLedger&>(ledger_).Find(a.last_released) != nullptr;
}

}  // namespace trestle::daemon
