#include "lockstep/time_coordinator.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "lockstep/virtual_time.h"
#include "session/session.h"
#include "spdlog/spdlog.h"

namespace trestle::daemon {

TimeCoordinator::TimeCoordinator(uv_loop_t* loop, const DaemonConfig& config,
                                 MessageLedger& ledger, ClientRegistry& apps,
                                 const ClientRegistry& sims, TransitDispatcher& transits,
                                 DeliveryDispatcher& deliveries)
    : loop_(loop),
      config_(config),
      ledger_(ledger),
      apps_(apps),
      sims_(sims),
      transits_(transits),
      deliveries_(deliveries),
      never_joined_(config.lockstep_app_ids.begin(), config.lockstep_app_ids.end()),
      started_(config.lockstep_app_count == 0 && config.lockstep_app_ids.empty()),
      bound_moved_ms_(uv_now(loop)) {}

TimeCoordinator::SimTime& TimeCoordinator::SimAt(std::uint32_t sim) {
  if (sim >= sim_time_.size()) sim_time_.resize(sim + 1);
  return sim_time_[sim];
}

void TimeCoordinator::FillStats(wire::LockstepStats* stats) const {
  *stats = counts_;
  stats->set_started(started_);
  stats->set_bound_ns(bound_);
  stats->set_safe_before_ns(safe_before_);
  DescribeHolder(stats, uv_now(loop_));
}

// ---- simulators -------------------------------------------------------------

void TimeCoordinator::OnSimReady(Session& sim, std::uint64_t lookahead_ns,
                                 std::uint64_t self_lookahead_ns) {
  SimTime& s = SimAt(sim.client());
  s = SimTime();
  s.session = &sim;
  s.lookahead = lookahead_ns;
  s.self_lookahead = self_lookahead_ns;
  dirty_ = true;
}

void TimeCoordinator::OnSimDetached(Session& sim) {
  // Its transits came back to the queue already (OnTransitRequeued).
  SimTime& s = SimAt(sim.client());
  s = SimTime();
  dirty_ = true;
}

void TimeCoordinator::OnReached(Session& sim, const wire::Reached& reached) {
  SimTime& s = SimAt(sim.client());
  counts_.set_reached(counts_.reached() + 1);
  if (s.session == nullptr || s.grants_sent == 0 || reached.grant_ns() > s.granted) {
    sim.send()->SendError(wire::BAD_REQUEST,
                          absl::StrCat("Reached for grant ", reached.grant_ns(),
                                       " ns, but the last Grant to this simulator was ",
                                       s.grants_sent == 0 ? std::string("none")
                                                          : absl::StrCat(s.granted, " ns")));
    return;
  }
  if (reached.grant_ns() == s.granted && s.outstanding) {
    s.outstanding = false;
    s.before_grant.Clear();  // covered by reached from now on
  }
  // The latest report counts, even when lower: it covers transits that came
  // since the last one.
  s.reached = reached.reached_ns();
  s.answered = true;
  dirty_ = true;
}

// ---- the bounds -------------------------------------------------------------

TimeCoordinator::Lookaheads TimeCoordinator::Lookahead() const {
  Lookaheads l{kNever, kNever};
  for (const SimTime& s : sim_time_) {
    if (s.session == nullptr) continue;
    l.between = std::min(l.between, s.lookahead);
    l.self = std::min(l.self, s.self_lookahead);
  }
  if (l.between == kNever) return Lookaheads{};
  return l;
}

std::uint64_t TimeCoordinator::EarliestUnposted(Lookaheads l, Holder* source) const {
  std::uint64_t u = unwritten_.EarliestDelivery(l.between, l.self);
  if (source != nullptr && u != kNever) *source = {Holder::Kind::kUnwritten, 0};
  for (std::uint32_t i = 0; i < sim_time_.size(); ++i) {
    const SimTime& s = sim_time_[i];
    if (s.session == nullptr) continue;
    const std::size_t uncovered = s.since_grant.size() + s.before_grant.size();
    std::uint64_t sim_u = std::min(s.since_grant.EarliestDelivery(l.between, l.self),
                                   s.before_grant.EarliestDelivery(l.between, l.self));
    // What it took in with an answered Grant ends after `reached`.
    if (transits_.held_by(i) > uncovered) {
      sim_u = std::min(sim_u, s.answered ? SaturatingAdd(s.reached, 1) : 0);
    }
    if (sim_u < u) {
      u = sim_u;
      if (source != nullptr) *source = {Holder::Kind::kSim, i};
    }
  }
  return u;
}

bool TimeCoordinator::AllBlocked() const { return bounds_.running() == 0; }

// No app can send before the coordinator hands it something: every app of
// the run is blocked, and every transit is with a simulator (what the
// simulators have not answered for yet is bounded by U).
bool TimeCoordinator::Quiet() const { return unwritten_.empty() && AllBlocked(); }

void TimeCoordinator::Write(Session* s, wire::Frame& frame) {
  if (s != nullptr && s->recv() != nullptr) s->recv()->Write(frame);
}

void TimeCoordinator::Tell(AppTime& a, std::uint32_t app) {
  if (!a.remote) return Write(a.session, frame_);
  if (link_ == nullptr) return;
  report_ = TimeEntry{};
  report_.from = config_.daemon_id;
  report_.app = apps_.at(app).id;
  if (frame_.has_wake()) {
    report_.kind = TimeEntry::Kind::kWake;
    report_.now = frame_.wake().wake_ns();
    report_.block = frame_.wake().block();
  } else {
    report_.kind = TimeEntry::Kind::kQuiescent;
    report_.block = frame_.quiescent().block();
  }
  link_->SendTimeEntry(a.daemon, report_);
}

void TimeCoordinator::Grant(SimTime& s, std::uint64_t until, bool delta) {
  s.outstanding = true;
  s.before_grant.Swap(s.since_grant);
  s.since_grant.Clear();
  s.grants_sent++;
  s.granted_ms = uv_now(loop_);
  s.delta = until > s.granted ? delta : s.delta || delta;
  s.granted = until;
  counts_.set_grants(counts_.grants() + 1);
  frame_.Clear();
  frame_.mutable_grant()->set_until_ns(until);
  Write(s.session, frame_);
}

std::uint64_t TimeCoordinator::ReleaseLimit(const AppTime& a, bool blocked, std::uint64_t r,
                                            Lookaheads l) const {
  std::uint64_t limit = blocked && a.wake ? std::min(r, SaturatingAdd(*a.wake, 1)) : r;
  // With Ls >= L, R <= G + L is below anything it can still send itself.
  if (!a.joined || l.self >= l.between) return limit;
  if (!blocked) return std::min(limit, SaturatingAdd(a.clock, l.self));
  // It runs again at its first delivery; all of that instant comes before
  // anything it sends then, even with Ls = 0.
  if (a.held.empty()) return limit;
  return std::min(limit, SaturatingAdd(a.held.EarliestDue(), std::max<std::uint64_t>(l.self, 1)));
}

std::size_t TimeCoordinator::Release(AppTime& a, std::uint64_t limit, std::uint64_t now_ms) {
  // A blocked app runs again at its first delivery's time; one whose report
  // is stale runs already, from a delivery it was handed before these.
  const bool moves_clock = a.joined && a.blocked && !Stale(a);
  std::size_t n = 0;
  while (!a.held.empty() && a.held.Top().key.due < limit) {
    const HeldQueue::Item item = a.held.Pop();
    const Held& h = item.value;
    MessageRecord* r = ledger_.Find(h.id);
    if (r == nullptr) continue;
    if (n++ == 0 && moves_clock) a.clock = std::max(a.clock, item.key.due);
    a.last_released = h.id;
    a.last_released_seq = 0;
    if (!a.remote) stale_watch_.push_back(a.index);
    if (h.drop_report && a.remote) {
      a.released++;  // seen by the app as a delivery
      link_->DeliverDropReport(*r, a.daemon);
    } else if (h.drop_report) {
      deliveries_.EnqueueDropReport(*r, now_ms);
    } else if (a.remote) {
      a.released++;
      link_->Deliver(*r, a.daemon);
    } else if (link_ != nullptr) {
      link_->Deliver(*r, std::nullopt);  // here, or wherever its app went
    } else {
      deliveries_.EnqueueDelivery(*r, now_ms);
    }
  }
  return n;
}

void TimeCoordinator::Advance() {
  dirty_ = false;
  if (!started_) return;
  const Lookaheads l = Lookahead();
  Holder unposted_by;
  const std::uint64_t unposted = EarliestUnposted(l, &unposted_by);

  // G over the apps, from their terms in order (AppBounds): the lowest
  // clock of a running app; over the blocked ones, the lowest
  // max(clock, min(wake, held)), and max(lowest clock, U).
  RecheckStale();
  const AppBounds::Lowest running = bounds_.LowestRunning();
  const AppBounds::Lowest blocked_next = bounds_.LowestBlockedNext();
  const AppBounds::Lowest blocked = bounds_.LowestBlockedClock();
  const std::uint64_t blocked_on_u =
      blocked.first == kNever ? kNever : std::max(blocked.first, unposted);
  std::uint64_t g = std::min({running.first, blocked_next.first, blocked_on_u});
  Holder holder;
  if (g != kNever) {
    if (running.first == g) {
      holder = {Holder::Kind::kApp, running.second};
    } else if (blocked_next.first == g) {
      holder = {Holder::Kind::kApp, blocked_next.second};
    } else {
      // Waiting for what a simulator has not posted yet: that one holds it.
      holder = unposted > blocked.first ? unposted_by : Holder{Holder::Kind::kApp, blocked.second};
    }
  }
  if (g == kNever) {
    g = std::max(bound_, unposted == kNever ? bound_ : unposted);
    holder = unposted_by;
  }
  Bound(g, holder, uv_now(loop_));

  // Grants: only once every accepted transit is with a simulator, so that a
  // Grant follows on the channel every transit it covers.
  const bool quiet = Quiet();
  // At a quiet point where nothing at the bound itself can become final
  // otherwise (zero lookahead, or a simulator yet to post what happens at
  // it), a delta step lets the simulators post it.
  const bool delta = quiet && (l.between == 0 || unposted <= bound_);
  const std::uint64_t grant_to = delta ? SaturatingAdd(bound_, 1) : bound_;
  if (unwritten_.empty()) {
    for (SimTime& s : sim_time_) {
      if (s.session == nullptr || s.outstanding || !s.session->ready()) continue;
      // Again at the same time only for transits behind it (sent at the
      // instant of a delta step), and only once quiet: then every transit of
      // that instant is there, and the simulator takes them in one sorted
      // batch whatever order they came in.
      if (s.grants_sent == 0 || grant_to > s.granted ||
          (quiet && s.since_grant.EarliestSend() < s.granted)) {
        Grant(s, std::max(grant_to, s.granted), delta);
      }
    }
  }

  std::uint64_t r = std::min(unposted, SaturatingAdd(bound_, l.between));
  if (l.between == 0 && quiet) r = std::min(unposted, SaturatingAdd(bound_, 1));
  safe_before_ = r;
  spdlog::trace("lockstep: G {} R {} U {} L {} Ls {} quiet {} unwritten {}", bound_, r, unposted,
                l.between, l.self, quiet, unwritten_.size());

  // Only the apps with a delivery held below R or a wake time below it can
  // get anything (AppBounds::Due), in the order of their index.
  const std::uint64_t now_ms = uv_now(loop_);
  due_.clear();
  bounds_.Due(r, &due_);
  for (std::uint32_t i : due_) {
    AppTime& a = app_time_[i];
    if (!a.joined || !a.blocked || Stale(a)) {
      Release(a, ReleaseLimit(a, false, r, l), now_ms);
      Touch(a);
      continue;
    }
    if (Release(a, ReleaseLimit(a, true, r, l), now_ms) > 0) {
      a.blocked = false;  // running at its first delivery's time
      a.wake.reset();
    } else if (a.wake && *a.wake < r) {
      a.clock = std::max(a.clock, *a.wake);
      a.blocked = false;
      a.wake.reset();
      frame_.Clear();
      frame_.mutable_wake()->set_wake_ns(a.clock);
      frame_.mutable_wake()->set_block(a.block);
      counts_.set_wakes(counts_.wakes() + 1);
      Tell(a, i);
    }
    Touch(a);
  }

  // Quiescence: every app of the run waits for nothing that can come.
  if (joined_ == 0 || bounds_.any_wake() || bounds_.any_joined_held() || !unwritten_.empty() ||
      !AllBlocked()) {
    return;
  }
  for (std::uint32_t i = 0; i < sim_time_.size(); ++i) {
    if (sim_time_[i].session != nullptr && transits_.held_by(i) > 0) return;
  }
  for (std::uint32_t i = 0; i < app_time_.size(); ++i) {
    AppTime& a = app_time_[i];
    if (!a.joined || a.quiescent_sent) continue;
    a.quiescent_sent = true;
    frame_.Clear();
    frame_.mutable_quiescent()->set_block(a.block);
    counts_.set_quiescent(counts_.quiescent() + 1);
    Tell(a, i);
  }
}

}  // namespace trestle::daemon
