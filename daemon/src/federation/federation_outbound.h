// FederationOutbound: what a federated daemon sends on (docs/federation.md),
// the outbound half of the FederationRouter. A message stays with the
// daemon that has what it needs next, and is handed on through the next
// daemon's stream otherwise:
//
//   - A transit goes to a simulator of this daemon if one serves its queue;
//     if none does and another daemon has one, the message is handed to that
//     daemon (the lowest id) as a transit entry. Transits that queued here
//     while no simulator was anywhere are handed on once one appears
//     (Housekeeping). On a peer daemon of a lockstep run every transit goes
//     to the coordinator.
//   - A DELIVERED message whose app has no session here is located in the
//     bridge's registry; if the app is attached to another daemon the
//     message is handed to it as a delivery entry (the registry's answer is
//     used for a second, and the deliveries that come while it is asked
//     wait for its answer, so a stream of deliveries to one app asks once).
//     If it is attached nowhere yet (or the registry cannot be reached), the
//     message is parked here (ParkedDeliveries): it goes to its app's queue
//     once the app attaches here, is handed on once the app turns up on
//     another daemon, and expires after delivery_ttl_ms.
//   - A DROPPED message whose sender asked for a report and has no session
//     here is located the same way: its drop report is handed to the
//     sender's daemon as a drop-report entry (the drop is counted here), or
//     waits here for the sender until delivery_ttl_ms. So is the report of
//     a payload lost in the store (DropReportRoute).
//   - The messages a loop pass hands to one daemon go as one entry of its
//     stream (PeerBatches; peer_message.h), appended at the end of the pass
//     (EndOfPass), or before a lockstep report to that daemon. A delivery
//     taken up again after a restart (its payload must still be in the
//     store) and a journaled message go alone, through the append script.
//   - With a journal (config journal), a message of an app here that stays
//     here (a simulator here serves it, or none is anywhere yet) is written
//     to this daemon's journal until it is finished or handed on. A message
//     handed on at once needs no journal: the next daemon's stream holds it.
//     Without a journal, it stays in memory only.
//
// A message handed on counts as forwarded here once its entry is in the
// next daemon's stream (Forward). A payload in this daemon's memory
// (FallbackPayloadStore: always without a journal, and while Redis cannot
// be reached) goes to the shared store under its id with the entry's
// append (PeerStreams::WritePayload); the daemon that delivers it takes it
// from there. Nothing is copied between daemons but the message's fields.
//
// If an append fails (Redis unreachable), the message stays here: a transit
// waits in its queue (handed on again by Housekeeping), a delivery waits for
// its app here until delivery_ttl_ms. A delivery taken up after a restart is
// handed on only while its payload is in the store (one script): one whose
// payload is gone was delivered already (or its key expired): it counts as
// lost_in_store here, and its app does not get it twice.
//
// Lockstep time across daemons: this is the LockstepLink of the run's
// TimeCoordinator (on the coordinator) or of the LockstepRelay (on a peer):
// their reports travel as entries of the streams, in order with the
// transits, and a released delivery or drop report goes where the
// coordinator says.
//
// Loop thread only. Everything passed to the constructor must outlive it.
#pragma once

#include <uv.h>

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "dispatch/delivery_dispatcher.h"
#include "dispatch/transit_dispatcher.h"
#include "federation/bridge_links.h"
#include "federation/parked_deliveries.h"
#include "federation/peer_backpressure.h"
#include "federation/peer_batches.h"
#include "federation/peer_message.h"
#include "federation/peer_streams.h"
#include "lockstep/lockstep_link.h"
#include "messages/client_registry.h"
#include "messages/message_ledger.h"
#include "store/decimal_field.h"
#include "store/fallback_payload_store.h"
#include "trestle/daemon/daemon_config.h"
#include "trestle/daemon/payload_store.h"

