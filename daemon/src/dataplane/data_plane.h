// DataPlane: the daemon's data path, as a few classes with one job each,
// wired together here:
//
//   SendAdmission       Send -> id, checks, store, ledger, transit queue
//   TransitDispatcher   transits -> simulators (PUSH / Fetch), held transits
//   (OnOutcomes, here)  outcomes checked -> ledger, then the OutcomeRoute
//   DeliveryDispatcher  deliveries -> apps (PUSH / Receive), slow apps, TTL
//   MessageLedger       the message table and the accounting identity
//   SimulatorAssignment which simulator owns a message
//   DestinationLookup   the app a Send names (LocalDestinationLookup)
//   DeliveryBudget      the one global bound that may pause simulators
//   TimeCoordinator     lockstep time: grants, safe deliveries, quiescence
//   LockstepRelay       lockstep time on a peer daemon: stands in for its apps
//   FederationRouter    federation: messages to and from peer daemons
//   OutcomeRoute        where an outcome goes: free-running, coordinated
//                       (lockstep) or federated (outcome_route.h)
//
// What the run is (time mode, coordinator or peer, federated or not) is
// settled when the data plane is built: which of these exist, how they are
// wired to each other, and the outcome route.
//
// The FrameRouter hands it frames already checked for role and channel; the
// SessionManager tells it when sessions become ready or lose their
// channels. Loop thread only.
#pragma once

#include <uv.h>

#include <cstdint>
#include <memory>
#include <optional>

#include "dataplane/outcome_route.h"
#include "dataplane/send_admission.h"
#include "dispatch/delivery_budget.h"
#include "dispatch/delivery_dispatcher.h"
#include "dispatch/local_destination_lookup.h"
#include "dispatch/simulator_assignment.h"
#include "dispatch/transit_dispatcher.h"
#include "federation/bridge_links.h"
#include "federation/federation_router.h"
#include "lockstep/lockstep_relay.h"
#include "lockstep/time_coordinator.h"
#include "messages/client_registry.h"
#include "messages/message_ledger.h"
#include "session/session_closer.h"
#include "trestle.pb.h"
#include "trestle/daemon/daemon_config.h"
#include "trestle/daemon/payload_store.h"

namespace trestle::daemon {

class Session;

class DataPlane {
 public:
  // Everything passed here must outlive the data plane. With `bridge` (not
  // null: config.federate) the daemon is federated: the FederationRouter
  // uses it, and `fallback`, if not null, is `store` (it keeps payloads in
  // memory until their message leaves).
  DataPlane(uv_loop_t* loop, const DaemonConfig& config, PayloadStore& store,
            ClientRegistry& apps, ClientRegistry& sims, SessionCloser& closer,
            BridgeLinks* bridge = nullptr, FallbackPayloadStore* fallback = nullptr);

  // Session lifecycle, from the SessionManager.
  // Lockstep: app `s` said Hello; returns the virtual time it starts at
  // (Welcome.lockstep_start_ns), 0 in other time modes; nullopt on a peer
  // daemon of a lockstep run until the coordinator answers: then `joined`
  // (SetJoinedCallback) gets it.
  std::optional<std::uint64_t> OnAppHello(Session& s);
  void SetJoinedCallback(LockstepRelay::JoinedCallback joined);
  void OnSessionReady(Session& s);
  // The session lost its channels (or said Bye): give back what it held.
  void OnSessionDetached(Session& s);
  // A channel of `s` drained below its low watermark.
  void OnWritable(Session& s);

  // Frames, already checked for role and channel.
  void OnSend(Session& app, wire::Send& send) { admission_.OnSend(app, send); }
  void OnOutcomes(Session& sim, const wire::OutcomeBatch& batch);
  void OnFetch(Session& sim, const wire::Fetch& fetch) { transits_.OnFetch(sim, fetch); }
  void OnReceive(Session& app, const wire::Receive& r) { deliveries_.OnReceive(app, r); }
  void OnAck(Session& app, const wire::Ack& ack) { deliveries_.OnAck(app, ack); }
  // Lockstep frames (refused with an Error in other time modes).
  void OnClock(Session& app, const wire::Clock& clock);
  void OnReached(Session& sim, const wire::Reached& reached);

  // Null unless federated.
  FederationRouter* federation() { return federation_.get(); }
  const FederationRouter* federation() const { return federation_.get(); }

  // Writes what became ready during this loop pass (before the loop sleeps).
  void RunPumps();
  // Periodic work (TTL expiry, slow apps, store retries) at loop time `now_ms`.
  void Housekeeping(std::uint64_t now_ms) {
    deliveries_.Housekeeping(now_ms);
    if (federation_) federation_->Housekeeping(now_ms);
    if (relay_) relay_->Housekeeping(now_ms);
    if (time_) time_->CheckStall(now_ms);
  }
  // After a burst, gives back the room the message table, the registries and
  // the store no longer need. Returns whether anything was given back.
  bool Compact();

  void set_draining(bool draining) { admission_.set_draining(draining); }
  // Every message that ends is written to `trace` (null: none).
  void SetTrace(MessageTrace* trace) { ledger_.SetTrace(trace); }
  bool draining() const { return admission_.draining(); }

  const MessageLedger& ledger() const { return ledger_; }
  const TransitDispatcher& transits() const { return transits_; }
  const DeliveryDispatcher& deliveries() const { return deliveries_; }
  const DeliveryBudget& budget() const { return budget_; }
  // Null unless time_mode is lockstep.
  const TimeCoordinator* time() const { return time_.get(); }

 private:
  uv_loop_t* loop_;
  ClientRegistry& apps_;
  ClientRegistry& sims_;
  PayloadStore& store_;
  MessageLedger ledger_;
  SimulatorAssignment assignment_;
  LocalDestinationLookup destinations_;
  TransitDispatcher transits_;
  DeliveryBudget budget_;
  DeliveryDispatcher deliveries_;
  SendAdmission admission_;
  std::unique_ptr<TimeCoordinator> time_;   // lockstep, this daemon coordinates
  std::unique_ptr<LockstepRelay> relay_;    // lockstep, another daemon coordinates
  std::unique_ptr<FederationRouter> federation_;
  std::unique_ptr<OutcomeRoute> route_;
};

}  // namespace trestle::daemon
