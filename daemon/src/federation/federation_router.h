// FederationRouter: the data plane's part of a federated bridge
// (docs/federation.md), composed of its two halves and what they share:
//
//   FederationOutbound  what leaves: hand-on to the next daemon's stream,
//                       one batch entry per daemon per loop pass, the
//                       journal, parked deliveries, the registry's answers
//   FederationInbound   what comes in: this daemon's stream's entries, and
//                       at start the journal of an earlier life
//   PeerBackpressure    transit queues full across daemons (words go out
//                       with the outbound appends, come in as entries)
//
// The router wires them once, when it is built: the ledger tells the
// inbound half when a durable message is finished, the streams hand
// entries to the inbound half and append answers to the outbound one. The
// rest of the daemon sees the router: SendAdmission offers it each accepted
// transit (TakeTransit), the data plane's outcome route offers deliveries
// and drop reports (outbound()), and the lockstep coordinator or relay
// talks to other daemons through outbound() (its LockstepLink).
//
// Loop thread only. Everything passed to the constructor must outlive it.
#pragma once

#include <uv.h>

#include <cstdint>

#include "absl/status/status.h"
#include "dispatch/delivery_dispatcher.h"
#include "dispatch/transit_dispatcher.h"
#include "federation/bridge_links.h"
#include "federation/federation_inbound.h"
#include "federation/federation_outbound.h"
#include "federation/peer_backpressure.h"
#include "lockstep/lockstep_link.h"
#include "messages/client_registry.h"
#include "messages/message_ledger.h"
#include "store/fallback_payload_store.h"
#include "trestle/daemon/daemon_config.h"
#include "trestle/daemon/payload_store.h"

namespace trestle::daemon {

class FederationRouter {
 public:
  // `fallback` (null: every payload is in the shared store) is the data
  // plane's store when it keeps payloads in memory. In lockstep time
  // `coordinator` (this daemon coordinates the run) or `relay` (a peer of
  // it) hears what comes from other daemons; both null otherwise.
  FederationRouter(uv_loop_t* loop, const DaemonConfig& config, MessageLedger& ledger,
                   ClientRegistry& apps, PayloadStore& store, TransitDispatcher& transits,
                   DeliveryDispatcher& deliveries, BridgeLinks& bridge,
                   FallbackPayloadStore* fallback, LockstepCoordinatorEvents* coordinator,
                   LockstepRelayEvents* relay);
  FederationRouter(const FederationRouter&) = delete;
  FederationRouter& operator=(const FederationRouter&) = delete;

  // Joins the bridge once BridgeLinks is open: starts reading this daemon's
  // stream (the error names the URL), sends the first heartbeat, and then
  // (its answer names the simulators elsewhere) takes up the journal.
  absl::Status Join(std::uint64_t now_ms);

  // An accepted message about to queue for a simulator: true if it was
  // handed on instead (FederationOutbound::TakeTransit).
  bool TakeTransit(MessageRecord& r) { return outbound_.TakeTransit(r); }
  // At the end of each loop pass (and before the streams close): the
  // pass's batches and the stream's acknowledgements go, and the other
  // daemons learn whether this one's transit queue is full.
  void EndOfPass() {
    outbound_.EndOfPass();
    streams_.FlushAcks();
    backpressure_.CheckQueue();
  }
  // Heartbeat (and the daemons alive, to the coordinator), retries,
  // trimming, transits waiting here for a simulator elsewhere, parked
  // deliveries, backpressure words that expired.
  void Housekeeping(std::uint64_t now_ms);
  // App `app` (registry index) has a session here now.
  void OnAppAttached(std::uint32_t app) { outbound_.OnAppAttached(app); }
  // Registry index `app` was freed (it may name another app next).
  void ForgetApp(std::uint32_t app) {
    outbound_.ForgetApp(app);
    backpressure_.ForgetApp(app);
  }

  FederationOutbound& outbound() { return outbound_; }
  const FederationInbound& inbound() const { return inbound_; }

 private:
  MessageLedger& ledger_;
  BridgeDirectory& directory_;
  PeerStreams& streams_;
  MessageJournal& journal_;
  LockstepCoordinatorEvents* coordinator_;
  std::uint64_t alive_as_of_ms_ = 0;  // the heartbeat last told to coordinator_
  PeerBackpressure backpressure_;
  FederationOutbound outbound_;
  FederationInbound inbound_;
};

}  // namespace trestle::daemon
