// UnawareNetworkModel: the congestion-unaware model behind NetworkModel.
// Every message is routed (the model's Routing, seeded) and priced by
// MessageTimeModel on an idle network, so it completes during Submit.
//
// MessageOrdering::kMessage: each message alone, latency =
// MessageTimeModel::TimeNs(route, size) exactly, t_deliver = t_send +
// round(latency), whatever else was sent.
// kConnection (the default): a message's bytes leave its source only once
// the previous message of its connection has left (its start + size /
// bottleneck), so it starts at max(t_send, that), latency = (start - t_send)
// + MessageTimeModel's time; and its t_deliver is never below the previous
// message's. A message alone on its connection costs exactly what it costs
// under kMessage. Messages are taken in the order submitted.
//
// Nothing is ever in flight, NextEventNs() is kNoEvent, and a late message
// (t_send below NowNs()) is priced at its own t_send like any other. Never
// drops.
//
// Its StepPricer routes each step's messages once, in AddStep (in the order
// given), reduces them to their distinct path profiles and prices every size
// from those: the same times as SimulatedStepPricer over this model with
// deterministic routing, at a fraction of the cost.
//
// Costs: Submit is one Route and one pass over the path (and, per
// connection, one hash lookup); it allocates nothing once the caller's
// completion vector and the connections seen have grown. Memory: about 40
// bytes per connection ever seen. MinLatency()
// searches the topology once (MinEndpointPathLinks) and keeps the answer.
// Threading: one thread (Submit mutates the routing's generator).
#ifndef TRESTLE_FABRIC_UNAWARE_NETWORK_MODEL_H_
#define TRESTLE_FABRIC_UNAWARE_NETWORK_MODEL_H_

#include <optional>
#include <vector>

#include "trestle/fabric/connection_table.h"
#include "trestle/fabric/message_time_model.h"
#include "trestle/fabric/network_model.h"
#include "trestle/fabric/network_model_factory.h"
#include "trestle/fabric/routing.h"
#include "trestle/fabric/topology.h"

namespace trestle::fabric {

class UnawareNetworkModel final : public NetworkModel {
 public:
  // `topology` must outlive the model.
  UnawareNetworkModel(const Topology& topology, const NetworkModelOptions& options);

  std::string_view Name() const override { return "unaware"; }
  void Submit(const ModelMessage& message, std::vector<ModelCompletion>* completed) override;
  void AdvanceTo(std::uint64_t t_ns, std::vector<ModelCompletion>* completed) override;
  std::uint64_t NextEventNs() const override { return kNoEvent; }
  std::uint64_t NowNs() const override { return now_ns_; }
  std::size_t InFlight() const override { return 0; }
  // between_endpoints: endpoint delay + L × link latency + (L - 1) × switch
  // latency for the shortest endpoint-to-endpoint path of L links (a 0-byte
  // message on it); to_itself: endpoint delay.
  LatencyBounds MinLatency() const override;
  std::unique_ptr<StepPricer> NewStepPricer() override;

  const MessageTimeModel& time_model() const { return time_model_; }

 private:
  class ProfileStepPricer;

  // A connection's last message: when its bytes have left the source, and
  // its delivery.
  struct ConnectionState {
    double free_ns = 0;
    std::uint64_t last_deliver_ns = 0;
  };

  const Topology& topology_;
  MessageOrdering ordering_;
  RoutingPtr routing_;
  MessageTimeModel time_model_;
  ConnectionTable connections_;
  std::vector<ConnectionState> connection_state_;  // by ConnectionTable index
  Path path_;  // scratch
  std::uint64_t now_ns_ = 0;
  mutable std::optional<LatencyBounds> bounds_;  // computed on first use
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_UNAWARE_NETWORK_MODEL_H_
