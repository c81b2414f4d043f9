// FederationRouter: the data plane's part of a federated bridge
// (docs/federation.md). A message stays with the daemon that has what it
// needs next, and is handed on through the next daemon's stream otherwise:
//
//   - A transit goes to a simulator of this daemon if one serves its queue;
//     if none does and another daemon has one, the message is handed to that
//     daemon (the lowest id) as a transit entry. Transits that queued here
//     while no simulator was anywhere are handed on once one appears.
//   - A DELIVERED message whose app has no session here is located in the
//     bridge's registry; if the app is attached to another daemon the
//     message is handed to it as a delivery entry (the registry's answer is
//     used for a second, and the deliveries that come while it is asked
//     wait for its answer, so a stream of deliveries to one app asks once).
//     If it is attached nowhere yet (or the registry cannot be reached), the
//     message is parked here (ParkedDeliveries): it goes to its app's queue once the
//     app attaches here, is handed on once the app turns up on another
//     daemon, and expires after delivery_ttl_ms.
//   - A DROPPED message whose sender asked for a report and has no session
//     here is located the same way: its drop report is handed to the
//     sender's daemon as a drop-report entry (the drop is counted here), or
//     waits here for the sender until delivery_ttl_ms.
//   - The messages a loop pass hands to one daemon go as one entry of its
//     stream (PeerBatches; peer_message.h), appended at the end of the pass
//     (EndOfPass), or before a lockstep report to that daemon. A delivery
//     taken up again after a restart (its payload must still be in the
//     store) and a journaled message go alone, through the append script.
//   - Entries of this daemon's stream become messages here (counted
//     from_peers), and an entry is acknowledged once every message it
//     brought is finished here: delivered, dropped, expired, lost, or
//     handed on (PeerStreams::Hold).
//   - With a journal (config journal), a message of an app here that stays
//     here (a simulator here serves it, or none is anywhere yet) is written
//     to this daemon's journal until it is finished or handed on; Recover()
//     takes up, after a restart, what the journal holds (counted recovered).
//     A message handed on at once needs no journal: the next daemon's
//     stream holds it. Without a journal, it stays in memory only.
//
// A message handed on counts as forwarded here once its entry is in the
// next daemon's stream. A payload in this daemon's memory
// (FallbackPayloadStore: always without a journal, and while Redis cannot
// be reached) goes to the shared store under its id with the entry's
// append (PeerStreams::WritePayload); the daemon that delivers it takes it
// from there. Nothing is copied between daemons but the message's fields.
// While Redis cannot be reached, traffic between apps here flows on, and a
// message that must leave stays here until its append succeeds.
//
// If an append fails (Redis unreachable), the message stays here: a transit
// waits in its queue (handed on again by Housekeeping), a delivery waits for
// its app here until delivery_ttl_ms. After a restart this daemon replays
// the entries it had not acknowledged; a delivery taken up so is handed on
// only while its payload is in the store (one script): one whose payload
// is gone was delivered already (or its key expired): it counts as
// lost_in_store here, and its app does not get it twice. A second entry for a message
// still in hand is acknowledged and ignored, unless this daemon's own
// hand-on of it is still unanswered: then the message came back from the
// next daemon before the append's reply, so it counts as forwarded and the
// entry brings it back (MessageRecord::hand_on_serial). A replayed entry (read from
// this daemon's pending entries) whose payload is gone was carried out
// before: it is acknowledged and not counted again.
//
// Lockstep time across daemons (docs/federation.md): the router is the
// LockstepLink of the run's TimeCoordinator (on the coordinator) or of the
// LockstepRelay (on a peer): their reports travel as entries of the streams,
// in order with the transits; a peer hands every transit to the coordinator.
//
// A drop-report entry is not a message: the daemon that reads it counts
// nothing, acknowledges it at once and queues the report for its sender
// (best effort, as a report on one daemon is: a kill loses it).
// A report of a payload lost in the store goes the same way (its entry
// says so). In lockstep time the coordinator releases a drop report for a
// peer's app through DeliverDropReport, in its order.
//
// Loop thread only. Everything passed to the constructor must outlive it.
#pragma once

#include <uv.h>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "dispatch/delivery_dispatcher.h"
#include "dispatch/transit_dispatcher.h"
#include "federation/bridge_directory.h"
#include "federation/message_journal.h"
#include "federation/parked_deliveries.h"
#include "federation/peer_batches.h"
#include "federation/peer_backpressure.h"
#include "federation/peer_streams.h"
#include "lockstep/lockstep_link.h"
#include "messages/client_registry.h"
#include "messages/message_ledger.h"
#include "store/decimal_field.h"
#include "store/fallback_payload_store.h"
#include "trestle/daemon/daemon_config.h"
#include "trestle/daemon/payload_store.h"

