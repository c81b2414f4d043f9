#include "delivery_dispatcher.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "session.h"
#include "trestle/wire/monotonic_clock.h"

namespace trestle::daemon {
namespace {
// Room for a Delivery's fields besides the payload, when sizing a batch.
// Client ids are at most 256 bytes each, so this bounds every field but the payload.
constexpr std::uint64_t kDeliveryOverheadBytes = 1024;
// Payload bytes the reused delivery frame may keep allocated between batches.
constexpr std::uint64_t kKeepFrameBytes = 256 * 1024;
}  // namespace

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
      closer_(closer) {}

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
  QueueOf(app.client()).over_since_ms = 0;
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
      StartBatch(app, *s, config_.max_batch);
    } else {
      if (!s->polls().waiting()) return;
      StartBatch(app, *s, s->polls().Take());
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
    StartBatch(app.client(), app, max);
  } else if (receive.timeout_ms() == 0) {
    OnPollsExpired(app, 1);
  } else {
    app.polls().Park(max, receive.timeout_ms(), this);
    if (!q.ids.empty()) Schedule(app.client());  // a store take is finishing
  }
}

void DeliveryDispatcher::OnPollsExpired(Session& app, std::uint32_t count) {
  if (!app.ready()) return;
  wire::Frame empty;
  empty.mutable_deliveries();
  for (std::uint32_t i = 0; i < count; ++i) app.recv()->Write(empty);
}

void DeliveryDispatcher::StartBatch(std::uint32_t app, Session& s, std::uint32_t max_count) {
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
  take.ids.clear();
  payload_ids_.clear();
  // Batch by count and by bytes, so the frame stays under the app's limit.
  std::uint64_t frame_bytes = 0;
  std::uint64_t payload_bytes = 0;
  while (!q.ids.empty() && take.ids.size() < max_count) {
    const MessageRecord* r = ledger_.Find(q.ids.front());
    const std::uint64_t cost = kDeliveryOverheadBytes + r->size;
    if (!take.ids.empty() && frame_bytes + cost > s.max_frame_bytes()) break;
    frame_bytes += cost;
    payload_bytes += PayloadBytes(*r);
    take.ids.push_back(r->id);
    if (r->state == MessageRecord::State::kAwaitingDelivery) payload_ids_.push_back(r->id);
    q.ids.pop_front();
  }
  q.bytes -= payload_bytes;
  budget_.Remove(payload_bytes);
  q.taking = true;
  store_.TakeBatch(payload_ids_, [this, slot](const absl::Status& status,
                                              std::span<std::string> payloads,
                                              std::span<const PayloadStore::TakeResult> results) {
    CompleteBatch(slot, status, payloads, results);
  });
}

void DeliveryDispatcher::Requeue(PendingTake& take) {
  AppQueue& q = QueueOf(take.app);
  std::uint64_t bytes = 0;
  for (auto it = take.ids.rbegin(); it != take.ids.rend(); ++it) {
    bytes += PayloadBytes(*ledger_.Find(*it));
    q.ids.push_front(*it);
  }
  q.bytes += bytes;
  budget_.Add(bytes);
}

void DeliveryDispatcher::CompleteBatch(std::uint32_t slot, const absl::Status& status,
                                       std::span<std::string> payloads,
                                       std::span<const PayloadStore::TakeResult> results) {
  const std::uint32_t app = takes_[slot].app;
  queues_[app].taking = false;
  if (!status.ok()) {
    // The store could not answer, so nothing was taken: try again once it is back.
    queues_[app].store_stalled = true;
    Requeue(takes_[slot]);
    free_takes_.push_back(slot);
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
    if (r->state == MessageRecord::State::kAwaitingDelivery) {
      const std::size_t i = p++;
      if (results[i] == PayloadStore::TakeResult::kMissing) {
        LoseInStore(*r);
        continue;
      }
      if (taken != i) payloads[taken] = std::move(payloads[i]);
      ++taken;
    }
    ids[kept++] = id;
  }
  ids.resize(kept);
  payloads = payloads.first(taken);
  Session* s = apps_.at(app).session;
  if (s == nullptr || !s->ready()) {
    // The app left while the store answered: keep the payloads for it.
    std::size_t i = 0;
    for (std::uint64_t id : ids) {
      if (ledger_.Find(id)->state == MessageRecord::State::kAwaitingDelivery) {
        store_.Put(id, std::move(payloads[i++]), [](const absl::Status&) {});
      }
    }
    Requeue(takes_[slot]);
  } else if (!ids.empty()) {
    WriteBatch(*s, takes_[slot], payloads);
  }
  free_takes_.push_back(slot);
  if (!queues_[app].ids.empty()) Schedule(app);
}

