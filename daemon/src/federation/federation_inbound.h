// FederationInbound: what a federated daemon takes in (docs/federation.md),
// the inbound half of the FederationRouter: the entries of this daemon's
// stream, and at start what its journal holds from an earlier life.
//
//   - A message entry (a batch of messages handed on by a peer daemon, or
//     one alone) becomes messages here, counted from_peers, which go on
//     through FederationOutbound: a transit to a simulator (here, or the
//     daemon of one), a delivery to its app (here, or the app's daemon), a
//     drop report to its sender here. An entry is acknowledged once every
//     message it brought is finished here: delivered, dropped, expired,
//     lost, or handed on (PeerStreams::Hold; OnDurableDone releases it).
//   - A second entry for a message still in hand is acknowledged and
//     ignored, unless this daemon's own hand-on of it is still unanswered:
//     then the message came back from the next daemon before the append's
//     reply, so it counts as forwarded and the entry brings it back
//     (MessageRecord::hand_on_serial). A replayed entry (read from this
//     daemon's pending entries after a restart) whose payload is gone was
//     carried out before: it is acknowledged and not counted again.
//   - A drop-report entry is not a message: it is counted nowhere,
//     acknowledged at once, and its report queued for its sender (best
//     effort, as a report on one daemon is: a kill loses it). So is a
//     report of a payload lost in the store (its entry says so).
//   - A lockstep report goes to the run's TimeCoordinator or LockstepRelay;
//     a backpressure word to PeerBackpressure.
//   - Recover() takes up, after a restart, the messages the journal holds
//     (counted recovered); OnDurableDone deletes a finished message's
//     journal entry.
//
// Entries that cannot be read are acknowledged (or deleted from the
// journal), logged and counted (bad_entries).
//
// Loop thread only. Everything passed to the constructor must outlive it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "federation/bridge_links.h"
#include "federation/federation_outbound.h"
#include "federation/peer_backpressure.h"
#include "federation/peer_message.h"
#include "federation/peer_streams.h"
#include "lockstep/lockstep_link.h"
#include "messages/client_registry.h"
#include "messages/message_ledger.h"
#include "trestle/daemon/daemon_config.h"

namespace trestle::daemon {

class FederationInbound final : public PeerStreams::EntryHandler, public DurableMessageObserver {
 public:
  // Lockstep reports go to `coordinator` (this daemon coordinates the run)
  // or `relay` (a peer of it); both null outside lockstep time.
  FederationInbound(const DaemonConfig& config, MessageLedger& ledger, ClientRegistry& apps,
                    BridgeLinks& bridge, PeerBackpressure& backpressure,
                    FederationOutbound& outbound, LockstepCoordinatorEvents* coordinator,
                    LockstepRelayEvents* relay);

  // PeerStreams::EntryHandler.
  void OnPeerEntry(PeerStreams::EntryId entry, std::span<const std::string_view> fields,
                   bool replayed) override;
  // DurableMessageObserver: `r` is finished here; the entry it came in
  // (stream) or its journal entry goes.
  void OnDurableDone(const MessageRecord& r) override;
  // Takes up the messages this daemon's journal holds from an earlier life
  // (once, at start, after the first heartbeat is sent).
  void Recover();

  // Entries of this daemon's stream (or journal) that could not be read
  // (counted, logged).
  std::uint64_t bad_entries() const { return bad_entries_; }

 private:
  // An entry that is a lockstep report.
  void OnTimeEntry(PeerStreams::EntryId entry, std::span<const std::string_view> fields);
  // A message of entry `entry` of this daemon's stream: taken over here,
  // unless it is in hand already or (`replayed`) was finished before.
  void TakeUp(const PeerMessage& m, PeerStreams::EntryId entry, bool replayed);
  void Admit(const PeerMessage& m, PeerStreams::EntryId entry, bool replayed);
  void BadEntry(PeerStreams::EntryId entry, const std::string& why);
  // A drop report of an entry: queued for its sender here.
  void AdmitDropReport(const PeerMessage& m, PeerStreams::EntryId entry);
  void AdmitRecovered(StreamEntryId entry, std::span<const std::string_view> fields);
  // A record for `m` (null if its id is in use here) with `m`'s fields.
  MessageRecord* OpenFor(const PeerMessage& m, StreamEntryId entry);

  MessageLedger& ledger_;
  ClientRegistry& apps_;
  BridgeDirectory& directory_;
  PeerStreams& streams_;
  MessageJournal& journal_;
  PeerBackpressure& backpressure_;
  FederationOutbound& outbound_;
  LockstepCoordinatorEvents* coordinator_;  // this daemon coordinates the run
  LockstepPeerEvents* lockstep_;            // the coordinator or the relay; null: not lockstep
  const std::string payload_prefix_;        // the shared store's keys (BridgePayloadPrefix)
  std::uint64_t recovered_ = 0;             // Recover's count
  std::uint64_t bad_entries_ = 0;
};

}  // namespace trestle::daemon
