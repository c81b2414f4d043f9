#include "federation/federation_inbound.h"

#include <spdlog/spdlog.h>

#include <optional>
#include <string>
#include <utility>

#include "store/redis_payload_store.h"
#include "trestle/wire/monotonic_clock.h"

namespace trestle::daemon {

FederationInbound::FederationInbound(const DaemonConfig& config, MessageLedger& ledger,
                                     ClientRegistry& apps, BridgeLinks& bridge,
                                     PeerBackpressure& backpressure, FederationOutbound& outbound,
                                     LockstepCoordinatorEvents* coordinator,
                                     LockstepRelayEvents* relay)
    : ledger_(ledger),
      apps_(apps),
      directory_(bridge.directory()),
      streams_(bridge.streams()),
      journal_(bridge.journal()),
      backpressure_(backpressure),
      outbound_(outbound),
      coordinator_(coordinator),
      lockstep_(coordinator != nullptr ? static_cast<LockstepPeerEvents*>(coordinator) : relay),
      payload_prefix_(BridgePayloadPrefix(config.run)) {}

void FederationInbound::OnTimeEntry(PeerStreams::EntryId entry,
                                    std::span<const std::string_view> fields) {
  if (streams_.AckPending(entry)) return;  // read again, and handled here
  TimeEntry e;
  const std::string bad = TimeEntry::Parse(fields, &e);
  if (!bad.empty() || lockstep_ == nullptr) {
    bad_entries_++;
    spdlog::error("stream {} entry {}-{} is a lockstep report that {}; acknowledged and skipped",
                  streams_.stream(), entry.ms, entry.seq,
                  bad.empty() ? "this daemon cannot take (its time_mode is not lockstep)"
                              : "cannot be read (" + bad + ")");
  } else {
    lockstep_->OnTimeEntry(e);
  }
  streams_.Ack(entry);
}

void FederationInbound::OnPeerEntry(PeerStreams::EntryId entry,
                                    std::span<const std::string_view> fields, bool replayed) {
  // Daemons write the kind first.
  if (fields.size() >= 2 && fields[0] == "k" && TimeEntry::IsTimeKind(fields[1])) {
    return OnTimeEntry(entry, fields);
  }
  if (fields.size() >= 2 && fields[0] == "k" && fields[1].size() == 1 &&
      fields[1][0] == PeerBackpressure::kKind) {
    backpressure_.OnEntry(fields);
    streams_.Ack(entry);
    return;
  }
  // Read again: finished here, or what it brought is in hand (or finished)
  // here.
  if (streams_.AckPending(entry) || streams_.Held(entry)) return;
  streams_.Hold(entry);  // while it is read: acknowledged at the end if nothing else holds it
  if (IsPeerBatch(fields)) {
    std::string_view messages = PeerBatchMessages(fields);
    while (!messages.empty()) {
      PeerMessage m;
      if (std::string bad = TakePeerBatchMessage(&messages, &m); !bad.empty()) {
        BadEntry(entry, bad);  // the rest cannot be read
        break;
      }
      TakeUp(m, entry, replayed);
    }
  } else {  // one message alone (the unbatched form, peer_message.h)
    PeerMessage m;
    std::string bad = ParsePeerMessage(fields, &m);
    if (bad.empty() && m.kind == static_cast<char>(PeerKind::kAccepted)) bad = "a journal entry";
    if (bad.empty()) {
      TakeUp(m, entry, replayed);
    } else {
      BadEntry(entry, bad);
    }
  }
  streams_.Release(entry);
}

void FederationInbound::BadEntry(PeerStreams::EntryId entry, const std::string& why) {
  bad_entries_++;
  spdlog::error("stream {} entry {}-{} is not a message ({}); acknowledged and skipped",
                streams_.stream(), entry.ms, entry.seq, why);
}

void FederationInbound::TakeUp(const PeerMessage& m, PeerStreams::EntryId entry, bool replayed) {
  if (MessageRecord* have = ledger_.Find(m.id)) {
    // Another entry for a message in hand here (a peer replaying after its
    // restart) is not needed.
    if (have->hand_on_serial == 0) return;
    // This daemon handed the message on, and it has come back (its outcome
    // from the simulator's daemon) before the append's reply: the append
    // took effect. It is forwarded, and the entry brings it back.
    outbound_.Forward(*have);
  }
  if (!replayed) return Admit(m, entry, false);
  // Carried out before this daemon's restart if its payload is gone.
  const std::string key = payload_prefix_ + std::to_string(m.id);
  streams_.Hold(entry);  // until the store answers
  // The entry's fields go with this call: the answer gets copies of the ids.
  directory_.Exists(key, [this, m = PeerMessage(m), entry, src = std::string(m.src),
                          dst = std::string(m.dst)](const absl::StatusOr<bool>& exists) mutable {
    m.src = src;
    m.dst = dst;
    if (ledger_.Find(m.id) == nullptr) {
      if (exists.ok() && !*exists) {
        spdlog::debug("stream {} entry {}-{}: message {} was finished before", streams_.stream(),
                      entry.ms, entry.seq, m.id);
      } else {
        Admit(m, entry, true);
      }
    }
    streams_.Release(entry);
  });
}

MessageRecord* FederationInbound::OpenFor(const PeerMessage& m, StreamEntryId entry) {
  const std::uint32_t src = apps_.GetOrCreate(m.src).index;
  const std::uint32_t dst = apps_.GetOrCreate(m.dst).index;
  MessageRecord* r = ledger_.Open(m.id, src, dst);
  if (r == nullptr) return nullptr;
  r->entry_ms = entry.ms;
  r->entry_seq = entry.seq;
  r->queue = 0;
  r->size = m.size;
  r->tclass = static_cast<std::uint32_t>(m.tclass);
  r->t_send = m.t_send;
  r->t_deliver = m.t_deliver;
  r->app_sent = m.app_sent;
  r->by_key = m.by_key;
  r->notify_drop = m.notify_drop;
  r->accepted = wire::MonotonicNanos();
  return r;
}

void FederationInbound::Admit(const PeerMessage& m, PeerStreams::EntryId entry, bool replayed) {
  if (m.kind == static_cast<char>(PeerKind::kDropReport)) return AdmitDropReport(m, entry);
  MessageRecord* r = OpenFor(m, entry);
  if (r == nullptr) return;
  r->replayed = replayed;
  streams_.Hold(entry);  // until it is finished here (OnDurableDone)
  ledger_.FromPeer(*r);
  if (m.kind == static_cast<char>(PeerKind::kTransit)) {
    if (coordinator_ != nullptr) coordinator_->OnPeerTransit(*r);
    outbound_.QueueTransit(*r);
  } else {
    outbound_.Deliver(*r, std::nullopt);
  }
}

void FederationInbound::AdmitDropReport(const PeerMessage& m, PeerStreams::EntryId entry) {
  // Best effort from here on: it does not hold its entry.
  MessageRecord* r = OpenFor(m, entry);
  if (r == nullptr) return;  // in hand here already
  r->entry_ms = r->entry_seq = 0;
  r->notify_drop = true;
  r->lost_in_store = m.lost_in_store;
  outbound_.QueueDropReport(*r);  // waits for its sender (delivery_ttl_ms)
}

void FederationInbound::Recover() {
  journal_.Recover(
      payload_prefix_,
      [this](StreamEntryId entry, std::span<const std::string_view> fields) {
        AdmitRecovered(entry, fields);
      },
      [this](const absl::Status& status) {
        if (!status.ok()) {
          spdlog::error(
              "cannot read journal {}: {}; what it holds is taken up after the next "
              "restart",
              journal_.key(), std::string(status.message()));
          return;
        }
        if (recovered_ > 0) {
          spdlog::info("took up {} messages from journal {}", recovered_, journal_.key());
        }
      });
}

void FederationInbound::AdmitRecovered(StreamEntryId entry,
                                       std::span<const std::string_view> fields) {
  PeerMessage m;
  std::string bad = ParsePeerMessage(fields, &m);
  if (bad.empty() && m.kind != static_cast<char>(PeerKind::kAccepted)) bad = "not a journal entry";
  if (!bad.empty()) {
    bad_entries_++;
    spdlog::error("journal {} entry {} is not a message ({}); deleted", journal_.key(),
                  entry.Text(), bad);
    journal_.Delete(entry);
    return;
  }
  MessageRecord* r = OpenFor(m, entry);
  if (r == nullptr) {  // in hand already
    journal_.Delete(entry);
    return;
  }
  r->journaled = true;
  r->replayed = true;
  recovered_++;
  ledger_.Recovered(*r);
  outbound_.QueueTransit(*r);
}

void FederationInbound::OnDurableDone(const MessageRecord& r) {
  if (!r.journaled) return streams_.Release({r.entry_ms, r.entry_seq});
  if (r.has_entry()) {
    journal_.Delete({r.entry_ms, r.entry_seq});
  } else {
    journal_.Forget(r.id);
  }
}

}  // namespace trestle::daemon