void DeliveryDispatcher::LoseInStore(MessageRecord& r) {
  ledger_.LostInStore(r);
  if (r.notify_drop) {
    r.lost_in_store = true;
    EnqueueDropReport(r, uv_now(loop_));
  } else {
    ledger_.Erase(r.id);
  }
}

void DeliveryDispatcher::WriteBatch(Session& s, PendingTake& take,
                                    std::span<std::string> payloads) {
  // The frame is reused so its Delivery messages (and their strings) are
  // allocated once; after a large batch it is dropped so that it does not
  // keep megabytes of payload capacity alive.
  frame_.Clear();
  wire::DeliverBatch* batch = frame_.mutable_deliveries();
  const std::uint64_t now = wire::MonotonicNanos();
  std::uint64_t batch_bytes = 0;
  std::size_t p = 0;
  for (std::uint64_t id : take.ids) {
    MessageRecord* r = ledger_.Find(id);
    wire::Delivery* d = batch->add_deliveries();
    d->set_id(id);
    d->set_src(apps_.at(r->src).id);
    d->set_dst(apps_.at(r->dst).id);
    d->set_t_send(r->t_send);
    d->set_t_deliver(r->t_deliver);
    d->set_tclass(r->tclass);
    wire::Stamps* st = d->mutable_stamps();
    st->set_app_sent(r->app_sent);
    st->set_daemon_accepted(r->accepted);
    st->set_sim_handed(r->handed);
    st->set_sim_posted(r->posted);
    st->set_daemon_delivered(now);
    if (r->state == MessageRecord::State::kAwaitingDelivery) {
      d->set_status(wire::DELIVERED);
      batch_bytes += payloads[p].size();
      d->set_payload(std::move(payloads[p++]));
      ledger_.Delivered(*r, now);
    } else {
      d->set_status(r->lost_in_store ? wire::LOST_IN_STORE : wire::DROPPED);
    }
    ledger_.Erase(id);
  }
  s.recv()->Write(frame_);
  if (batch_bytes > kKeepFrameBytes) frame_ = wire::Frame();
}

void DeliveryDispatcher::Housekeeping(std::uint64_t now_ms) {
  const bool store_up = store_.available();
  for (std::uint32_t app = 0; app < queues_.size(); ++app) {
    AppQueue& q = queues_[app];
    if (q.store_stalled && store_up) {
      q.store_stalled = false;
      Schedule(app);
    }
    if (q.ids.empty() || q.taking) continue;
    Session* s = apps_.at(app).session;
    if (s != nullptr && s->ready()) {
      EnforceBacklogLimit(app, q, *s, now_ms);
    } else {
      ExpireAbsent(q, now_ms);
    }
  }
}

void DeliveryDispatcher::ExpireAbsent(AppQueue& q, std::uint64_t now_ms) {
  std::uint64_t bytes = 0;
  while (!q.ids.empty()) {
    MessageRecord* r = ledger_.Find(q.ids.front());
    if (r->ready_ms + config_.delivery_ttl_ms > now_ms) break;
    q.ids.pop_front();
    if (r->state == MessageRecord::State::kAwaitingDelivery) {
      bytes += r->size;
      store_.Erase(r->id);
      ledger_.Expired(*r);
    }
    ledger_.Erase(r->id);
  }
  q.bytes -= bytes;
  budget_.Remove(bytes);
}

void DeliveryDispatcher::EnforceBacklogLimit(std::uint32_t app, AppQueue& q, Session& s,
                                             std::uint64_t now_ms) {
  const bool over = q.ids.size() > config_.delivery_queue_limit ||
                    q.bytes > config_.delivery_queue_bytes;
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
      absl::StrCat("delivery backlog of ", q.ids.size(), " messages (", q.bytes,
                   " bytes) for app '", apps_.at(app).id, "' stayed over the limit of ",
                   config_.delivery_queue_limit, " messages (delivery_queue_limit) or ",
                   config_.delivery_queue_bytes, " bytes (delivery_queue_bytes) for longer than ",
                   config_.slow_app_grace_ms,
                   " ms (slow_app_grace_ms): closing the session; its deliveries wait for a "
                   "resume, or expire after ",
                   config_.delivery_ttl_ms, " ms"));
}

std::size_t DeliveryDispatcher::queued(std::uint32_t app) const {
  return app < queues_.size() ? queues_[app].ids.size() : 0;
}

std::uint64_t DeliveryDispatcher::queued_bytes(std::uint32_t app) const {
  return app < queues_.size() ? queues_[app].bytes : 0;
}

}  // namespace trestle::daemon
