#include "dataplane/data_plane.h"

#include "absl/strings/str_cat.h"
#include "session/session.h"
#include "trestle/wire/monotonic_clock.h"

namespace trestle::daemon {
namespace {
// Refused outcomes of one batch named in their own Error frame.
constexpr std::uint32_t kOutcomeErrorsPerBatch = 10;
}  // namespace

DataPlane::DataPlane(uv_loop_t* loop, const DaemonConfig& config, PayloadStore& store,
                     ClientRegistry& apps, ClientRegistry& sims, SessionCloser& closer,
                     BridgeLinks* bridge, FallbackPayloadStore* fallback)
    : loop_(loop),
      apps_(apps),
      sims_(sims),
      store_(store),
      ledger_(apps),
      assignment_(config.sim_assignment),
      destinations_(apps, config.max_absent_destinations),
      transits_(config, ledger_, apps, assignment_),
      budget_(config.delivery_memory_budget,
              [this](bool paused) { transits_.PauseOutcomes(paused); }),
      deliveries_(loop, config, ledger_, apps, store, budget_, closer),
      admission_(config, ledger_, apps, store, destinations_, assignment_, transits_) {
  if (config.time_mode == wire::TIME_MODE_LOCKSTEP && config.federate && !config.coordinates()) {
    relay_ = std::make_unique<LockstepRelay>(loop, config, apps, closer);
    deliveries_.SetObserver(relay_.get());
    admission_.SetLockstep(relay_.get());
  } else if (config.time_mode == wire::TIME_MODE_LOCKSTEP) {
    time_ = std::make_unique<TimeCoordinator>(loop, config, ledger_, apps, sims, transits_,
                                               deliveries_);
    transits_.SetObserver(time_.get());
    deliveries_.SetObserver(time_.get());
    admission_.SetLockstep(time_.get());
  }
  if (bridge != nullptr) {
    federation_ = std::make_unique<FederationRouter>(loop, config, ledger_, apps, store,
                                                     transits_, deliveries_, *bridge, fallback,
                                                     time_.get(), relay_.get());
    FederationOutbound& outbound = federation_->outbound();
    admission_.SetFederation(federation_.get());
    // In lockstep time a drop report goes where the coordinator releases it.
    if (config.time_mode != wire::TIME_MODE_LOCKSTEP) deliveries_.SetDropReportRoute(&outbound);
    if (time_) time_->SetLink(&outbound);
    if (relay_) relay_->SetLink(&outbound);
  }
  if (time_) {
    route_ = std::make_unique<CoordinatedOutcomes>(ledger_, *time_);
  } else if (federation_) {
    route_ = std::make_unique<FederatedOutcomes>(ledger_, deliveries_, federation_->outbound());
  } else {
    route_ = std::make_unique<FreeRunningOutcomes>(ledger_, deliveries_);
  }
  // A freed registry index may be reused by another client: forget what
  // was kept for it.
  apps.OnRelease([this](std::uint32_t app) {
    assignment_.Forget(app);
    deliveries_.Forget(app);
    if (time_) time_->ForgetApp(app);
    if (relay_) relay_->ForgetApp(app);
    if (federation_) federation_->ForgetApp(app);
  });
  sims.OnRelease([this](std::uint32_t sim) {
    transits_.ForgetSimulator(sim);
    if (time_) time_->ForgetSim(sim);
  });
}

std::optional<std::uint64_t> DataPlane::OnAppHello(Session& s) {
  if (time_) return time_->Join(s);
  if (relay_) return relay_->Join(s);
  return 0;
}

void DataPlane::SetJoinedCallback(LockstepRelay::JoinedCallback joined) {
  if (relay_) relay_->OnJoined(std::move(joined));
}

void DataPlane::OnSessionReady(Session& s) {
  if (s.is_app()) {
    if (federation_) federation_->OnAppAttached(s.client());
    deliveries_.OnAppReady(s);
  } else {
    transits_.OnSimReady(s, assignment_.QueueForSimulator(sims_.at(s.client()).id));
    if (time_) time_->OnSimReady(s, s.lookahead_ns(), s.self_lookahead_ns());
  }
}

void DataPlane::OnSessionDetached(Session& s) {
  if (s.is_app()) {
    transits_.OnAppDetached(s);
    deliveries_.OnAppDetached(s);
    if (time_) time_->Leave(s);
    if (relay_) relay_->Leave(s);
  } else {
    transits_.OnSimDetached(s);  // gives its transits back first
    if (time_) time_->OnSimDetached(s);
  }
}

void DataPlane::OnClock(Session& app, const wire::Clock& clock) {
  if (!relay_ && !time_) {
    app.send()->SendError(wire::WRONG_TIME_MODE, "Clock is a lockstep frame; this daemon's "
                                                 "time_mode is not lockstep");
    return;
  }
  // Having seen more than was written would make its stale reports count.
  if (const std::uint64_t written = deliveries_.last_delivery_seq(app.client());
      clock.seen_delivery_seq() > written) {
    app.send()->SendError(
        wire::BAD_REQUEST,
        absl::StrCat("Clock.seen_delivery_seq ", clock.seen_delivery_seq(),
                     " is above the last delivery_seq written to this app, ", written,
                     ": it counts deliveries of this numbering only (Welcome.delivery_numbering)"));
    return;
  }
  if (relay_) return relay_->OnClock(app, clock);
  time_->OnClock(app, clock);
}

void DataPlane::OnReached(Session& sim, const wire::Reached& reached) {
  if (!time_) {
    sim.send()->SendError(wire::WRONG_TIME_MODE, "Reached is a lockstep frame; this daemon's "
                                                 "time_mode is not lockstep");
    return;
  }
  time_->OnReached(sim, reached);
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
  // A batch of bad outcomes gets a few errors by id and one that counts the
  // rest, so that a buggy or hostile simulator cannot make the daemon queue
  // an Error frame per outcome.
  std::uint32_t refused = 0;
  auto refuse = [&](wire::ErrorCode code, std::uint64_t id, const char* why) {
    if (++refused <= kOutcomeErrorsPerBatch) {
      sim.send()->SendError(code, absl::StrCat("Outcome for transit ", id, why), id);
    }
  };
  for (const wire::Outcome& o : batch.outcomes()) {
    if (o.status() != wire::DELIVERED && o.status() != wire::DROPPED) {
      refuse(wire::BAD_REQUEST, o.id(), " has no valid status (DELIVERED or DROPPED)");
      continue;
    }
    MessageRecord* r = transits_.Release(sim, o.id());
    if (r == nullptr) {
      refuse(wire::NOT_FOUND, o.id(), " which this simulator does not hold");
      continue;
    }
    r->posted = o.sim_posted();
    r->outcome_at = now_ns;
    r->t_deliver = o.t_deliver();
    if (o.status() == wire::DELIVERED) {
      route_->Delivered(*r, now_ms);
      continue;
    }
    store_.Erase(r->id);
    ledger_.Dropped(*r);
    route_->Dropped(*r, now_ms);
  }
  if (refused > kOutcomeErrorsPerBatch) {
    sim.send()->SendError(wire::BAD_REQUEST,
                          absl::StrCat(refused - kOutcomeErrorsPerBatch,
                                       " more outcomes of this batch were refused as well (only "
                                       "the first ", kOutcomeErrorsPerBatch, " are named)"));
  }
}

bool DataPlane::Compact() {
  const bool ledger = ledger_.Compact();
  const bool store = store_.Compact();
  const bool apps = apps_.Compact();
  const bool sims = sims_.Compact();
  // Per-client state beyond the registries' last slots goes too.
  if (apps) {
    deliveries_.Shrink(apps_.capacity());
    assignment_.Shrink(apps_.capacity());
  }
  if (sims) transits_.ShrinkSimulators(sims_.capacity());
  return ledger || store || apps || sims;
}

void DataPlane::RunPumps() {
  // Pumping one side can make work for the other, so run until both settle.
  // The coordinator goes last: a Grant must follow the transits it covers.
  while (transits_.pump_pending() || deliveries_.pump_pending() || (time_ && time_->pending())) {
    transits_.Pump();
    deliveries_.Pump();
    if (time_ && time_->pending()) time_->Advance();
  }
  store_.Flush();
  if (federation_) federation_->EndOfPass();
}

}  // namespace trestle::daemon
