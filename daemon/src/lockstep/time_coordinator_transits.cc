// TimeCoordinator, the messages: what it learns from SendAdmission (a send
// admitted or discarded), the TransitDispatcher (a transit written to a
// simulator or requeued), the DataPlane (an outcome posted) and the
// DeliveryDispatcher (a delivery written).
#include "lockstep/time_coordinator.h"
#include "lockstep/virtual_time.h"
#include "spdlog/spdlog.h"

namespace trestle::daemon {

void TimeCoordinator::OnAdmitted(const MessageRecord& r) {
  unwritten_.Insert(r.t_send, ToItself(r));
  dirty_ = true;
}

void TimeCoordinator::OnDiscarded(const MessageRecord& r) {
  unwritten_.Erase(r.t_send, ToItself(r));
  dirty_ = true;
}

void TimeCoordinator::OnTransitWritten(std::uint32_t sim, MessageRecord& r) {
  unwritten_.Erase(r.t_send, ToItself(r));
  SimTime& s = SimAt(sim);
  // A delta step lets transits at granted - 1 come after it.
  // Collectives need no Grant to cover them (docs/protocol.md, "Collectives").
  if (s.grants_sent > 0 && r.collectives.empty() &&
      SaturatingAdd(r.t_send, s.delta ? 1 : 0) < s.granted) {
    counts_.set_transits_behind_grant(counts_.transits_behind_grant() + 1);
    spdlog::error("lockstep: transit {} with t_send {} written to a simulator granted {}", r.id,
                  r.t_send, s.granted);
  }
  r.grant_epoch = s.grants_sent;
  s.since_grant.Insert(r.t_send, ToItself(r));
  dirty_ = true;
}

void TimeCoordinator::Forget(SimTime& s, const MessageRecord& r) {
  TransitTimes* bucket = nullptr;
  if (r.grant_epoch == s.grants_sent) {
    bucket = &s.since_grant;
  } else if (s.outstanding && r.grant_epoch + 1 == s.grants_sent) {
    bucket = &s.before_grant;
  }
  if (bucket != nullptr) bucket->Erase(r.t_send, ToItself(r));
}

void TimeCoordinator::OnTransitRequeued(MessageRecord& r) {
  Forget(SimAt(r.holder), r);
  unwritten_.Insert(r.t_send, ToItself(r));
  dirty_ = true;
}

void TimeCoordinator::OnPosted(MessageRecord& r, bool hold, bool drop_report) {
  Forget(SimAt(r.holder), r);
  dirty_ = true;
  if (!hold) return;
  const std::uint32_t app = drop_report ? r.src : r.dst;
  AppTime& a = AppAt(app);
  a.held.Push({r.t_deliver, r.src, static_cast<std::uint32_t>(r.id)}, Held{r.id, drop_report});
  Touch(a);
}

void TimeCoordinator::OnDeliveryWritten(std::uint32_t app, const MessageRecord& r) {
  if (app < app_time_.size() && app_time_[app].last_released == r.id) {
    app_time_[app].last_released_seq = r.delivery_seq;
    Touch(app_time_[app]);
  }
}

}  // namespace trestle::daemon
