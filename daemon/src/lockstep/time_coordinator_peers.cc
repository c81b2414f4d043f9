// TimeCoordinator, the apps of peer daemons (LockstepCoordinatorEvents): their
// joins, leaves and clocks as their daemons report them, their transits,
// and the daemons whose heartbeat expired (docs/federation.md, "Lockstep
// across daemons").
#include <algorithm>

#include "lockstep/time_coordinator.h"
#include "spdlog/spdlog.h"

namespace trestle::daemon {

void TimeCoordinator::OnTimeEntry(const TimeEntry& e) {
  using Kind = TimeEntry::Kind;
  if (e.kind == Kind::kJoin) {
    ClientEntry& c = apps_.GetOrCreate(e.app);
    if (c.session != nullptr) {
      spdlog::error("lockstep: daemon {} reports that app '{}' joined, but it has a session here; "
                    "ignored",
                    e.from, e.app);
      return;
    }
    report_ = TimeEntry{};
    report_.kind = Kind::kJoined;
    report_.from = config_.daemon_id;
    report_.app = e.app;
    report_.now = JoinApp(c.index, nullptr, e.from);
    if (link_ != nullptr) link_->SendTimeEntry(e.from, report_);
    return;
  }
  const ClientEntry* c = apps_.Find(e.app);
  AppTime* a = c == nullptr || c->index >= app_time_.size() ? nullptr : &app_time_[c->index];
  if (a == nullptr || !a->joined || !a->remote || a->daemon != e.from) {
    spdlog::debug("lockstep: report '{}' from daemon {} for app '{}', which has not joined "
                  "there; ignored",
                  static_cast<char>(e.kind), e.from, e.app);
    return;
  }
  if (e.kind == Kind::kLeave) return LeaveApp(c->index);
  if (e.kind != Kind::kClock) {
    spdlog::error("lockstep: daemon {} sent the coordinator a report '{}' meant for a peer; "
                  "ignored",
                  e.from, static_cast<char>(e.kind));
    return;
  }
  counts_.set_clocks(counts_.clocks() + 1);
  wire::Clock clock;
  clock.set_now_ns(e.now);
  clock.set_blocked(e.blocked);
  clock.set_block(e.block);
  if (e.wake) clock.set_wake_ns(*e.wake);
  a->taken = std::max(a->taken, e.taken);
  ClockOf(*a, clock);
}

void TimeCoordinator::OnLiveDaemons(std::span<const std::uint32_t> alive,
                                    std::uint64_t as_of_ms) {
  for (std::uint32_t i = 0; i < app_time_.size(); ++i) {
    const AppTime& a = app_time_[i];
    // Only a heartbeat sent after the join says anything about it.
    if (!a.joined || !a.remote || a.joined_ms >= as_of_ms ||
        std::binary_search(alive.begin(), alive.end(), a.daemon)) {
      continue;
    }
    spdlog::warn("lockstep: daemon {} is gone (its heartbeat expired): its app '{}' leaves the "
                 "run",
                 a.daemon, apps_.at(i).id);
    LeaveApp(i);
  }
}

void TimeCoordinator::OnPeerTransit(const MessageRecord& r) {
  AppTime& a = AppAt(r.src);
  if (a.joined && a.remote) Sent(a, r.t_send);
  OnAdmitted(r);
}

}  // namespace trestle::daemon