namespace trestle::daemon {

class FederationOutbound final : public DropReportRoute,
                                 public LockstepLink,
                                 public PeerStreams::AppendHandler {
 public:
  // `fallback` (null: every payload is in the shared store) is the data
  // plane's store when it keeps payloads in memory; `relay` (null: none) is
  // told of each transit handed on, on a peer daemon of a lockstep run.
  FederationOutbound(uv_loop_t* loop, const DaemonConfig& config, MessageLedger& ledger,
                     ClientRegistry& apps, PayloadStore& store, TransitDispatcher& transits,
                     DeliveryDispatcher& deliveries, BridgeLinks& bridge,
                     FallbackPayloadStore* fallback, PeerBackpressure& backpressure,
                     LockstepRelayEvents* relay);

  // An accepted message about to queue for a simulator: true if it was
  // handed on instead (no simulator here, one elsewhere). One that stays
  // here is journaled unless it is durable already.
  bool TakeTransit(MessageRecord& r);
  // A DELIVERED message: true if it was taken (its app has no session
  // here: it is being located, and handed on or queued here after).
  bool TakeDelivery(MessageRecord& r);
  // A DROPPED message (counted) whose sender asked for a report: true if it
  // was taken (its sender has no session here: the report is handed to the
  // sender's daemon, or queued here once it is located). Also a report of
  // a payload lost in the store (DropReportRoute).
  bool TakeDropReport(MessageRecord& r) override;

  // What FederationInbound takes in goes on from here: a transit to a
  // simulator here or the daemon of one (QueueTransit), a delivery to its
  // app here or the app's daemon (Deliver(r, nullopt)), a drop report to
  // its sender here (QueueDropReport: it waits delivery_ttl_ms).
  void QueueTransit(MessageRecord& r) {
    if (!TakeTransit(r)) transits_.Enqueue(r);
  }
  void QueueDropReport(MessageRecord& r) { deliveries_.EnqueueDropReport(r, uv_now(loop_)); }
  // `r` is in the next daemon's stream: forwarded, and forgotten here.
  void Forward(MessageRecord& r);

  // At the end of each loop pass: the pass's batches are appended.
  void EndOfPass() { FlushBatches(); }
  // Transits waiting here for a simulator elsewhere, and parked deliveries.
  void Housekeeping(std::uint64_t now_ms);
  // App `app` (registry index) has a session here now: its parked
  // deliveries go to its queue.
  void OnAppAttached(std::uint32_t app);
  // Registry index `app` was freed (it may name another app next).
  void ForgetApp(std::uint32_t app) {
    locations_.erase(app);
    locating_.erase(app);
  }

  // LockstepLink.
  void SendTimeEntry(std::uint32_t daemon, const TimeEntry& entry) override;
  void Deliver(MessageRecord& r, std::optional<std::uint32_t> daemon) override;
  void DeliverDropReport(MessageRecord& r, std::uint32_t daemon) override {
    HandOn(r, daemon, PeerKind::kDropReport);
  }

  // PeerStreams::AppendHandler: a hand-on's append answered (tag: the
  // message, its hand-on serial, its kind, whether it left the journal), a
  // batch's (tag: its number), a time entry's or a backpressure word's
  // (tag: the daemon, the entry's kind).
  void OnAppended(const PeerStreams::AppendTag& tag, const absl::Status& status) override;

 private:
  // The fields of `r`'s journal entry (valid until the next call).
  std::span<const std::string_view> JournalFields(const MessageRecord& r);
  void Journal(MessageRecord& r);
  void Journaled(std::uint64_t id, const absl::StatusOr<StreamEntryId>& entry);
  // Hands `r` on to `daemon` as `kind`: in `daemon`'s batch, or alone
  // through the append script.
  void HandOn(MessageRecord& r, std::uint32_t daemon, PeerKind kind);
  // Appends `daemon`'s batch (if it has one); every batch.
  void FlushBatch(std::uint32_t daemon);
  void FlushBatches();
  // Appends `r`, as `kind`, to a batch entry's messages.
  void Pack(const MessageRecord& r, char kind, std::string& out);
  // The flags of `r`'s entry (peer_message.h).
  static std::uint64_t PeerFlags(const MessageRecord& r);
  // The shared store's key of message `id` (valid until the next call).
  std::string_view PayloadKey(std::uint64_t id);
  // Appends the batch entry of batch_packed_ to `daemon`'s stream.
  void AppendBatch(std::uint32_t daemon, const PeerStreams::AppendRules& rules,
                   const PeerStreams::AppendTag& tag);
  // The append of batch `number` answered.
  void BatchAnswered(std::uint64_t number, const absl::Status& status);
  // The append of hand-on `serial` of message `id` answered.
  void HandedOn(std::uint64_t id, std::uint64_t serial, PeerKind kind, bool unjournaled,
                const absl::Status& status);
  // Hands `r` on as `kind` (a delivery or a drop report) to the daemon of
  // app `app` (registry index: its destination or its sender), asking the
  // registry unless its answer is recent.
  void HandToAppsDaemon(MessageRecord& r, std::uint32_t app, PeerKind kind);
  // The registry's answer for app `app` (to question `serial`), for the
  // messages waiting for it.
  void Located(std::uint32_t app, std::uint64_t serial,
               const absl::StatusOr<std::optional<std::uint32_t>>& holder);
  // `r`, as `kind`, once its app is located: handed on to the daemon
  // `elsewhere`, or kept here.
  void Route(MessageRecord& r, PeerKind kind, std::optional<std::uint32_t> elsewhere);

  uv_loop_t* loop_;
  const DaemonConfig& config_;
  MessageLedger& ledger_;
  ClientRegistry& apps_;
  PayloadStore& store_;
  TransitDispatcher& transits_;
  DeliveryDispatcher& deliveries_;
  BridgeDirectory& directory_;
  PeerStreams& streams_;
  MessageJournal& journal_;
  FallbackPayloadStore* fallback_;  // null: every payload is in the shared store
  PeerBackpressure& backpressure_;
  LockstepRelayEvents* relay_;  // a peer of a lockstep run; null otherwise
  // A peer of a lockstep run: every transit goes to the coordinator.
  const bool lockstep_peer_;
  TimeEntryWriter time_entry_;
  const std::string payload_prefix_;    // the shared store's keys (BridgePayloadPrefix)
  std::string payload_key_;             // PayloadKey's scratch
  const std::string payload_ttl_text_;  // a payload written with its hand-on expires after this
  std::string journal_entry_;           // HandOn's scratch: the entry to delete
  // JournalFields' scratch: the id's text, the packed rest (peer_message.h),
  // and the fields.
  DecimalSlots<1> id_text_;
  std::string packed_;
  std::array<std::string_view, 6> fields_;
  PeerBatches batches_;
  std::string batch_packed_;  // scratch: a batch entry's messages
  std::vector<std::uint32_t> flushing_;  // FlushBatches' scratch
  ParkedDeliveries parked_;  // deliveries whose app is attached nowhere yet
  std::uint64_t hand_on_serial_ = 0;  // the last hand-on's number
  // The registry's recent answers: app (registry index) -> its daemon, used
  // until `until_ms` (loop time).
  struct Location {
    std::uint32_t daemon = 0;
    std::uint64_t until_ms = 0;
  };
  absl::flat_hash_map<std::uint32_t, Location> locations_;
  // Apps (registry index) whose daemon is being asked for, and the messages
  // waiting for the answer.
  struct Locating {
    struct Waiting {
      std::uint64_t message = 0;
      PeerKind kind = PeerKind::kDelivery;
    };
    std::uint64_t serial = 0;  // the question's
    std::vector<Waiting> waiting;
  };
  absl::flat_hash_map<std::uint32_t, Locating> locating_;
  std::uint64_t locate_serial_ = 0;
  std::vector<std::uint64_t> waiting_;  // Housekeeping's scratch
};

}  // namespace trestle::daemon
