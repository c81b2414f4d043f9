// TransitHandler: the part of a simulator adapter that models the network;
// OutcomeSink: where it posts what it decided. SimAdapter (sim_adapter.h)
// connects a handler to trestled and does everything else: the session, the
// time mode, endpoint mapping and the unmapped-id and loss policies, pacing,
// counters.
//
// The handler is given transits one at a time, each already admitted (both
// client ids mapped to endpoints, not lost), and posts exactly one outcome
// per transit through the sink: at once (the ghost, the congestion-unaware
// fabric model) or later, from any later call or loop callback (a model whose
// completions need time to pass). Outcomes may be posted in any order.
//
// Lockstep time (coming: the daemon grants time to simulators) adds three
// things, present here already so that handlers are written for them:
//   - HandleGrant(T): "you may advance to virtual time T", a promise that no
//     transit with t_send < T will come. Nothing calls it yet: the protocol
//     frames do not exist.
//   - OutcomeSink::ReportReached(T'): "every outcome with t_deliver <= T' has
//     been posted".
//   - LookaheadNs(): the smallest t_deliver - t_send the handler ever
//     produces, so that time can advance in steps of that size.
//
// Threading: every call runs on the adapter's loop thread. C++17-clean.
#ifndef TRESTLE_ADAPTER_TRANSIT_HANDLER_H_
#define TRESTLE_ADAPTER_TRANSIT_HANDLER_H_

#include <cstdint>

#include "trestle/adapter/endpoint_id.h"
#include "trestle/adapter/time_mode.h"
#include "trestle/transit.h"

namespace trestle::adapter {

class OutcomeSink {
 public:
  // DELIVERED at `t_deliver_ns` (>= the transit's t_send). In paced mode the
  // sink holds it until its wall time, unless the adapter paces itself.
  virtual void Deliver(std::uint64_t id, std::uint64_t t_deliver_ns) = 0;
  // DROPPED by the model (a queue overflowed), at `t_ns`; posted at once.
  virtual void Drop(std::uint64_t id, std::uint64_t t_ns) = 0;
  // Lockstep: every outcome with t_deliver <= `t_ns` has been posted. Kept by
  // the sink (SimAdapter::reached_ns) until the protocol carries it.
  virtual void ReportReached(std::uint64_t t_ns) = 0;

 protected:
  ~OutcomeSink() = default;
};

class TransitHandler {
 public:
  virtual ~TransitHandler() = default;

  // Once per session, before its first transit: the time mode of the run
  // (the daemon's) and the sink for every outcome of the session. `outcomes`
  // stays valid until the adapter stops, so a handler that answers later
  // keeps it.
  virtual void Begin(TimeMode mode, OutcomeSink& outcomes) = 0;
  // One admitted transit. `endpoints` are kNoEndpoint when the adapter maps
  // no ids (SimAdapter without an EndpointMap).
  virtual void HandleTransit(const Transit& transit, const EndpointPair& endpoints) = 0;
  // Lockstep: no transit with t_send < `t_ns` will come. Default: nothing.
  virtual void HandleGrant(std::uint64_t /*t_ns*/) {}
  // The smallest t_deliver - t_send this handler posts, in ns. Default 0
  // (always true, and lets lockstep time advance only one grant at a time).
  virtual std::uint64_t LookaheadNs() const { return 0; }
};

}  // namespace trestle::adapter

#endif  // TRESTLE_ADAPTER_TRANSIT_HANDLER_H_
