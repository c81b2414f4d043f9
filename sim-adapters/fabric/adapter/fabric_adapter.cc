#include "trestle/fabric/fabric_adapter.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <spdlog/spdlog.h>

#include "adapter/loop_timer.h"

namespace trestle::fabric {

FabricAdapter::FabricAdapter(EventLoop& loop, ClientOptions client, const Topology& topology,
                             adapter::EndpointMap endpoints, FabricAdapterOptions options)
    : model_(MakeNetworkModel(options.model, topology, options.pricing)),
      collective_peers_(endpoints, "fabric"),
      collectives_(std::make_unique<LiveCollectives>(
          *model_, [this](const std::string& id) { return collective_peers_.Resolve(id); })),
      drain_after_(options.drain_after),
      drain_timer_(std::make_unique<internal::LoopTimer>(loop.uv_loop(), [this] { Drain(); })),
      adapter_(loop, std::move(client), std::move(options.adapter), *this, std::move(endpoints)) {}

FabricAdapter::~FabricAdapter() = default;

void FabricAdapter::Begin(wire::TimeMode mode, adapter::OutcomeSink& outcomes) {
  outcomes_ = &outcomes;
  switch (mode) {
    case wire::TIME_MODE_VIRTUAL:
    case wire::TIME_MODE_PACED:
    case wire::TIME_MODE_WALLCLOCK:
      arrival_order_ = true;
      break;
    default:  // lockstep: time moves by grants only
      arrival_order_ = false;
  }
}

void FabricAdapter::HandleTransit(const Transit& transit, const adapter::EndpointPair& endpoints) {
  if (!transit.collectives.empty()) {
    absl::Status s =
        collectives_->Take(transit.id, transit.src, transit.t_send, transit.collectives, &ended_);
    if (!s.ok()) spdlog::error("fabric adapter: {} (DROPPED)", std::string(s.message()));
    // In lockstep the replay's steps go into the model at grants; in the
    // arrival-order modes, at once, to their end.
    if (arrival_order_) RunCollectives(NetworkModel::kNoEvent);
    PostCompleted();
    return;
  }
  if (arrival_order_ && transit.t_send > model_->NowNs()) {
    model_->AdvanceTo(transit.t_send, &completed_);
  }
  model_->Submit(ModelMessage{transit.id, endpoints.src, endpoints.dst, transit.size,
                              transit.tclass, transit.t_send, transit.id},
                 &completed_);
  TakeArrivals();
  PostCompleted();
  if (arrival_order_ && model_->InFlight() > 0) drain_timer_->Start(drain_after_);
}

void FabricAdapter::RunCollectives(std::uint64_t grant) {
  absl::Status s = collectives_->Run(grant, &completed_, &ended_);
  if (!s.ok()) spdlog::error("fabric adapter: {} (DROPPED)", std::string(s.message()));
}

void FabricAdapter::TakeArrivals() {
  absl::Status error;
  collectives_->TakeArrivals(&completed_, 0, &ended_, &error);
  if (!error.ok()) spdlog::error("fabric adapter: {} (DROPPED)", std::string(error.message()));
}

void FabricAdapter::Drain() {
  for (int i = 0; i < kDrainEventsPerPass && model_->InFlight() > 0; ++i) {
    model_->AdvanceTo(model_->NextEventNs(), &completed_);
  }
  TakeArrivals();
  PostCompleted();
  if (model_->InFlight() > 0) drain_timer_->Start(std::chrono::milliseconds(0));
}

void FabricAdapter::HandleGrant(std::uint64_t t_ns) {
  arrival_order_ = false;
  drain_timer_->Stop();
  // Every transit with t_send < t_ns has come; more may still come at t_ns,
  // and must start in (t_send, src, id) order with those already here. The
  // replay's steps due at t_ns go in now: they are pending in the model
  // until its clock passes t_ns, like those transits.
  RunCollectives(t_ns);
  if (t_ns > 0) model_->AdvanceTo(t_ns - 1, &completed_);
  TakeArrivals();
  PostCompleted();
  // What is in flight delivers at the model's bound or after, unless a later
  // transit (t_send >= t_ns) changes it, which it does only from its t_send
  // + lookahead on: the daemon keeps below that itself (R <= G + L). With
  // zero lookahead, nothing from t_ns on is final.
  std::uint64_t bound = model_->PendingDeliveryBoundNs();
  // A rank whose step is due may end its transit then (a last step that
  // only sends).
  bound = std::min(bound, collectives_->NextDueNs());
  // A collective short of a member's entry: that comes at or after the
  // grant (the instant before it, in a delta step), and its message takes
  // at least the lowest latency.
  if (collectives_->AwaitsEntries()) {
    const double latency = collectives_->MinRankToRankNs();
    const std::uint64_t floor =
        std::isfinite(latency) ? static_cast<std::uint64_t>(std::llround(latency)) : 0;
    bound = std::min(bound, (t_ns > 0 ? t_ns - 1 : 0) + floor);
  }
  if (LookaheadNs() == 0) bound = std::min(bound, t_ns);
  // The latest report counts, even when lower: transits handed over since
  // can end earlier than what was held before.
  reached_ns_ = bound > 0 ? bound - 1 : 0;
  outcomes_->ReportReached(reached_ns_);
}

// t_deliver - t_send is round(latency), and rounding keeps order, so the
// rounded bounds are bounds.
std::uint64_t FabricAdapter::LookaheadNs() const {
  const double between = model_->MinLatency().between_endpoints_ns;
  return std::isfinite(between) ? static_cast<std::uint64_t>(std::llround(between)) : 0;
}

// A rank whose collectives only send ends them at their t_send.
std::uint64_t FabricAdapter::SelfLookaheadNs() const { return 0; }

void FabricAdapter::PostCompleted() {
  for (const ModelCompletion& completion : completed_) {
    if (completion.dropped) {
      outcomes_->Drop(completion.id, completion.t_deliver_ns());
    } else {
      outcomes_->Deliver(completion.id, completion.t_deliver_ns());
    }
  }
  completed_.clear();
  for (const LiveCollectives::Ended& e : ended_) {
    if (e.dropped) {
      outcomes_->Drop(e.transit_id, e.t_ns);
    } else {
      outcomes_->Deliver(e.transit_id, e.t_ns);
    }
  }
  ended_.clear();
}

}  // namespace trestle::fabric