namespace trestle::daemon {

struct PeerMessage;  // one stream entry's fields (peer_message.h)

class FederationRouter final : public PeerStreams::Handler,
                               public DropReportRoute,
                               public DurableMessageObserver,
                               public LockstepLink {
 public:
  FederationRouter(uv_loop_t* loop, const DaemonConfig& config, MessageLedger& ledger,
                   ClientRegistry& apps, PayloadStore& store, TransitDispatcher& transits,
                   DeliveryDispatcher& deliveries, BridgeDirectory& directory,
                   PeerStreams& streams, MessageJournal& journal,
                   FallbackPayloadStore* fallback);

  // An accepted message about to queue for a simulator: true if it was
  // handed on instead (no simulator here, one elsewhere). One that stays
  // here is journaled unless it is durable already.
  bool TakeTransit(MessageRecord& r);
  // A DELIVERED message: true if the router took it (its app has no session
  // here: it is being located, and handed on or queued here after).
  bool TakeDelivery(MessageRecord& r);
  // A DROPPED message (counted) whose sender asked for a report: true if
  // the router took it (its sender has no session here: the report is
  // handed to the sender's daemon, or queued here once it is located).
  // Also a report of a payload lost in the store (DropReportRoute).
  bool TakeDropReport(MessageRecord& r) override;
  // At the end of each loop pass (and before the streams close): the
  // pass's batches and the stream's acknowledgements go, and the other
  // daemons learn whether this one's transit queue is full.
  void EndOfPass() {
    FlushBatches();
    streams_.FlushAcks();
    backpressure_.CheckQueue();
  }
  // Heartbeat, acknowledgement retries, transits waiting here for a
  // simulator elsewhere, and parked deliveries.
  void Housekeeping(std::uint64_t now_ms);
  // App `app` (registry index) has a session here now: its parked
  // deliveries go to its queue.
  void OnAppAttached(std::uint32_t app);
  // Registry index `app` was freed (it may name another app next).
  void ForgetApp(std::uint32_t app) {
    locations_.erase(app);
    locating_.erase(app);
    backpressure_.ForgetApp(app);
  }
  // Takes up the messages this daemon's journal holds from an earlier life
  // (once, at start, after the first heartbeat is sent).
  void Recover();

  // Lockstep time across daemons: reports that come go to `events` (which
  // must outlive the router).
  void SetLockstep(LockstepCoordinatorEvents* events) {
    lockstep_ = coordinator_ = events;
  }
  void SetLockstep(LockstepRelayEvents* events) { lockstep_ = relay_ = events; }
  // LockstepLink.
  void SendTimeEntry(std::uint32_t daemon, const TimeEntry& entry) override;
  void Deliver(MessageRecord& r, std::optional<std::uint32_t> daemon) override;
  void DeliverDropReport(MessageRecord& r, std::uint32_t daemon) override {
    HandOn(r, daemon, Kind::kDropReport);
  }

  void OnPeerEntry(PeerStreams::EntryId entry, std::span<const std::string_view> fields,
                   bool replayed) override;
  // A hand-on's append answered (tag: the message, its hand-on serial, its
  // kind, whether it left the journal), or a time entry's (tag: the daemon,
  // the entry's kind).
  void OnAppended(const PeerStreams::AppendTag& tag, const absl::Status& status) override;
  void OnDurableDone(const MessageRecord& r) override;

  // Entries of this daemon's stream (or journal) that could not be read
  // (counted, logged).
  std::uint64_t bad_entries() const { return bad_entries_; }

 private:
  // An entry's kind: a transit, a delivery or a drop report handed on (peer
  // streams), or a message accepted here (the journal).
  enum class Kind : char { kTransit = 't', kDelivery = 'd', kDropReport = 'r', kAccepted = 'a' };
  // The fields of `r`'s journal entry (valid until the next call).
  std::span<const std::string_view> JournalFields(const MessageRecord& r);
  // Hands `r` on to `daemon` as `kind`: in `daemon`'s batch, or alone
  // through the append script.
  void HandOn(MessageRecord& r, std::uint32_t daemon, Kind kind);
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
  void HandedOn(std::uint64_t id, std::uint64_t serial, Kind kind, bool unjournaled,
                const absl::Status& status);
  // `r` is in the next daemon's stream: forwarded, and forgotten here.
  void Forward(MessageRecord& r);
  void Journal(MessageRecord& r);
  void Journaled(std::uint64_t id, const absl::StatusOr<StreamEntryId>& entry);
  // Hands `r` on as `kind` (a delivery or a drop report) to the daemon of
  // app `app` (registry index: its destination or its sender), asking the
  // registry unless its answer is recent.
  void HandToAppsDaemon(MessageRecord& r, std::uint32_t app, Kind kind);
  // The registry's answer for app `app` (to question `serial`), for the
  // messages waiting for it.
  void Located(std::uint32_t app, std::uint64_t serial,
               const absl::StatusOr<std::optional<std::uint32_t>>& holder);
  // `r`, as `kind`, once its app is located: handed on to the daemon
  // `elsewhere`, or kept here.
  void Route(MessageRecord& r, Kind kind, std::optional<std::uint32_t> elsewhere);
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
  LockstepPeerEvents* lockstep_ = nullptr;            // either of:
  LockstepCoordinatorEvents* coordinator_ = nullptr;  // this daemon coordinates the run
  LockstepRelayEvents* relay_ = nullptr;              // a peer of the run
  // A peer of a lockstep run: every transit goes to the coordinator.
  const bool lockstep_peer_;
  TimeEntryWriter time_entry_;
  std::uint64_t alive_as_of_ms_ = 0;  // the heartbeat last told to lockstep_
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
  std::uint64_t recovered_ = 0;         // Recover's count
  ParkedDeliveries parked_;  // deliveries whose app is attached nowhere yet
  PeerBackpressure backpressure_;  // transit queues full across daemons
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
      Kind kind = Kind::kDelivery;
    };
    std::uint64_t serial = 0;  // the question's
    std::vector<Waiting> waiting;
  };
  absl::flat_hash_map<std::uint32_t, Locating> locating_;
  std::uint64_t locate_serial_ = 0;
  std::vector<std::uint64_t> waiting_;  // Housekeeping's scratch
  std::uint64_t bad_entries_ = 0;
};

}  // namespace trestle::daemon
