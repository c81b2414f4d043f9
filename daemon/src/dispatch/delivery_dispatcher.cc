#include "dispatch/delivery_dispatcher.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "session/session.h"
#include "trestle/wire/delivery_overhead.h"

namespace trestle::daemon {

DeliveryDispatcher::DeliveryDispatcher(uv_loop_t* loop, const DaemonConfig& config,
                                       MessageLedger& ledger, ClientRegistry& apps,
                                       PayloadStore& store, DeliveryBudget& budget,
                                       SessionCloser& closer)
    : loop_(loop),
      config_(config),
      ledger_(ledger),
      apps_(apps),
      store_(store),
      budget_(budget),
      closer_(closer),
      writer_(ledger, apps) {}

DeliveryDispatcher::AppQueue& DeliveryDispatcher::QueueOf(std::uint32_t app) {
  if (app >= queues_.size()) queues_.resize(app + 1);
  return queues_[app];
}

std::uint64_t DeliveryDispatcher::PayloadBytes(const MessageRecord& r) const {
  return r.state == MessageRecord::State::kAwaitingDelivery ? r.size : 0;
}

void DeliveryDispatcher::Schedule(std::uint32_t app) {
  AppQueue& q = QueueOf(app);
  if (q.scheduled) return;
  q.scheduled = true;
  dirty_.push_back(app);
}

void DeliveryDispatcher::Push(std::uint32_t app, MessageRecord& r, std::uint64_t bytes) {
  AppQueue& q = QueueOf(app);
  q.ids.push_back(r.id);
  q.bytes += bytes;
  budget_.Add(bytes);
  Schedule(app);
}

void DeliveryDispatcher::EnqueueDelivery(MessageRecord& r, std::uint64_t now_ms) {
  r.state = MessageRecord::State::kAwaitingDelivery;
  r.ready_ms = now_ms;
  Push(r.dst, r, r.size);
}

void DeliveryDispatcher::EnqueueDropReport(MessageRecord& r, std::uint64_t now_ms) {
  r.state = MessageRecord::State::kDropReport;
  r.ready_ms = now_ms;
  Push(r.src, r, 0);
}

void DeliveryDispatcher::OnAppReady(Session& app) {
  QueueOf(app.client()).over_since_ms = 0;
  Schedule(app.client());
}

void DeliveryDispatcher::OnAppDetached(Session& app) {
  app.polls().Drop();
  AppQueue& q = QueueOf(app.client());
  q.over_since_ms = 0;
  ++q.detaches;  // a take still out answers none of the app's next channels
  // What was written and not acknowledged goes back to the front, oldest
  // first, for the next session; its payload goes back to the store.
  while (!q.unacked.empty()) {
    const std::uint64_t id = q.unacked.back();
    q.unacked.pop_back();
    MessageRecord* r = ledger_.Find(id);
    r->unacked = false;
    // A payload by key, or one the store kept, is still in the store (or
    // the app took it: a new session of the same SDK drops the delivery by
    // its id).
    if (r->state == MessageRecord::State::kAwaitingDelivery && !r->by_key && !r->payload_kept) {
      store_.Put(id, std::move(r->payload), [](const absl::Status&) {});
    }
    r->payload.clear();
    q.ids.push_front(id);
  }
}

void DeliveryDispatcher::OnWritable(Session& app) { Schedule(app.client()); }

void DeliveryDispatcher::Pump() {
  // Completing a batch may schedule its app again, so loop until settled.
  while (!dirty_.empty()) {
    pumping_.swap(dirty_);
    for (std::uint32_t app : pumping_) {
      queues_[app].scheduled = false;
      PumpApp(app);
    }
    pumping_.clear();
  }
}

void DeliveryDispatcher::PumpApp(std::uint32_t app) {
  AppQueue& q = queues_[app];
  Session* s = apps_.at(app).session;
  while (s != nullptr && s->ready() && !q.taking && !q.store_stalled && !q.ids.empty()) {
    if (s->is_push()) {
      if (s->recv()->above_high_watermark()) return;
      StartBatch(app, *s, config_.max_batch, /*answers_poll=*/false);
    } else {
      if (!s->polls().waiting()) return;
      StartBatch(app, *s, s->polls().Take(), /*answers_poll=*/true);
    }
    s = apps_.at(app).session;
  }
}

void DeliveryDispatcher::OnReceive(Session& app, const wire::Receive& receive) {
  if (app.is_push()) {
    app.recv()->SendError(wire::BAD_REQUEST, "Receive needs PULL mode; this session is PUSH");
    return;
  }
  if (!app.polls().room()) {
    app.recv()->SendError(wire::BAD_REQUEST,
                          absl::StrCat(wire::kMaxWaitingPolls,
                                       " Receive requests are already waiting on this session "
                                       "(the most allowed)"));
    return;
  }
  const std::uint32_t max = receive.max_count() == 0
                                ? config_.max_batch
                                : std::min(receive.max_count(), config_.max_batch);
  AppQueue& q = QueueOf(app.client());
  if (!q.ids.empty() && !q.taking && !q.store_stalled) {
    StartBatch(app.client(), app, max, /*answers_poll=*/true);
  } else if (receive.timeout_ms() == 0) {
    OnPollsExpired(app, 1);
  } else {
    app.polls().Park(max, receive.timeout_ms(), this);
    if (!q.ids.empty()) Schedule(app.client());  // a store take is finishing
  }
}

void DeliveryDispatcher::AnswerEmpty(std::uint32_t app) {
  if (Session* s = apps_.at(app).session; s != nullptr) OnPollsExpired(*s, 1);
}

void DeliveryDispatcher::OnPollsExpired(Session& app, std::uint32_t count) {
  if (!app.ready()) return;
  wire::Frame empty;
  empty.mutable_deliveries();
  for (std::uint32_t i = 0; i < count; ++i) app.recv()->Write(empty);
}

void DeliveryDispatcher::StartBatch(std::uint32_t app, Session& s, std::uint32_t max_count,
                                    bool answers_poll) {
  AppQueue& q = queues_[app];
  std::uint32_t slot;
  if (free_takes_.empty()) {
    slot = static_cast<std::uint32_t>(takes_.size());
    takes_.emplace_back();
  } else {
    slot = free_takes_.back();
    free_takes_.pop_back();
  }
  PendingTake& take = takes_[slot];
  take.app = app;
  take.answers_poll = answers_poll;
  take.by_key = s.payload_by_key();
  take.detaches = q.detaches;
  take.ids.clear();
  payload_ids_.clear();
  // Batch by count and by bytes, so the frame stays under the app's limit.
  // The batch's bytes stay counted (q.bytes, the budget) until delivered.
  std::uint64_t frame_bytes = 0;
  while (!q.ids.empty() && take.ids.size() < max_count) {
    const MessageRecord* r = ledger_.Find(q.ids.front());
    // A payload by key to an app that takes it so is not in the frame.
    const std::uint64_t cost =
        wire::kDeliveryOverheadBytes + (r->by_key && take.by_key ? 0 : r->size);
    if (!take.ids.empty() && frame_bytes + cost > s.max_frame_bytes()) break;
    frame_bytes += cost;
    take.ids.push_back(r->id);
    if (ReadsPayload(*r, take.by_key)) payload_ids_.push_back(r->id);
    q.ids.pop_front();
  }
  q.taking = true;
  store_.TakeBatch(payload_ids_, [this, slot](const absl::Status& status,
                                              std::span<std::string> payloads,
                                              std::span<const PayloadStore::TakeResult> results) {
    CompleteBatch(slot, status, payloads, results);
  });
}

void DeliveryDispatcher::Requeue(PendingTake& take) {
  AppQueue& q = QueueOf(take.app);
  for (auto it = take.ids.rbegin(); it != take.ids.rend(); ++it) q.ids.push_front(*it);
}

void DeliveryDispatcher::CompleteBatch(std::uint32_t slot, const absl::Status& status,
                                       std::span<std::string> payloads,
                                       std::span<const PayloadStore::TakeResult> results) {
  const std::uint32_t app = takes_[slot].app;
  const bool answers_poll = takes_[slot].answers_poll;
  const bool by_key = takes_[slot].by_key;
  // The channels that asked are gone if the app lost them since: what the
  // take was for waits for the next ones, and nothing answers them unasked.
  const bool same_channels = takes_[slot].detaches == queues_[app].detaches;
  queues_[app].taking = false;
  if (!status.ok()) {
    // The store could not answer, so nothing was taken: try again once it is back.
    queues_[app].store_stalled = true;
    Requeue(takes_[slot]);
    free_takes_.push_back(slot);
    if (answers_poll && same_channels) AnswerEmpty(app);
    return;
  }
  // Payloads the store no longer has are lost there. Compact the batch (and
  // its payloads) to the messages that remain.
  std::vector<std::uint64_t>& ids = takes_[slot].ids;
  std::size_t kept = 0;
  std::size_t taken = 0;
  std::size_t p = 0;
  for (std::uint64_t id : ids) {
    MessageRecord* r = ledger_.Find(id);
    if (ReadsPayload(*r, by_key)) {
      const std::size_t i = p++;
      if (results[i] == PayloadStore::TakeResult::kMissing) {
        LoseInStore(*r);
        continue;
      }
      if (taken != i) payloads[taken] = std::move(payloads[i]);
      ++taken;
      r->by_key = false;  // the daemon holds the payload now, whatever its way in
      r->payload_kept = results[i] == PayloadStore::TakeResult::kKept;
    }
    ids[kept++] = id;
  }
  ids.resize(kept);
  payloads = payloads.first(taken);
  Session* s = apps_.at(app).session;
  if (s == nullptr || !s->ready() || !same_channels) {
    // The app left while the store answered (and perhaps came back, as
    // another SDK even): keep the payloads for it.
    std::size_t i = 0;
    for (std::uint64_t id : ids) {
      const MessageRecord* r = ledger_.Find(id);
      if (r->state == MessageRecord::State::kAwaitingDelivery && !r->by_key) {
        if (!r->payload_kept) store_.Put(id, std::move(payloads[i]), [](const absl::Status&) {});
        ++i;
      }
    }
    Requeue(takes_[slot]);
  } else if (!ids.empty()) {
    WriteBatch(*s, takes_[slot], payloads);
  } else if (answers_poll) {
    AnswerEmpty(app);  // every payload was lost: the Receive still gets its answer
  }
  free_takes_.push_back(slot);
  if (!queues_[app].ids.empty()) Schedule(app);
}

void DeliveryDispatcher::LoseInStore(MessageRecord& r) {
  AppQueue& q = QueueOf(r.dst);
  q.bytes -= r.size;
  budget_.Remove(r.size);
  ledger_.LostInStore(r);
  if (r.notify_drop) {
    r.lost_in_store = true;
    if (drop_route_ == nullptr || !drop_route_->TakeDropReport(r)) {
      EnqueueDropReport(r, uv_now(loop_));
    }
  } else {
    ledger_.Erase(r.id);
  }
}

void DeliveryDispatcher::WriteBatch(Session& s, PendingTake& take,
                                    std::span<std::string> payloads) {
  AppQueue& q = queues_[take.app];
  writer_.Write(s, take.ids, payloads, &q.next_seq, s.delivery_acks());
  if (observer_ != nullptr) {
    for (std::uint64_t id : take.ids) observer_->OnDeliveryWritten(take.app, *ledger_.Find(id));
  }
  if (s.delivery_acks()) {
    // Kept (with their payloads) until the app acknowledges them.
    for (std::uint64_t id : take.ids) {
      ledger_.Find(id)->unacked = true;
      q.unacked.push_back(id);
    }
  } else {
    for (std::uint64_t id : take.ids) Finish(q, *ledger_.Find(id));
  }
}

void DeliveryDispatcher::Finish(AppQueue& q, MessageRecord& r) {
  if (r.state == MessageRecord::State::kAwaitingDelivery) {
    q.bytes -= r.size;
    budget_.Remove(r.size);
    // Delivered by key: the app took the payload (GETDEL); the store
    // forgets it, and unlinks whatever is left. A kept payload goes now
    // that its message is finished.
    if (r.by_key || r.payload_kept) store_.Erase(r.id);
    ledger_.Delivered(r);
  }
  ledger_.Erase(r.id);
}

void DeliveryDispatcher::OnAck(Session& app, const wire::Ack& ack) {
  if (!app.delivery_acks()) {
    app.recv()->SendError(wire::BAD_REQUEST,
                          "Ack on a session that did not ask for delivery_acks in its Hello");
    return;
  }
  AppQueue& q = QueueOf(app.client());
  if (ack.delivery_seq() > q.next_seq) {
    app.recv()->SendError(wire::BAD_REQUEST,
                          absl::StrCat("Ack for delivery_seq ", ack.delivery_seq(),
                                       ", but only ", q.next_seq, " deliveries were written"));
    return;
  }
  while (!q.unacked.empty()) {
    MessageRecord* r = ledger_.Find(q.unacked.front());
    if (r->delivery_seq > ack.delivery_seq()) break;
    q.unacked.pop_front();
    Finish(q, *r);
  }
  Schedule(app.client());  // below the bound again, perhaps
}

void DeliveryDispatcher::Housekeeping(std::uint64_t now_ms) {
  const bool store_up = store_.available();
  for (std::uint32_t app = 0; app < queues_.size(); ++app) {
    AppQueue& q = queues_[app];
    if (q.store_stalled && store_up) {
      q.store_stalled = false;
      Schedule(app);
    }
    if (q.ids.empty() && q.unacked.empty()) {
      q.over_since_ms = 0;  // a later burst gets its grace period afresh
      continue;
    }
    if (q.taking) continue;
    Session* s = apps_.at(app).session;
    if (s != nullptr && s->ready()) {
      EnforceBacklogLimit(app, q, *s, now_ms);
    } else {
      ExpireAbsent(q, now_ms);
    }
  }
}

void DeliveryDispatcher::ExpireAbsent(AppQueue& q, std::uint64_t now_ms) {
  while (!q.ids.empty()) {
    MessageRecord* r = ledger_.Find(q.ids.front());
    if (r->ready_ms + config_.delivery_ttl_ms > now_ms) break;
    q.ids.pop_front();
    if (r->state == MessageRecord::State::kAwaitingDelivery) {
      q.bytes -= r->size;
      budget_.Remove(r->size);
      store_.Erase(r->id);
      ledger_.Expired(*r);
    }
    ledger_.Erase(r->id);  // last: it may free the app, and `q` with it (Forget)
  }
}

void DeliveryDispatcher::EnforceBacklogLimit(std::uint32_t app, AppQueue& q, Session& s,
                                             std::uint64_t now_ms) {
  const std::size_t backlog = q.ids.size() + q.unacked.size();
  const bool over =
      backlog > config_.delivery_queue_limit || q.bytes > config_.delivery_queue_bytes;
  if (!over) {
    q.over_since_ms = 0;
    return;
  }
  if (q.over_since_ms == 0) {
    q.over_since_ms = std::max<std::uint64_t>(now_ms, 1);
    return;
  }
  if (now_ms - q.over_since_ms < config_.slow_app_grace_ms) return;
  q.over_since_ms = 0;
  closer_.CloseSession(
      s, wire::RESOURCE_EXHAUSTED,
      absl::StrCat("delivery backlog of ", backlog, " messages (", q.bytes,
                   " bytes) for app '", apps_.at(app).id, "' stayed over the limit of ",
                   config_.delivery_queue_limit, " messages (delivery_queue_limit) or ",
                   config_.delivery_queue_bytes, " bytes (delivery_queue_bytes) for longer than ",
                   config_.slow_app_grace_ms,
                   " ms (slow_app_grace_ms): closing the session; its deliveries wait for a "
                   "resume, or expire after ",
                   config_.delivery_ttl_ms, " ms"));
}

std::size_t DeliveryDispatcher::queued(std::uint32_t app) const {
  return app < queues_.size() ? queues_[app].ids.size() + queues_[app].unacked.size() : 0;
}

std::uint64_t DeliveryDispatcher::queued_bytes(std::uint32_t app) const {
  return app < queues_.size() ? queues_[app].bytes : 0;
}

}  // namespace trestle::daemon
