// Ns3TransitHandler: the ns-3 adapter's TransitHandler (part of trestle_ns3).
// It turns every admitted transit into a transfer of `size` bytes through an
// Ns3Network, from the sender's endpoint to the receiver's, and posts the
// outcome when the transfer ends: DELIVERED at the simulated time the last
// byte arrives, or DROPPED (UDP: a datagram was lost; TCP: the connection
// broke) at the time the loss was found.
//
// ns-3 runs on the adapter's event loop in slices of at most
// `max_events_per_slice` events (a libuv idle handle runs one per loop
// pass, so the daemon connection is served between slices), never beyond
// the time the mode allows. Trestle time t is ns-3 time warmup + t.
//
//   virtual    each transfer starts at its t_send. A transit whose t_send
//              ns-3's clock has already passed starts now and is counted
//              (stats().late_transits). ns-3 runs while a transfer is in
//              flight or a transit waits for its t_send.
//   wallclock  each transfer starts at once, at ns-3's clock; ns-3 runs
//              while a transfer is in flight. t_deliver = t_send + the
//              simulated transfer time.
//   paced      ns-3 runs behind the wall clock: at wall time start + x *
//              dilation it has simulated to x (a timer wakes it for its next
//              event; nothing is posted early). Transfers start at t_send,
//              or now if late (counted). Outcomes are posted as ns-3
//              reaches them, so SimAdapter must not pace again (pace off).
//   lockstep   ns-3 runs only up to the last grant. A grant to T promises no
//              transit with t_send < T; once every event before T has run,
//              the handler reports through OutcomeSink::ReportReached that
//              every outcome with t_deliver <= R is posted, R = min(next
//              ns-3 event, T + LookaheadNs()) - 1. Transfers start at
//              exactly t_send, ordered (t_send, source endpoint, id) and
//              after every event that earlier events scheduled for that
//              time, however ns-3 was sliced: the same grants and transits
//              give the same outcomes.
//
// Ordering (options.ordering): by connection (the default), a message's
// outcome waits until every earlier message of its connection (same
// endpoints and traffic class) has had its own, and a delivery is never
// posted at a time below the connection's previous one: UDP datagrams of a
// later message may all arrive first, TCP's per-pair stream keeps the order
// anyway. By message, each outcome is posted as its transfer ends.
//
// LookaheadNs() is the smallest t_deliver - t_send it posts between two
// distinct endpoints: the endpoint delay plus the network's fastest transfer
// (a transfer started at s changes no other before s + that); in lockstep a
// loss is reported no earlier. SelfLookaheadNs(), for a message to its own
// endpoint, which never enters the network: the endpoint delay.
//
// Threading and lifetime: the loop's thread only. `loop` and `network`
// must outlive the handler; the handler must be destroyed before `loop`
// (its libuv handles close on the loop). One handler per network.
#ifndef TRESTLE_NS3_NS3_TRANSIT_HANDLER_H_
#define TRESTLE_NS3_NS3_TRANSIT_HANDLER_H_

#include <cstdint>
#include <memory>

#include "trestle/adapter/transit_handler.h"
#include "trestle/fabric/message_ordering.h"
#include "trestle/event_loop.h"
#include "trestle/fabric/network_model.h"
#include "trestle/ns3/ns3_network.h"

namespace trestle::ns3_adapter {

struct Ns3HandlerOptions {
  double dilation = 1.0;  // paced: wall ns per simulated ns (> 0)
  std::uint64_t max_events_per_slice = 10'000;
  // kConnection: each connection's outcomes are posted in the order its
  // messages were sent (ConnectionOrder), its deliveries' times kept in
  // order; kMessage: as each transfer finishes.
  fabric::MessageOrdering ordering = fabric::MessageOrdering::kConnection;
};

struct Ns3HandlerStats {
  std::uint64_t late_transits = 0;  // started after their t_send (see above)
  std::uint64_t in_flight = 0;      // transfers started and not finished
  std::uint64_t waiting = 0;        // transits waiting for their t_send
  std::uint64_t delivered = 0;
  std::uint64_t dropped = 0;
  std::uint64_t events = 0;  // ns-3 events run
  std::uint64_t slices = 0;
  std::uint64_t now_ns = 0;      // ns-3's clock, in Trestle time
  std::uint64_t reached_ns = 0;  // lockstep: the last ReportReached
};

class Ns3TransitHandler final : public adapter::TransitHandler {
 public:
  Ns3TransitHandler(EventLoop& loop, Ns3Network& network, Ns3HandlerOptions options);
  ~Ns3TransitHandler() override;
  Ns3TransitHandler(const Ns3TransitHandler&) = delete;
  Ns3TransitHandler& operator=(const Ns3TransitHandler&) = delete;

  // TransitHandler.
  void Begin(wire::TimeMode mode, adapter::OutcomeSink& outcomes) override;
  void HandleTransit(const Transit& transit, const adapter::EndpointPair& endpoints) override;
  void HandleGrant(std::uint64_t t_ns) override;
  std::uint64_t LookaheadNs() const override;
  std::uint64_t SelfLookaheadNs() const override;
  bool ReportsReached() const override { return true; }

  fabric::LatencyBounds MinLatency() const;
  Ns3HandlerStats stats() const;
  // Nothing to simulate now: no transfer in flight, no transit whose time
  // has come, the grant (lockstep) reached.
  bool idle() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace trestle::ns3_adapter

#endif  // TRESTLE_NS3_NS3_TRANSIT_HANDLER_H_
