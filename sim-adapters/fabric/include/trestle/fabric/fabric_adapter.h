// FabricAdapter: the live fabric adapter (part of trestle_fabric_adapter). A
// thin user of the common adapter layer: SimAdapter connects to trestled,
// maps client ids to endpoints, applies the loss and unmapped-id policies
// and paces outcomes; this class hands every admitted transit to a
// NetworkModel and posts its completions:
//
//   DELIVERED, t_deliver = t_send + round(modelled ns)
//       (ModelCompletion::t_deliver_ns), when the model completes it: at once
//       for the congestion-unaware model.
//   DROPPED (SimAdapter): an unmappable id or --loss-rate, t_deliver = t_send.
//
// Adaptive routing sees no link load (the model is congestion-unaware).
// Lockstep: a grant advances the model to it (posting what completes), and
// LookaheadNs() is the model's lower bound on latency, rounded as t_deliver
// is. The per-transit path allocates nothing once mapped ids and containers
// have warmed up; nothing is logged per message.
//
// Threading and lifetime: everything runs on `loop`'s thread. `loop` and
// `topology` must outlive the adapter.
#ifndef TRESTLE_FABRIC_FABRIC_ADAPTER_H_
#define TRESTLE_FABRIC_FABRIC_ADAPTER_H_

#include <chrono>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "trestle/adapter/endpoint_map.h"
#include "trestle/adapter/sim_adapter.h"
#include "trestle/adapter/transit_handler.h"
#include "trestle/client_options.h"
#include "trestle/event_loop.h"
#include "trestle/fabric/network_model.h"
#include "trestle/fabric/network_model_factory.h"
#include "trestle/fabric/topology.h"

namespace trestle::fabric {

struct FabricAdapterOptions {
  // Time mode, dilation, loss and its seed (name "fabric").
  adapter::SimAdapterOptions adapter;
  NetworkModelKind model = NetworkModelKind::kUnaware;
  // Routing, its seed (the same --seed as the loss draws) and endpoint delay.
  NetworkModelOptions pricing;
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

  // TransitHandler.
  void Begin(adapter::TimeMode mode, adapter::OutcomeSink& outcomes) override;
  void HandleTransit(const Transit& transit, const adapter::EndpointPair& endpoints) override;
  void HandleGrant(std::uint64_t t_ns) override;
  std::uint64_t LookaheadNs() const override;

 private:
  // Posts and forgets what the model has completed.
  void PostCompleted();

  NetworkModelPtr model_;
  std::vector<ModelCompletion> completed_;  // reused for every call
  adapter::OutcomeSink* outcomes_ = nullptr;
  adapter::SimAdapter adapter_;  // last: it calls back into the members above
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_FABRIC_ADAPTER_H_
