// TransitHandler: the part of a simulator adapter that models the network;
// OutcomeSink: where it posts what it decided. SimAdapter (sim_adapter.h)
// connects a handler to trestled and does everything else: the session, the
// time mode, endpoint mapping and the unmapped-id and loss policies, pacing,
// counters.
//
// The handler is given transits one at a time, each already admitted (both
// client ids mapped to endpoints, not lost, and collectives only to a handler
// that replays them), and posts exactly one outcome
// per transit through the sink: at once (the ghost, the congestion-unaware
// fabric model) or later, from any later call or loop callback (a model whose
// completions need time to pass). Outcomes may be posted in any order.
//
// Lockstep time (the daemon grants time to simulators; docs/protocol.md)
// adds four things:
//   - HandleGrant(T): "you may advance to virtual time T", a promise that no
//     transit with t_send < T will come (in a zero-lookahead delta step,
//     transits at T - 1, the time the model has reached, may still come;
//     they start at their t_send).
//   - OutcomeSink::ReportReached(T'): "every outcome with t_deliver <= T' of
//     the transits handed over so far has been posted", and stays so
//     whatever transits come with t_send + LookaheadNs() > T' (the daemon
//     bounds the rest itself: it grants no more than it can keep).
//   - ReportsReached(): whether the handler calls ReportReached (at once or
//     later); a handler that does not posts every outcome by the time
//     HandleTransit returns, and counts as having reached everything.
//   - LookaheadNs(): the smallest t_deliver - t_send the handler ever
//     produces for a message between two distinct endpoints, and the
//     earliest a new transit changes any other outcome after its t_send, so
//     that time can advance in steps of that size. SelfLookaheadNs(): the
//     same for a message an endpoint sends to itself, which must change no
//     other outcome.
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
  // Lockstep: every outcome with t_deliver <= `t_ns` of the transits handed
  // over so far has been posted; the adapter tells the daemon (Reached),
  // capped below the transits it still holds.
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
  virtual void Begin(wire::TimeMode mode, OutcomeSink& outcomes) = 0;
  // One admitted transit. `endpoints` are kNoEndpoint when the adapter maps
  // no ids (SimAdapter without an EndpointMap).
  virtual void HandleTransit(const Transit& transit, const EndpointPair& endpoints) = 0;
  // Lockstep: no transit with t_send < `t_ns` will come. Default: nothing.
  virtual void HandleGrant(std::uint64_t /*t_ns*/) {}
  // The smallest t_deliver - t_send this handler posts between two distinct
  // endpoints, in ns. Default 0 (always true, and lets lockstep time
  // advance only one grant at a time).
  virtual std::uint64_t LookaheadNs() const { return 0; }
  // The same for a message to itself. Default: LookaheadNs().
  virtual std::uint64_t SelfLookaheadNs() const { return LookaheadNs(); }
  // Lockstep: true if the handler reports through OutcomeSink::ReportReached
  // (then it reports at least once per HandleGrant, at once or later, unless
  // nothing changed). Default false: outcomes are posted at once.
  virtual bool ReportsReached() const { return false; }
  // Whether HandleTransit takes transits that carry collectives
  // (Transit.collectives, docs/protocol.md "Collectives"), replaying them in
  // its model: SimAdapter declares it in Hello (capabilities), so apps learn
  // it at Welcome. In lockstep such a handler gets them as they come, with
  // no grant, and keeps its ReportReached below the grant while any of them
  // waits for a member's entry. Default false: SimAdapter drops them,
  // warning once.
  virtual bool ReplaysCollectives() const { return false; }
};

}  // namespace trestle::adapter

#endif  // TRESTLE_ADAPTER_TRANSIT_HANDLER_H_
