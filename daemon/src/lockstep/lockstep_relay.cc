#include "lockstep/lockstep_relay.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "session/session.h"
#include "spdlog/spdlog.h"

namespace trestle::daemon {

LockstepRelay::LockstepRelay(uv_loop_t* loop, const DaemonConfig& config, ClientRegistry& apps,
                             SessionCloser& closer)
    : loop_(loop), config_(config), apps_(apps), closer_(closer) {}

LockstepRelay::AppState& LockstepRelay::At(std::uint32_t app) {
  if (app >= apps_time_.size()) apps_time_.resize(app + 1);
  return apps_time_[app];
}

std::optional<std::uint64_t> LockstepRelay::Join(Session& app) {
  AppState& a = At(app.client());
  a.session = &app;
  if (a.joined) return a.clock;  // a resumed session: still in the run
  a.joining = true;
  a.join_ms = uv_now(loop_);
  TimeEntry e;
  e.kind = TimeEntry::Kind::kJoin;
  Report(app.client(), std::move(e));
  return std::nullopt;
}

void LockstepRelay::Leave(Session& app) {
  AppState& a = At(app.client());
  if (!a.joined && !a.joining) return;
  TimeEntry e;
  e.kind = TimeEntry::Kind::kLeave;
  Report(app.client(), std::move(e));
  a.joined = a.joining = false;
  a.session = nullptr;
  a.unseen.clear();
  a.last_written = a.taken = 0;
}

void LockstepRelay::OnClock(Session& app, const wire::Clock& clock) {
  AppState& a = At(app.client());
  if (!a.joined) return;
  while (!a.unseen.empty() && a.unseen.front() <= clock.seen_delivery_seq()) {
    a.unseen.pop_front();
    a.taken++;
  }
  a.clock = std::max(a.clock, clock.now_ns());
  TimeEntry e;
  e.kind = TimeEntry::Kind::kClock;
  e.now = clock.now_ns();
  e.blocked = clock.blocked();
  e.block = clock.block();
  if (clock.blocked() && clock.has_wake_ns()) e.wake = clock.wake_ns();
  e.taken = a.taken;
  Report(app.client(), std::move(e));
}

void LockstepRelay::Housekeeping(std::uint64_t now_ms) {
  for (AppState& a : apps_time_) {
    if (!a.joining || a.session == nullptr || now_ms - a.join_ms < kJoinTimeoutMs) continue;
    // Leave (through the detach) reports the leave, so a late answer finds
    // nothing to join.
    closer_.CloseSession(
        *a.session, wire::UNAVAILABLE,
        absl::StrCat("lockstep: daemon ", config_.coordinator(),
                     ", the coordinator of this run (lockstep_coordinator), did not answer this "
                     "app's join within ",
                     kJoinTimeoutMs, " ms: is it running, and is its Redis reachable?"));
  }
}

absl::Status LockstepRelay::OnSend(Session& app, std::uint64_t t_send) {
  AppState& a = At(app.client());
  if (absl::Status in_time = CheckSendTime(t_send, a.clock); !in_time.ok()) return in_time;
  a.clock = t_send;
  return absl::OkStatus();
}

std::uint64_t LockstepRelay::ClockOf(Session& app) { return At(app.client()).clock; }

void LockstepRelay::OnAdmitted(const MessageRecord& r) {
  if (unsent_ids_.insert(r.id).second) At(r.src).unsent++;
}

void LockstepRelay::OnTransitHandedOn(const MessageRecord& r) {
  if (unsent_ids_.erase(r.id) == 0) return;
  AppState& a = At(r.src);
  if (--a.unsent > 0 || a.deferred.empty()) return;
  std::vector<TimeEntry> deferred = std::move(a.deferred);
  a.deferred.clear();
  for (TimeEntry& e : deferred) Report(r.src, std::move(e));
}

void LockstepRelay::Report(std::uint32_t app, TimeEntry e) {
  AppState& a = At(app);
  if (a.unsent > 0) {
    // Of clocks in a row only the latest counts.
    if (!a.deferred.empty() && a.deferred.back().kind == TimeEntry::Kind::kClock &&
        e.kind == TimeEntry::Kind::kClock) {
      a.deferred.back() = std::move(e);
    } else {
      a.deferred.push_back(std::move(e));
    }
    return;
  }
  if (link_ == nullptr) return;
  e.from = config_.daemon_id;
  e.app = apps_.at(app).id;
  link_->SendTimeEntry(config_.coordinator(), e);
}

void LockstepRelay::OnDeliveryWritten(std::uint32_t app, const MessageRecord& r) {
  AppState& a = At(app);
  if (!a.joined || r.delivery_seq <= a.last_written) return;  // written again
  a.last_written = r.delivery_seq;
  a.unseen.push_back(r.delivery_seq);
}

void LockstepRelay::Write(Session* s) {
  if (s != nullptr && s->recv() != nullptr) s->recv()->Write(frame_);
}

void LockstepRelay::OnTimeEntry(const TimeEntry& e) {
  const ClientEntry* c = apps_.Find(e.app);
  AppState* a = c == nullptr ? nullptr : &At(c->index);
  if (a == nullptr || a->session == nullptr || (!a->joined && !a->joining)) {
    spdlog::debug("lockstep: report '{}' from the coordinator for app '{}', which is not in the "
                  "run here; ignored",
                  static_cast<char>(e.kind), e.app);
    return;
  }
  switch (e.kind) {
    case TimeEntry::Kind::kJoined: {
      if (!a->joining) return;
      a->joining = false;
      a->joined = true;
      a->clock = e.now;
      if (on_joined_) on_joined_(*a->session, e.now);
      return;
    }
    case TimeEntry::Kind::kWake:
      a->clock = std::max(a->clock, e.now);
      frame_.Clear();
      frame_.mutable_wake()->set_wake_ns(e.now);
      frame_.mutable_wake()->set_block(e.block);
      return Write(a->session);
    case TimeEntry::Kind::kQuiescent:
      frame_.Clear();
      frame_.mutable_quiescent()->set_block(e.block);
      return Write(a->session);
    default:
      spdlog::error("lockstep: daemon {} sent a report '{}' meant for the coordinator to daemon "
                    "{}, which is not the coordinator; ignored",
                    e.from, static_cast<char>(e.kind), config_.daemon_id);
  }
}

}  // namespace trestle::daemon
