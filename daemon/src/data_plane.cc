#include "data_plane.h"

#include "absl/strings/str_cat.h"
#include "session.h"
#include "trestle/wire/monotonic_clock.h"

namespace trestle::daemon {

DataPlane::DataPlane(uv_loop_t* loop, const DaemonConfig& config, PayloadStore& store,
                     ClientRegistry& apps, ClientRegistry& sims, SessionCloser& closer)
    : loop_(loop),
      apps_(apps),
      sims_(sims),
      store_(store),
      ledger_(apps),
      assignment_(config.sim_assignment),
      destinations_(apps),
      transits_(config, ledger_, apps, assignment_),
      budget_(config.delivery_memory_budget,
              [this](bool paused) { transits_.PauseOutcomes(paused); }),
      deliveries_(loop, config, ledger_, apps, store, budget_, closer),
      admission_(config, ledger_, apps, store, destinations_, assignment_, transits_) {}

void DataPlane::OnSessionReady(Session& s) {
  if (s.is_app()) {
    deliveries_.OnAppReady(s);
  } else {
    transits_.OnSimReady(s, assignment_.QueueForSimulator(sims_.at(s.client()).id));
  }
}

void DataPlane::OnSessionDetached(Session& s) {
  if (s.is_app()) {
    transits_.OnAppDetached(s);
    deliveries_.OnAppDetached(s);
  } else {
    transits_.OnSimDetached(s);
  }
}

void DataPlane::OnWritable(Session& s) {
  if (s.is_app()) {
    deliveries_.OnWritable(s);
  } else {
    transits_.OnWritable(s);
  }
}

void DataPlane::OnOutcomes(Session& sim, const wire::OutcomeBatch& batch) {
  const std::uint64_t now_ms = uv_now(loop_);
  const std::uint64_t now_ns = wire::MonotonicNanos();
  for (const wire::Outcome& o : batch.outcomes()) {
    if (o.status() != wire::DELIVERED && o.status() != wire::DROPPED) {
      sim.send()->SendError(wire::BAD_REQUEST,
                            absl::StrCat("Outcome for transit ", o.id(),
                                         " has no valid status (DELIVERED or DROPPED)"),
                            o.id());
      continue;
    }
    MessageRecord* r = transits_.Release(sim, o.id());
    if (r == nullptr) {
      sim.send()->SendError(
          wire::NOT_FOUND,
          absl::StrCat("Outcome for transit ", o.id(), " which this simulator does not hold"),
          o.id());
      continue;
    }
    r->posted = o.sim_posted();
    r->outcome_at = now_ns;
    r->t_deliver = o.t_deliver();
    if (o.status() == wire::DELIVERED) {
      deliveries_.EnqueueDelivery(*r, now_ms);
      continue;
    }
    store_.Erase(r->id);
    ledger_.Dropped(*r);
    if (r->notify_drop) {
      deliveries_.EnqueueDropReport(*r, now_ms);
    } else {
      ledger_.Erase(r->id);
    }
  }
}

void DataPlane::RunPumps() {
  // Pumping one side can make work for the other, so run until both settle.
  while (transits_.pump_pending() || deliveries_.pump_pending()) {
    transits_.Pump();
    deliveries_.Pump();
  }
}

}  // namespace trestle::daemon
