// TimeCoordinator: who holds the bound G back, and whether the run looks
// hung (docs/protocol.md, "Lockstep time": "Is it hung or slow?").
#include <spdlog/spdlog.h>

#include "absl/strings/str_cat.h"
#include "lockstep/time_coordinator.h"
#include "lockstep/virtual_time.h"

namespace trestle::daemon {
namespace {

std::string Seconds(std::uint64_t ms) {
  return absl::StrCat(ms / 1000, ".", (ms % 1000) / 100, " s");
}

}  // namespace

void TimeCoordinator::Bound(std::uint64_t g, Holder holder, std::uint64_t now_ms) {
  if (g > bound_) {
    bound_ = g;
    bound_moved_ms_ = now_ms;
  }
  holder_ = holder;
}

bool TimeCoordinator::Busy() const {
  if (bounds_.running() > 0 || !unwritten_.empty()) return true;
  for (std::uint32_t i = 0; i < sim_time_.size(); ++i) {
    if (sim_time_[i].session != nullptr && transits_.held_by(i) > 0) return true;
  }
  return false;
}

std::string TimeCoordinator::AppState(const AppTime& a, std::uint64_t now_ms) const {
  const std::string ago = Seconds(now_ms - std::min(now_ms, a.report_ms));
  std::string last;
  switch (a.report) {
    case Report::kJoined: last = absl::StrCat("joined ", ago, " ago"); break;
    case Report::kSent: last = absl::StrCat("last sent ", ago, " ago"); break;
    case Report::kRunning: last = absl::StrCat("last reported its clock ", ago, " ago"); break;
    case Report::kBlocked: last = absl::StrCat("blocked in a receive ", ago, " ago"); break;
  }
  if (a.blocked && Stale(a)) {
    return absl::StrCat("blocked at ", a.clock, " ns, but has not yet taken every delivery "
                        "handed to it; ", last);
  }
  if (a.blocked) return absl::StrCat("blocked at ", a.clock, " ns; ", last);
  return absl::StrCat("running at ", a.clock, " ns; ", last, a.remote ? " (on daemon " : "",
                      a.remote ? absl::StrCat(a.daemon, ")") : "");
}

std::string TimeCoordinator::SimState(std::uint32_t sim, std::uint64_t now_ms) const {
  const SimTime& s = sim_time_[sim];
  const std::string granted = absl::StrCat("granted ", s.granted, " ns, reached ",
                                           s.answered ? absl::StrCat(s.reached, " ns") : "nothing",
                                           ", holds ", transits_.held_by(sim), " transits");
  if (!s.outstanding) return granted;
  return absl::StrCat(granted, "; has not answered the Grant sent ",
                      Seconds(now_ms - std::min(now_ms, s.granted_ms)), " ago");
}

void TimeCoordinator::DescribeHolder(wire::LockstepStats* stats, std::uint64_t now_ms) const {
  stats->set_apps(static_cast<std::uint32_t>(joined_));
  stats->set_apps_running(static_cast<std::uint32_t>(bounds_.running()));
  stats->set_bound_still_ms(started_ ? now_ms - std::min(now_ms, bound_moved_ms_) : 0);
  stats->set_apps_never_joined(static_cast<std::uint32_t>(never_joined_.size()));
  constexpr int kNeverJoinedListed = 1000;
  for (const std::string& id : config_.lockstep_app_ids) {
    if (never_joined_.empty() || stats->never_joined_size() == kNeverJoinedListed) break;
    if (never_joined_.contains(id)) stats->add_never_joined(id);
  }
  for (std::uint32_t i = 0; i < sim_time_.size(); ++i) {
    const SimTime& s = sim_time_[i];
    if (s.session == nullptr) continue;
    wire::SimulatorTime* t = stats->add_simulators();
    t->set_client_id(sims_.at(i).id);
    t->set_granted_ns(s.granted);
    t->set_reached_ns(s.reached);
    t->set_grant_outstanding(s.outstanding);
    t->set_granted_ms_ago(s.grants_sent == 0 ? 0 : now_ms - std::min(now_ms, s.granted_ms));
    t->set_transits_held(transits_.held_by(i));
  }
  if (!started_) {
    const std::uint64_t want = config_.lockstep_app_ids.empty() ? config_.lockstep_app_count
                                                                : config_.lockstep_app_ids.size();
    stats->set_holder_state(absl::StrCat("the run starts when ", want, " apps have joined (",
                                         joined_, " so far)"));
    return;
  }
  switch (holder_.kind) {
    case Holder::Kind::kNone:
      return;
    case Holder::Kind::kApp:
      if (holder_.index >= app_time_.size() || !app_time_[holder_.index].joined) return;
      stats->set_holder(apps_.at(holder_.index).id);
      stats->set_holder_role(wire::ROLE_APP);
      stats->set_holder_state(AppState(app_time_[holder_.index], now_ms));
      return;
    case Holder::Kind::kSim:
      if (holder_.index >= sim_time_.size() || sim_time_[holder_.index].session == nullptr) return;
      stats->set_holder(sims_.at(holder_.index).id);
      stats->set_holder_role(wire::ROLE_SIM);
      stats->set_holder_state(SimState(holder_.index, now_ms));
      return;
    case Holder::Kind::kUnwritten:
      stats->set_holder_state(absl::StrCat(unwritten_.size(),
                                           " transits wait for a simulator to take them"));
      return;
  }
}

void TimeCoordinator::CheckStall(std::uint64_t now_ms) {
  const std::uint64_t period_ms = config_.stall_warn_s * 1000;
  if (period_ms == 0 || !started_ || now_ms - std::min(now_ms, bound_moved_ms_) < period_ms ||
      now_ms - std::min(now_ms, stall_warned_ms_) < period_ms || !Busy()) {
    return;
  }
  stall_warned_ms_ = now_ms;
  wire::LockstepStats stats;
  DescribeHolder(&stats, now_ms);
  const std::string who =
      stats.holder().empty()
          ? stats.holder_state()
          : absl::StrCat(stats.holder_role() == wire::ROLE_SIM ? "simulator '" : "app '",
                         stats.holder(), "' (", stats.holder_state(), ")");
  std::uint64_t with_sims = unwritten_.size();
  for (const wire::SimulatorTime& t : stats.simulators()) with_sims += t.transits_held();
  spdlog::warn("lockstep: virtual time has stayed at {} ns for {} while {} of {} apps run and "
               "{} transits wait for a simulator; held back by {}",
               bound_, Seconds(stats.bound_still_ms()), stats.apps_running(), stats.apps(),
               with_sims, who);
}

}  // namespace trestle::daemon
