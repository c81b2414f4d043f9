#include "federation/federation_router.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "federation/peer_message.h"
#include "store/redis_payload_store.h"
#include "trestle/wire/frame_format.h"
#include "trestle/wire/monotonic_clock.h"

namespace trestle::daemon {
namespace {

// Transits handed on per housekeeping pass, at most.
constexpr std::size_t kHandOnPerPass = 4096;
// How long an answer of the registry is used without asking again. A stale
// answer costs one more hop (the daemon that gets the delivery looks its
// app up again), never a loss.
constexpr std::uint64_t kLocationTtlMs = 1'000;

}  // namespace


FederationRouter::FederationRouter(uv_loop_t* loop, const DaemonConfig& config,
                                   MessageLedger& ledger, ClientRegistry& apps,
                                   PayloadStore& store, TransitDispatcher& transits,
                                   DeliveryDispatcher& deliveries, BridgeDirectory& directory,
                                   PeerStreams& streams, MessageJournal& journal,
                                   FallbackPayloadStore* fallback)
    : loop_(loop),
      config_(config),
      ledger_(ledger),
      apps_(apps),
      store_(store),
      transits_(transits),
      deliveries_(deliveries),
      directory_(directory),
      streams_(streams),
      journal_(journal),
      fallback_(fallback),
      lockstep_peer_(config.time_mode == TimeMode::kLockstep && !config.coordinates()),
      payload_prefix_(BridgePayloadPrefix(config.run)),
      payload_key_(payload_prefix_),
      payload_ttl_text_(std::to_string(config.store_key_ttl_ms)),
      parked_(loop, config, ledger, apps, store, directory,
              [this](MessageRecord& r, std::uint32_t daemon) {
                HandOn(r, daemon, Kind::kDelivery);
              }),
      backpressure_(loop, config, apps, transits, directory,
                    [this](std::uint32_t daemon, std::span<const std::string_view> fields) {
                      streams_.Append(daemon, fields, {},
                                      {.message = daemon, .kind = PeerBackpressure::kKind});
                    }) {
  ledger_.SetDurableObserver(this);
}

bool FederationRouter::TakeTransit(MessageRecord& r) {
  if (lockstep_peer_) {
    HandOn(r, config_.coordinator(), Kind::kTransit);
    return true;
  }
  if (!transits_.served(r.queue) && !directory_.sim_daemons().empty()) {
    HandOn(r, directory_.sim_daemons().front(), Kind::kTransit);
    return true;
  }
  // A payload in this daemon's memory would not outlive a kill: no journal.
  if (config_.journal && !r.durable() && (fallback_ == nullptr || !fallback_->IsLocal(r.id))) {
    Journal(r);
  }
  return false;
}

void FederationRouter::Journal(MessageRecord& r) {
  r.journaled = true;
  journal_.Append(r.id, EntryFields(r, Kind::kAccepted),
                  [this, id = r.id](const absl::StatusOr<StreamEntryId>& entry) {
                    Journaled(id, entry);
                  });
}

void FederationRouter::Journaled(std::uint64_t id, const absl::StatusOr<StreamEntryId>& entry) {
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

std::span<const std::string_view> FederationRouter::EntryFields(const MessageRecord& r,
                                                                Kind kind) {
  kind_text_[0] = static_cast<char>(kind);
  packed_.clear();
  const std::uint64_t flags = (r.by_key ? kPeerByKey : 0) | (r.notify_drop ? kPeerNotifyDrop : 0) |
                              (r.lost_in_store ? kPeerLostInStore : 0);
  PackPeerMessage(r.size, r.tclass, r.t_send, r.t_deliver, r.app_sent, flags, apps_.at(r.src).id,
                  apps_.at(r.dst).id, packed_);
  fields_ = {"k", std::string_view(kind_text_, 1), "id", id_text_.Write(0, r.id), "m", packed_};
  return fields_;
}

bool FederationRouter::TakeDelivery(MessageRecord& r) {
  if (apps_.at(r.dst).session != nullptr) return false;
  HandToAppsDaemon(r, r.dst, Kind::kDelivery);
  return true;
}

bool FederationRouter::TakeDropReport(MessageRecord& r) {
  if (apps_.at(r.src).session != nullptr) return false;
  HandToAppsDaemon(r, r.src, Kind::kDropReport);
  return true;
}

void FederationRouter::HandToAppsDaemon(MessageRecord& r, std::uint32_t app, Kind kind) {
  r.state = MessageRecord::State::kForwarding;
  if (auto it = locations_.find(app);
      it != locations_.end() && uv_now(loop_) < it->second.until_ms) {
    HandOn(r, it->second.daemon, kind);
    return;
  }
  directory_.Locate(apps_.at(app).id, [this, id = r.id, app, kind](const auto& holder) {
    Located(id, app, kind, holder);
  });
}

void FederationRouter::Located(std::uint64_t id, std::uint32_t app, Kind kind,
                               const absl::StatusOr<std::optional<std::uint32_t>>& holder) {
  if (holder.ok() && holder->has_value() && **holder != config_.daemon_id) {
    locations_[app] = Location{**holder, uv_now(loop_) + kLocationTtlMs};
  } else {
    locations_.erase(app);
  }
  MessageRecord* r = ledger_.Find(id);
  if (r == nullptr) return;
  if (holder.ok() && holder->has_value() && **holder != config_.daemon_id) {
    HandOn(*r, **holder, kind);
    return;
  }
  if (kind == Kind::kDropReport) {  // waits here for its sender (delivery_ttl_ms)
    deliveries_.EnqueueDropReport(*r, uv_now(loop_));
    return;
  }
  if (apps_.at(r->dst).session != nullptr) {  // attached here meanwhile
    deliveries_.EnqueueDelivery(*r, uv_now(loop_));
    return;
  }
  // Attached nowhere yet, or the registry cannot be reached.
  parked_.Park(*r);
}

void FederationRouter::OnAppAttached(std::uint32_t app) {
  for (std::uint64_t id : parked_.Take(app)) {
    MessageRecord& r = *ledger_.Find(id);
    deliveries_.EnqueueDelivery(r, r.ready_ms);  // its wait so far counts towards the TTL
  }
}

void FederationRouter::HandOn(MessageRecord& r, std::uint32_t daemon, Kind kind) {
  r.state = MessageRecord::State::kForwarding;
  const std::span<const std::string_view> fields = EntryFields(r, kind);
  PeerStreams::AppendRules rules;
  payload_key_.resize(payload_prefix_.size());
  payload_key_.append(fields[3]);  // the id's text
  if (const std::string* local = fallback_ != nullptr && kind != Kind::kDropReport
                                     ? fallback_->LocalPayload(r.id)
                                     : nullptr) {
    // In this daemon's memory: the payload goes to Redis with the entry.
    rules.write_key = payload_key_;
    rules.write_value = *local;
    rules.write_ttl_ms = payload_ttl_text_;
  } else if (kind == Kind::kDelivery) {
    // A delivery goes on only while its payload is in the store: one that
    // is gone was delivered already (this daemon replays its stream after a
    // restart) or expired.
    rules.only_if_key = payload_key_;
  }
  // A journaled message leaves the journal in the same script (a dropped
  // one has left it already).
  const bool unjournal = kind != Kind::kDropReport && r.journaled && r.has_entry();
  if (unjournal) {
    journal_entry_ = StreamEntryId{r.entry_ms, r.entry_seq}.Text();
    rules.then_delete_from = journal_.key();
    rules.then_delete_entry = journal_entry_;
  }
  r.hand_on_serial = ++hand_on_serial_;
  if (kind == Kind::kTransit) backpressure_.OnTransitHandedOn(r, daemon);
  streams_.Append(daemon, fields, rules,
                  {.message = r.id, .serial = r.hand_on_serial, .kind = static_cast<char>(kind),
                   .flag = unjournal});
  // After the append is issued: a lockstep report sent now follows it.
  if (kind == Kind::kTransit && relay_ != nullptr) relay_->OnTransitHandedOn(r);
}

void FederationRouter::Forward(MessageRecord& r) {
  const std::uint64_t id = r.id;
  r.hand_on_serial = 0;
  store_.HandOver(id);
  ledger_.Forwarded(r);
  ledger_.Erase(id);
}

void FederationRouter::HandedOn(std::uint64_t id, std::uint64_t serial, Kind kind,
                                bool unjournaled, const absl::Status& status) {
  MessageRecord* r = ledger_.Find(id);
  // Gone, or no longer this hand-on's (finished when it came back first).
  if (r == nullptr || r->hand_on_serial != serial) return;
  r->hand_on_serial = 0;
  if (kind == Kind::kDropReport) {  // counted dropped here already
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
    if (kind == Kind::kTransit && relay_ != nullptr) relay_->OnTransitHandedOn(*r);
    store_.Erase(id);
    ledger_.LostInStore(*r);
    ledger_.Erase(id);
    return;
  }
  // It stays here (see the class comment).
  if (kind == Kind::kTransit) {
    transits_.Enqueue(*r);
  } else if (apps_.at(r->dst).session != nullptr) {
    deliveries_.EnqueueDelivery(*r, uv_now(loop_));
  } else {
    parked_.Park(*r);
  }
}

void FederationRouter::Housekeeping(std::uint64_t now_ms) {
  directory_.Heartbeat(ledger_.totals(), now_ms);
  if (coordinator_ != nullptr && directory_.totals().at_ms != alive_as_of_ms_) {
    alive_as_of_ms_ = directory_.totals().at_ms;
    coordinator_->OnLiveDaemons(directory_.alive_daemons(), alive_as_of_ms_);
  }
  streams_.Retry();
  streams_.Trim(now_ms);
  journal_.Retry();
  backpressure_.Housekeeping(now_ms);
  parked_.Check(now_ms);
  if (transits_.served(0) || directory_.sim_daemons().empty() || transits_.queued(0) == 0) return;
  waiting_.clear();
  transits_.TakeQueued(0, kHandOnPerPass, &waiting_);
  for (std::uint64_t id : waiting_) {
    if (MessageRecord* r = ledger_.Find(id)) HandOn(*r, directory_.sim_daemons().front(), Kind::kTransit);
  }
}

void FederationRouter::SendTimeEntry(std::uint32_t daemon, const TimeEntry& entry) {
  streams_.Append(daemon, time_entry_.Fields(entry), {},
                  {.message = daemon, .kind = static_cast<char>(entry.kind)});
}

void FederationRouter::OnAppended(const PeerStreams::AppendTag& tag, const absl::Status& status) {
  if (tag.kind == PeerBackpressure::kKind) {  // the next refresh, or kExpireMs, makes up for it
    if (!status.ok()) {
      spdlog::debug("backpressure to daemon {}: {}", tag.message, std::string(status.message()));
    }
    return;
  }
  if (!TimeEntry::IsTimeKind(std::string_view(&tag.kind, 1))) {
    return HandedOn(tag.message, tag.serial, static_cast<Kind>(tag.kind), tag.flag, status);
  }
  if (status.ok()) return;
  // Not retried: the lockstep run waits for it (docs/federation.md).
  spdlog::error("lockstep: report '{}' to daemon {} lost: {}", tag.kind, tag.message,
                std::string(status.message()));
}

void FederationRouter::Deliver(MessageRecord& r, std::optional<std::uint32_t> daemon) {
  if (daemon && *daemon != config_.daemon_id) return HandOn(r, *daemon, Kind::kDelivery);
  if (!TakeDelivery(r)) deliveries_.EnqueueDelivery(r, uv_now(loop_));
}

void FederationRouter::OnDurableDone(const MessageRecord& r) {
  if (!r.journaled) return streams_.Ack({r.entry_ms, r.entry_seq});
  if (r.has_entry()) {
    journal_.Delete({r.entry_ms, r.entry_seq});
  } else {
    journal_.Forget(r.id);
  }
}

}  // namespace trestle::daemon
