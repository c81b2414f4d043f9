#include "federation/federation_outbound.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "store/redis_payload_store.h"

namespace trestle::daemon {
namespace {

// Transits handed on per housekeeping pass, at most.
constexpr std::size_t kHandOnPerPass = 4096;
// How long an answer of the registry is used without asking again. A stale
// answer costs one more hop (the daemon that gets the delivery looks its
// app up again), never a loss.
constexpr std::uint64_t kLocationTtlMs = 1'000;

}  // namespace

FederationOutbound::FederationOutbound(uv_loop_t* loop, const DaemonConfig& config,
                                       MessageLedger& ledger, ClientRegistry& apps,
                                       PayloadStore& store, TransitDispatcher& transits,
                                       DeliveryDispatcher& deliveries, BridgeLinks& bridge,
                                       FallbackPayloadStore* fallback,
                                       PeerBackpressure& backpressure, LockstepRelayEvents* relay)
    : loop_(loop),
      config_(config),
      ledger_(ledger),
      apps_(apps),
      store_(store),
      transits_(transits),
      deliveries_(deliveries),
      directory_(bridge.directory()),
      streams_(bridge.streams()),
      journal_(bridge.journal()),
      fallback_(fallback),
      backpressure_(backpressure),
      relay_(relay),
      lockstep_peer_(config.time_mode == wire::TIME_MODE_LOCKSTEP && !config.coordinates()),
      payload_prefix_(BridgePayloadPrefix(config.run)),
      payload_key_(payload_prefix_),
      payload_ttl_text_(std::to_string(config.store_key_ttl_ms)),
      parked_(loop, config, ledger, apps, store, directory_,
              [this](MessageRecord& r, std::uint32_t daemon) {
                HandOn(r, daemon, PeerKind::kDelivery);
              }) {}

bool FederationOutbound::TakeTransit(MessageRecord& r) {
  if (lockstep_peer_) {
    HandOn(r, config_.coordinator(), PeerKind::kTransit);
    return true;
  }
  if (!transits_.served(r.queue) && !directory_.sim_daemons().empty()) {
    HandOn(r, directory_.sim_daemons().front(), PeerKind::kTransit);
    return true;
  }
  // A payload in this daemon's memory would not outlive a kill: no journal.
  if (config_.journal && !r.durable() && (fallback_ == nullptr || !fallback_->IsLocal(r.id))) {
    Journal(r);
  }
  return false;
}

void FederationOutbound::Journal(MessageRecord& r) {
  r.journaled = true;
  journal_.Append(
      r.id, JournalFields(r),
      [this, id = r.id](const absl::StatusOr<StreamEntryId>& entry) { Journaled(id, entry); });
}

void FederationOutbound::Journaled(std::uint64_t id, const absl::StatusOr<StreamEntryId>& entry) {
  MessageRecord* r = ledger_.Find(id);
  if (r == nullptr || !r->journaled || r->has_entry()) return;
  if (!entry.ok()) {
    // Not durable; it goes on regardless.
    spdlog::debug("message {}: not journaled: {}", id, std::string(entry.status().message()));
    r->journaled = false;
    return;
  }
  r->entry_ms = entry->ms;
  r->entry_seq = entry->seq;
}

std::span<const std::string_view> FederationOutbound::JournalFields(const MessageRecord& r) {
  packed_.clear();
  PackPeerMessage(r.size, r.tclass, r.t_send, r.t_deliver, r.app_sent, PeerFlags(r),
                  apps_.at(r.src).id, apps_.at(r.dst).id, packed_);
  fields_ = {"k", "a", "id", id_text_.Write(0, r.id), "m", packed_};
  return fields_;
}

bool FederationOutbound::TakeDelivery(MessageRecord& r) {
  if (apps_.at(r.dst).session != nullptr) return false;
  HandToAppsDaemon(r, r.dst, PeerKind::kDelivery);
  return true;
}

bool FederationOutbound::TakeDropReport(MessageRecord& r) {
  if (apps_.at(r.src).session != nullptr) return false;
  HandToAppsDaemon(r, r.src, PeerKind::kDropReport);
  return true;
}

void FederationOutbound::HandToAppsDaemon(MessageRecord& r, std::uint32_t app, PeerKind kind) {
  r.state = MessageRecord::State::kForwarding;
  if (auto it = locations_.find(app);
      it != locations_.end() && uv_now(loop_) < it->second.until_ms) {
    HandOn(r, it->second.daemon, kind);
    return;
  }
  // One question at a time per app: the messages that come meanwhile wait
  // for its answer.
  auto [it, first] = locating_.try_emplace(app);
  it->second.waiting.push_back({r.id, kind});
  if (!first) return;
  it->second.serial = ++locate_serial_;
  directory_.Locate(apps_.at(app).id, [this, app, serial = it->second.serial](const auto& holder) {
    Located(app, serial, holder);
  });
}

void FederationOutbound::Located(std::uint32_t app, std::uint64_t serial,
                                 const absl::StatusOr<std::optional<std::uint32_t>>& holder) {
  auto it = locating_.find(app);
  if (it == locating_.end() || it->second.serial != serial) return;  // forgotten meanwhile
  const std::optional<std::uint32_t> elsewhere =
      holder.ok() && holder->has_value() && **holder != config_.daemon_id
          ? std::optional<std::uint32_t>(**holder)
          : std::nullopt;
  if (elsewhere) {
    locations_[app] = Location{*elsewhere, uv_now(loop_) + kLocationTtlMs};
  } else {
    locations_.erase(app);
  }
  std::vector<Locating::Waiting> waiting = std::move(it->second.waiting);
  locating_.erase(it);
  for (const Locating::Waiting& w : waiting) {
    if (MessageRecord* r = ledger_.Find(w.message)) Route(*r, w.kind, elsewhere);
  }
}

void FederationOutbound::Route(MessageRecord& r, PeerKind kind,
                               std::optional<std::uint32_t> elsewhere) {
  if (elsewhere) return HandOn(r, *elsewhere, kind);
  if (kind == PeerKind::kDropReport) {  // waits here for its sender (delivery_ttl_ms)
    deliveries_.EnqueueDropReport(r, uv_now(loop_));
    return;
  }
  if (apps_.at(r.dst).session != nullptr) {  // attached here meanwhile
    deliveries_.EnqueueDelivery(r, uv_now(loop_));
    return;
  }
  // Attached nowhere yet, or the registry cannot be reached.
  parked_.Park(r);
}

void FederationOutbound::OnAppAttached(std::uint32_t app) {
  for (std::uint64_t id : parked_.Take(app)) {
    MessageRecord& r = *ledger_.Find(id);
    deliveries_.EnqueueDelivery(r, r.ready_ms);  // its wait so far counts towards the TTL
  }
}

void FederationOutbound::HandOn(MessageRecord& r, std::uint32_t daemon, PeerKind kind) {
  r.state = MessageRecord::State::kForwarding;
  r.hand_on_serial = ++hand_on_serial_;
  if (kind == PeerKind::kTransit) backpressure_.OnTransitHandedOn(r, daemon);
  const bool local =
      fallback_ != nullptr && kind != PeerKind::kDropReport && fallback_->IsLocal(r.id);
  // A delivery taken up again after a restart goes on only while its
  // payload is in the store: one that is gone was delivered already. (Any
  // other delivery whose payload is gone counts as lost in the store where
  // it is taken.) A journaled message leaves the journal in the same script
  // (a dropped one has left it already). Both go alone.
  const bool only_if_stored = kind == PeerKind::kDelivery && !local && r.replayed;
  const bool unjournal = kind != PeerKind::kDropReport && r.journaled && r.has_entry();
  if (!only_if_stored && !unjournal) {
    if (batches_.Add(
            daemon,
            {.message = r.id, .serial = r.hand_on_serial, .kind = static_cast<char>(kind)})) {
      FlushBatch(daemon);
    }
  } else {
    FlushBatch(daemon);  // in order with the messages before it
    PeerStreams::AppendRules rules;
    if (local) {
      streams_.WritePayload(PayloadKey(r.id), *fallback_->LocalPayload(r.id), payload_ttl_text_);
    } else if (only_if_stored) {
      rules.only_if_key = PayloadKey(r.id);
    }
    if (unjournal) {
      journal_entry_ = StreamEntryId{r.entry_ms, r.entry_seq}.Text();
      rules.then_delete_from = journal_.key();
      rules.then_delete_entry = journal_entry_;
    }
    batch_packed_.clear();
    Pack(r, static_cast<char>(kind), batch_packed_);
    AppendBatch(daemon, rules,
                {.message = r.id,
                 .serial = r.hand_on_serial,
                 .kind = static_cast<char>(kind),
                 .flag = unjournal});
  }
  // After the hand-on: a lockstep report sent now follows it (SendTimeEntry
  // appends the batch first).
  if (kind == PeerKind::kTransit && relay_ != nullptr) relay_->OnTransitHandedOn(r);
}

void FederationOutbound::Pack(const MessageRecord& r, char kind, std::string& out) {
  PackPeerBatchMessage(kind, r.id, r.size, r.tclass, r.t_send, r.t_deliver, r.app_sent,
                       PeerFlags(r), apps_.at(r.src).id, apps_.at(r.dst).id, out);
}

std::uint64_t FederationOutbound::PeerFlags(const MessageRecord& r) {
  return (r.by_key ? kPeerByKey : 0) | (r.notify_drop ? kPeerNotifyDrop : 0) |
         (r.lost_in_store ? kPeerLostInStore : 0);
}

std::string_view FederationOutbound::PayloadKey(std::uint64_t id) {
  payload_key_.resize(payload_prefix_.size());
  AppendDecimal(payload_key_, id);
  return payload_key_;
}

void FederationOutbound::FlushBatch(std::uint32_t daemon) {
  std::uint64_t number = 0;
  const std::span<const PeerBatches::Member> members = batches_.Take(daemon, &number);
  if (members.empty()) return;
  batch_packed_.clear();
  for (const PeerBatches::Member& m : members) {
    const MessageRecord* r = ledger_.Find(m.message);
    if (r == nullptr || r->hand_on_serial != m.serial) continue;  // gone, or handed on anew
    const bool report = m.kind == static_cast<char>(PeerKind::kDropReport);
    const std::string* local =
        fallback_ != nullptr && !report ? fallback_->LocalPayload(r->id) : nullptr;
    if (local != nullptr) {  // it goes to Redis just before the entry
      streams_.WritePayload(PayloadKey(r->id), *local, payload_ttl_text_);
    }
    Pack(*r, m.kind, batch_packed_);
  }
  // `members` is not used from here on: the append may be answered at once.
  if (batch_packed_.empty()) return BatchAnswered(number, absl::OkStatus());
  AppendBatch(daemon, {}, {.message = number, .kind = kPeerBatchKind});
}

void FederationOutbound::AppendBatch(std::uint32_t daemon, const PeerStreams::AppendRules& rules,
                                     const PeerStreams::AppendTag& tag) {
  const std::string_view fields[] = {"k", std::string_view(&kPeerBatchKind, 1), "m", batch_packed_};
  streams_.Append(daemon, fields, rules, tag);
}

void FederationOutbound::FlushBatches() {
  if (batches_.waiting().empty()) return;
  flushing_.assign(batches_.waiting().begin(), batches_.waiting().end());
  for (std::uint32_t daemon : flushing_) FlushBatch(daemon);
}

void FederationOutbound::BatchAnswered(std::uint64_t number, const absl::Status& status) {
  std::vector<PeerBatches::Member> members = batches_.Answered(number);
  for (const PeerBatches::Member& m : members) {
    HandedOn(m.message, m.serial, static_cast<PeerKind>(m.kind), false, status);
  }
  batches_.Recycle(std::move(members));
}

void FederationOutbound::Forward(MessageRecord& r) {
  const std::uint64_t id = r.id;
  r.hand_on_serial = 0;
  store_.HandOver(id);
  ledger_.Forwarded(r);
  ledger_.Erase(id);
}

void FederationOutbound::HandedOn(std::uint64_t id, std::uint64_t serial, PeerKind kind,
                                  bool unjournaled, const absl::Status& status) {
  MessageRecord* r = ledger_.Find(id);
  // Gone, or no longer this hand-on's (finished when it came back first).
  if (r == nullptr || r->hand_on_serial != serial) return;
  r->hand_on_serial = 0;
  if (kind == PeerKind::kDropReport) {  // counted dropped here already
    if (status.ok()) return ledger_.Erase(id);
    deliveries_.EnqueueDropReport(*r, uv_now(loop_));  // waits here for its sender
    return;
  }
  if (status.ok()) {
    if (unjournaled) {  // its journal entry went with the append
      r->journaled = false;
      r->entry_ms = r->entry_seq = 0;
    }
    return Forward(*r);
  }
  if (absl::IsNotFound(status)) {
    spdlog::debug("message {}: its payload is gone before it was handed on", id);
    if (kind == PeerKind::kTransit && relay_ != nullptr) relay_->OnTransitHandedOn(*r);
    store_.Erase(id);
    ledger_.LostInStore(*r);
    ledger_.Erase(id);
    return;
  }
  // It stays here (see the class comment).
  if (kind == PeerKind::kTransit) {
    transits_.Enqueue(*r);
  } else if (apps_.at(r->dst).session != nullptr) {
    deliveries_.EnqueueDelivery(*r, uv_now(loop_));
  } else {
    parked_.Park(*r);
  }
}

void FederationOutbound::Housekeeping(std::uint64_t now_ms) {
  parked_.Check(now_ms);
  if (transits_.served(0) || directory_.sim_daemons().empty() || transits_.queued(0) == 0) return;
  waiting_.clear();
  transits_.TakeQueued(0, kHandOnPerPass, &waiting_);
  for (std::uint64_t id : waiting_) {
    if (MessageRecord* r = ledger_.Find(id)) {
      HandOn(*r, directory_.sim_daemons().front(), PeerKind::kTransit);
    }
  }
}

void FederationOutbound::SendTimeEntry(std::uint32_t daemon, const TimeEntry& entry) {
  FlushBatch(daemon);  // a report follows the transits handed on before it
  streams_.Append(daemon, time_entry_.Fields(entry), {},
                  {.message = daemon, .kind = static_cast<char>(entry.kind)});
}

void FederationOutbound::OnAppended(const PeerStreams::AppendTag& tag, const absl::Status& status) {
  if (tag.kind == PeerBackpressure::kKind) {  // the next refresh, or kExpireMs, makes up for it
    if (!status.ok()) {
      spdlog::debug("backpressure to daemon {}: {}", tag.message, std::string(status.message()));
    }
    return;
  }
  if (tag.kind == kPeerBatchKind) return BatchAnswered(tag.message, status);
  if (!TimeEntry::IsTimeKind(std::string_view(&tag.kind, 1))) {
    return HandedOn(tag.message, tag.serial, static_cast<PeerKind>(tag.kind), tag.flag, status);
  }
  if (status.ok()) return;
  // Not retried: the lockstep run waits for it (docs/federation.md).
  spdlog::error("lockstep: report '{}' to daemon {} lost: {}", tag.kind, tag.message,
                std::string(status.message()));
}

void FederationOutbound::Deliver(MessageRecord& r, std::optional<std::uint32_t> daemon) {
  if (daemon && *daemon != config_.daemon_id) return HandOn(r, *daemon, PeerKind::kDelivery);
  if (!TakeDelivery(r)) deliveries_.EnqueueDelivery(r, uv_now(loop_));
}

}  // namespace trestle::daemon
