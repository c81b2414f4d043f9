// FabricAdapter: the live fabric adapter (part of trestle_fabric_adapter). A
// thin user of the common adapter layer: SimAdapter connects to trestled,
// maps client ids to endpoints, applies the loss and unmapped-id policies
// and paces outcomes; this class hands every admitted transit to a
// NetworkModel (congestion-unaware or flow-level) and posts its completions:
//
//   DELIVERED, t_deliver = t_send + round(modelled ns)
//       (ModelCompletion::t_deliver_ns), when the model completes it: at once
//       for the congestion-unaware model; for the flow model, once the model's
//       clock has passed the end of the message's transfer.
//   DROPPED (SimAdapter): an unmappable id or --loss-rate, t_deliver = t_send.
//
// When the model's clock moves (docs/fabric.md, "Live adapter"):
//   virtual, paced, wallclock  transits are taken in arrival order. A transit
//       first advances the model to its t_send (if that is ahead of the
//       clock), then enters it; one whose t_send is behind the clock enters
//       at the clock. When no transit has come for `drain_after` while
//       messages are in flight, the model runs until they have all completed
//       (in slices of at most kDrainEventsPerPass events per loop pass, so
//       the connection stays served). Not causal: a message's outcome can
//       depend on the wall-clock order of arrivals.
//   lockstep (any other mode, or once HandleGrant is called)  a grant T
//       advances the model to T - 1 (every start before T is known, and starts
//       at T wait for the transits still allowed to come at T), posts what
//       completed, and reports reached = the model's bound on what is still
//       in flight - 1 (PendingDeliveryBoundNs: the next event plus the
//       lowest latency behind it, so that time jumps from event to event):
//       every outcome with t_deliver at or below it has been posted, and a
//       later transit changes none before its t_send + lookahead. With zero
//       lookahead, capped at T - 1. Causal and repeatable.
// Collectives (Transit.collectives, taken in as they come: SimAdapter hands
// them over at once): LiveCollectives replays them through the same model
// as every other transit, in time order. In lockstep a grant T runs the
// model's events before T and the replay's steps due at or before T,
// interleaved by time (a step due at T is pending in the model like a
// transit at T); reached is also kept below the next step due, and, while a
// collective lacks a member's entry, below the grant plus the lowest
// rank-to-rank latency. In the arrival-order modes a batch runs at once, to
// its end. The transit is DELIVERED when its rank's last collective in it
// ends.
// LookaheadNs() is the model's lower bound on latency between two distinct
// endpoints, SelfLookaheadNs() to itself: 0, as a rank whose collectives
// only send ends them at their t_send; rounded as t_deliver is. The per-transit path allocates nothing once mapped ids and containers
// have warmed up; nothing is logged per message.
//
// Threading and lifetime: everything runs on `loop`'s thread. `loop` and
// `topology` must outlive the adapter.
#ifndef TRESTLE_FABRIC_FABRIC_ADAPTER_H_
#define TRESTLE_FABRIC_FABRIC_ADAPTER_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "trestle/adapter/endpoint_map.h"
#include "trestle/adapter/endpoint_resolver.h"
#include "trestle/adapter/sim_adapter.h"
#include "trestle/adapter/transit_handler.h"
#include "trestle/client_options.h"
#include "trestle/event_loop.h"
#include "trestle/fabric/live_collectives.h"
#include "trestle/fabric/network_model.h"
#include "trestle/fabric/network_model_factory.h"
#include "trestle/fabric/topology.h"

namespace trestle::fabric {

namespace internal {
class LoopTimer;
}  // namespace internal

struct FabricAdapterOptions {
  // Time mode, dilation, loss and its seed (name "fabric").
  adapter::SimAdapterOptions adapter;
  NetworkModelKind model = NetworkModelKind::kUnaware;
  // Routing, its seed (the same --seed as the loss draws), endpoint delay and
  // the flow model's settings.
  NetworkModelOptions pricing;
  // Arrival-order modes: how long without a transit before the messages in
  // flight are run to completion.
  std::chrono::milliseconds drain_after{1};
};

class FabricAdapter final : public adapter::TransitHandler {
 public:
  FabricAdapter(EventLoop& loop, ClientOptions client, const Topology& topology,
                adapter::EndpointMap endpoints, FabricAdapterOptions options);
  ~FabricAdapter() override;

  // As SimAdapter::Start / Stop.
  absl::Status Start() { return adapter_.Start(); }
  absl::Status Stop(std::chrono::milliseconds timeout) { return adapter_.Stop(timeout); }

  const adapter::AdapterCounters& counters() const { return adapter_.counters(); }
  std::size_t held() const { return adapter_.held(); }
  adapter::SimAdapter& adapter() { return adapter_; }
  const NetworkModel& model() const { return *model_; }

  // Events the drain runs per loop pass.
  static constexpr int kDrainEventsPerPass = 4096;

  // TransitHandler.
  void Begin(wire::TimeMode mode, adapter::OutcomeSink& outcomes) override;
  void HandleTransit(const Transit& transit, const adapter::EndpointPair& endpoints) override;
  void HandleGrant(std::uint64_t t_ns) override;
  std::uint64_t LookaheadNs() const override;
  std::uint64_t SelfLookaheadNs() const override;
  bool ReportsReached() const override { return true; }
  bool ReplaysCollectives() const override { return true; }

  // True until a grant comes or the session is in a mode other than virtual,
  // paced and wallclock.
  bool arrival_order() const { return arrival_order_; }
  // The last ReportReached (0: none yet).
  std::uint64_t reached_ns() const { return reached_ns_; }

 private:
  // Posts and forgets what the model has completed.
  void PostCompleted();
  // Runs a slice of the model's events; re-arms itself while any are left.
  void Drain();
  // LiveCollectives::Run, its error logged.
  void RunCollectives(std::uint64_t grant);
  // Hands the replay's completions in completed_ to it (a model may report
  // them on any call); the rest stay.
  void TakeArrivals();

  NetworkModelPtr model_;
  adapter::EndpointResolver collective_peers_;  // the peers named in collectives
  std::unique_ptr<LiveCollectives> collectives_;
  std::vector<LiveCollectives::Ended> ended_;  // reused for every call
  std::vector<ModelCompletion> completed_;  // reused for every call
  adapter::OutcomeSink* outcomes_ = nullptr;
  std::chrono::milliseconds drain_after_;
  std::unique_ptr<internal::LoopTimer> drain_timer_;
  bool arrival_order_ = true;
  std::uint64_t reached_ns_ = 0;
  adapter::SimAdapter adapter_;  // last: it calls back into the members above
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_FABRIC_ADAPTER_H_
