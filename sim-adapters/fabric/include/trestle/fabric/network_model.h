// NetworkModel: the event-driven interface every network model of the fabric
// library implements, and the one its callers (the live adapter, collective
// sweeps) go through.
//
// A caller submits messages (who sends to whom, how many bytes, in which
// traffic class, at which virtual time) and advances the model's clock;
// completions come back with the modelled latency, so t_deliver. A model may
// complete a message during Submit (the congestion-unaware model knows its
// time at once) or only during a later AdvanceTo (a contention model knows a
// flow's end only once the flows that share its links are known), and in any
// order. Callers therefore treat every call that takes a `completed` vector
// as one that may append to it, and match completions by id.
//
// Clock: the model's time starts at 0 and only moves forward. AdvanceTo(T)
// runs every internal event at or before T, after which every message
// submitted so far whose t_deliver is <= T has been completed. A message
// submitted with t_send below the time the model has reached is late: each
// model says what it does with one (the congestion-unaware model has no state
// and prices it at its own t_send).
//
// Implementations: UnawareNetworkModel (unaware_network_model.h) and
// FlowNetworkModel (flow_network_model.h, flow-level contention). ns-3 (for
// sweeps) plugs in here.
//
// Threading: a model belongs to one thread; nothing here is thread-safe.
// C++17-clean: ns-3 code may implement or use this header.
#ifndef TRESTLE_FABRIC_NETWORK_MODEL_H_
#define TRESTLE_FABRIC_NETWORK_MODEL_H_

#include <cstdint>
#include <limits>
#include <memory>
#include <string_view>
#include <vector>

#include "trestle/fabric/link.h"
#include "trestle/fabric/step_pricer.h"

namespace trestle::fabric {

// One message as a model sees it: metadata only, never a payload.
struct ModelMessage {
  std::uint64_t id = 0;  // the caller's; completions carry it back
  NodeId src = kNoNode;  // source endpoint, < EndpointCount()
  NodeId dst = kNoNode;  // destination endpoint (src itself allowed)
  std::uint64_t size_bytes = 0;
  TrafficClass tclass = 0;
  std::uint64_t t_send_ns = 0;  // virtual time at which it leaves src
  // Its place among src's messages that start at the same time, before id:
  // messages start in (t_send_ns, src, order, id) order. The live adapter
  // gives a transit its message id, and a collective's replayed message the
  // id of the transit that carried it (its place in the rank's sends).
  std::uint64_t order = 0;
};

// What the model decided for one submitted message.
struct ModelCompletion {
  std::uint64_t id = 0;
  std::uint64_t t_send_ns = 0;  // as submitted
  // Modelled t_deliver - t_send, in ns (sub-ns precision kept); >= 0.
  double latency_ns = 0;
  bool dropped = false;  // lost in the network (a queue overflowed)

  // The delivery time as the bridge reports it: t_send + round(latency).
  std::uint64_t t_deliver_ns() const;
};

// Lower bounds on a message's latency (t_deliver - t_send), in ns: what a
// lockstep adapter can declare as its lookahead.
struct LatencyBounds {
  // Any message between two distinct endpoints; +infinity when the topology
  // has no two connected endpoints.
  double between_endpoints_ns = std::numeric_limits<double>::infinity();
  // A message from an endpoint to itself.
  double to_itself_ns = 0;

  // Every message, whatever its endpoints.
  double AnyMessageNs() const {
    return between_endpoints_ns < to_itself_ns ? between_endpoints_ns : to_itself_ns;
  }
};

class Topology;

// The bounds on an idle network: between endpoints, the endpoint delay plus
// the link and switch latencies of the shortest endpoint-to-endpoint path (a
// 0-byte message on it); to itself, the endpoint delay. Searches the topology
// once (MinEndpointPathLinks).
LatencyBounds IdleLatencyBounds(const Topology& topology, double endpoint_delay_ns);

class NetworkModel {
 public:
  // NextEventNs() when the model holds nothing that will complete by itself.
  static constexpr std::uint64_t kNoEvent = std::numeric_limits<std::uint64_t>::max();

  virtual ~NetworkModel() = default;

  // Short name for output, e.g. "unaware".
  virtual std::string_view Name() const = 0;

  // Takes `message` in; appends to *completed any completion that is known
  // by the end of the call (this message's or, for a model with a clock,
  // others'). Never clears *completed.
  virtual void Submit(const ModelMessage& message, std::vector<ModelCompletion>* completed) = 0;
  // Moves the clock to `t_ns` (no-op if it is already there or beyond),
  // running every event up to it; appends the completions that become known.
  virtual void AdvanceTo(std::uint64_t t_ns, std::vector<ModelCompletion>* completed) = 0;
  // The time of the next internal event (a completion, a rate change), or
  // kNoEvent. AdvanceTo(NextEventNs()) always makes progress.
  virtual std::uint64_t NextEventNs() const = 0;
  // How far AdvanceTo has moved the clock.
  virtual std::uint64_t NowNs() const = 0;
  // Messages submitted and not completed yet.
  virtual std::size_t InFlight() const = 0;

  // Lower bounds on latency, from the topology and the model's parameters.
  virtual LatencyBounds MinLatency() const = 0;
  // A lower bound on the t_deliver of every message submitted and not yet
  // completed, or kNoEvent when there is none, as long as nothing more is
  // submitted before it (each model says how far a later message can move
  // it); with MinLatency() it tells a lockstep adapter how far its outcomes
  // are final. The default: NowNs() while anything is in flight.
  virtual std::uint64_t PendingDeliveryBoundNs() const;

  // A pricer for groups of messages that start together on an idle network
  // (the steps of a collective), at many sizes. The default simulates each
  // group through Submit and AdvanceTo (SimulatedStepPricer); a model whose
  // messages do not interact may return a faster one with the same answers.
  // The model must outlive the pricer, and the pricer needs the model to
  // itself (nothing in flight, nothing submitted meanwhile).
  virtual std::unique_ptr<StepPricer> NewStepPricer();
};

using NetworkModelPtr = std::unique_ptr<NetworkModel>;

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_NETWORK_MODEL_H_
