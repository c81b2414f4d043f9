// SendAdmission: how a Send becomes a message the daemon is responsible
// for. It gives the Send its id, checks it (draining, destination, payload
// size), resolves the destination, opens the message in the ledger, hands
// the payload to the store, and once the store has it counts the message as
// accepted and queues its transit. Anything refused gets an Error on the
// sender's send channel with the message id in ref_id, and is counted as
// rejected: a send is never dropped silently. A Send by key (docs/protocol.md,
// "Payloads by key") has its payload checked in the store (Adopt) instead of
// put there. In lockstep time the
// TimeCoordinator (on a peer daemon of a federated run, the LockstepRelay)
// checks t_send against the app's clock first, and follows the message
// until it is with a simulator (or handed on to the coordinator).
//
// Loop thread only. Everything passed to the constructor must outlive it.
#pragma once

#include <cstdint>
#include <string>

#include "dispatch/destination_lookup.h"
#include "dispatch/simulator_assignment.h"
#include "dispatch/transit_dispatcher.h"
#include "federation/federation_router.h"
#include "lockstep/lockstep_sends.h"
#include "messages/client_registry.h"
#include "messages/message_ledger.h"
#include "trestle.pb.h"
#include "trestle/daemon/daemon_config.h"
#include "trestle/daemon/payload_store.h"

namespace trestle::daemon {

class Session;

class SendAdmission {
 public:
  SendAdmission(const DaemonConfig& config, MessageLedger& ledger, ClientRegistry& apps,
                PayloadStore& store, DestinationLookup& destinations,
                SimulatorAssignment& assignment, TransitDispatcher& transits);

  void OnSend(Session& s, wire::Send& send);
  // Lockstep time: the run's coordinator (null in other time modes).
  void SetLockstep(LockstepSends* time) { time_ = time; }
  // Federation: accepted messages may be handed to a simulator elsewhere.
  void SetFederation(FederationRouter* federation) { federation_ = federation; }

  // Draining: new sends are refused (SHUTTING_DOWN); what is in flight goes on.
  void set_draining(bool draining) { draining_ = draining; }
  bool draining() const { return draining_; }

 private:
  void Reject(std::uint32_t sender, std::uint64_t id, wire::ErrorCode code,
              const std::string& text);
  void OnStored(std::uint64_t id, const absl::Status& status);
  // Send.by_key: true if this daemon takes it (a Redis store, sends by key
  // on, no inline payload, a size); otherwise rejects it, naming why.
  bool CheckByKey(std::uint32_t sender, std::uint64_t id, const wire::Send& send);
  // Send.collectives: true if the send goes to its sender itself and the
  // collectives take at most half of max_frame_bytes (they ride in a
  // transit); otherwise rejects it, naming why.
  bool CheckCollectives(std::uint32_t sender, std::uint64_t id, const wire::Send& send);

  const DaemonConfig& config_;
  MessageLedger& ledger_;
  ClientRegistry& apps_;
  PayloadStore& store_;
  DestinationLookup& destinations_;
  SimulatorAssignment& assignment_;
  TransitDispatcher& transits_;
  LockstepSends* time_ = nullptr;
  FederationRouter* federation_ = nullptr;
  bool draining_ = false;
};

}  // namespace trestle::daemon
