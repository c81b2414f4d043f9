#include "relay.h"

#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "absl/strings/str_cat.h"
#include "connection.h"
#include "session.h"
#include "trestle/wire/monotonic_clock.h"

namespace trestle::daemon {
namespace {
// Room for a Delivery's fields besides the payload, when sizing a batch.
// Client ids are at most 256 bytes each, so this bounds every field but the payload.
constexpr std::uint64_t kDeliveryOverheadBytes = 1024;
// Payload bytes a reused delivery frame may keep allocated between batches.
constexpr std::uint64_t kKeepDeliveryFrameBytes = 256 * 1024;
}  // namespace

Relay::Relay(uv_loop_t* loop, const DaemonConfig& config, PayloadStore& store,
             ClientRegistry& apps, ClientRegistry& sims)
    : loop_(loop), config_(config), store_(store), apps_(apps), sims_(sims) {
  QueueByKey("");  // queue 0: the system-wide simulator's
}

// ---- queues and scheduling ---------------------------------------------------

TransitQueue& Relay::QueueByKey(const std::string& key) {
  auto it = queue_by_key_.find(key);
  if (it != queue_by_key_.end()) return *queues_[it->second];
  auto q = std::make_unique<TransitQueue>();
  q->index = static_cast<std::uint32_t>(queues_.size());
  q->key = key;
  queue_by_key_.emplace(key, q->index);
  queues_.push_back(std::move(q));
  return *queues_.back();
}

TransitQueue& Relay::QueueForSender(const ClientEntry& src) {
  return config_.sim_assignment == "per-node" ? QueueByKey(src.id) : *queues_[0];
}

void Relay::ScheduleQueue(TransitQueue& q) {
  if (q.pump_scheduled) return;
  q.pump_scheduled = true;
  dirty_queues_.push_back(q.index);
}

void Relay::ScheduleClient(ClientEntry& e) {
  if (e.pump_scheduled) return;
  e.pump_scheduled = true;
  dirty_clients_.push_back(e.index);
}

void Relay::RunPumps() {
  // Pumping one side can make work for the other (a delivery batch may
  // resume a simulator), so run until both lists are empty.
  // pump_batch_ is a member so that swapping with it keeps every list's
  // capacity: no allocation per loop pass.
  std::vector<std::uint32_t>& batch = pump_batch_;
  while (!dirty_queues_.empty() || !dirty_clients_.empty()) {
    batch.swap(dirty_queues_);
    for (std::uint32_t i : batch) {
      queues_[i]->pump_scheduled = false;
      PumpQueue(*queues_[i]);
    }
    batch.clear();
    batch.swap(dirty_clients_);
    for (std::uint32_t i : batch) {
      apps_.at(i).pump_scheduled = false;
      PumpDeliveries(apps_.at(i));
    }
    batch.clear();
  }
}

// ---- session lifecycle -------------------------------------------------------

void Relay::OnSessionReady(Session& s) {
  if (s.is_app()) {
    ScheduleClient(apps_.at(s.client));
    return;
  }
  const std::string& key = config_.sim_assignment == "per-node" ? sims_.at(s.client).id : "";
  TransitQueue& q = QueueByKey(key);
  s.queue = q.index;
  q.sims.push_back(&s);
  ScheduleQueue(q);
}

void Relay::OnSessionDetached(Session& s) {
  s.DropPolls();
  if (s.is_app()) {
    for (auto& q : queues_) {
      auto& paused = q->paused_senders;
      paused.erase(std::remove(paused.begin(), paused.end(), s.client), paused.end());
    }
    return;
  }
  paused_sims_.erase(std::remove(paused_sims_.begin(), paused_sims_.end(), s.client),
                     paused_sims_.end());
  TransitQueue& q = *queues_[s.queue];
  q.RemoveSim(&s);
  if (s.held.empty()) return;
  // Give the held transits back, oldest first, ahead of newer work, so the
  // next simulator sees them in the order the first one did.
  std::vector<std::uint64_t> held(s.held.begin(), s.held.end());
  std::sort(held.begin(), held.end(), [this](std::uint64_t a, std::uint64_t b) {
    return messages_.Find(a)->accepted > messages_.Find(b)->accepted;
  });
  for (std::uint64_t id : held) {
    MessageRecord* r = messages_.Find(id);
    r->state = MessageRecord::State::kQueued;
    r->holder = nullptr;
    q.ids.push_front(id);
  }
  s.held.clear();
  spdlog::debug("simulator {} left holding {} transits; requeued", sims_.at(s.client).id,
                held.size());
  ScheduleQueue(q);
}

void Relay::OnWritable(Session& s) {
  if (s.is_app()) {
    ScheduleClient(apps_.at(s.client));
  } else if (s.ready()) {
    ScheduleQueue(*queues_[s.queue]);
  }
}

// ---- sends -------------------------------------------------------------------

void Relay::Reject(Session& s, std::uint64_t id, wire::ErrorCode code, const std::string& text) {
  apps_.at(s.client).counters.rejected++;
  totals_.rejected++;
  if (s.send != nullptr) s.send->SendError(code, text, id);
}

void Relay::OnSend(Session& s, wire::Send& send) {
  const std::uint64_t id = s.NextId();
  if (draining_) {
    Reject(s, id, wire::SHUTTING_DOWN, "the daemon is draining: no new sends are accepted");
    return;
  }
  if (send.dst().empty()) {
    Reject(s, id, wire::BAD_REQUEST, "Send.dst is empty: name the destination app");
    return;
  }
  // The payload must fit in a Delivery frame once src, dst and stamps are added.
  if (send.payload().size() + kDeliveryOverheadBytes > config_.max_frame_bytes) {
    Reject(s, id, wire::BAD_REQUEST,
           "payload of " + std::to_string(send.payload().size()) +
               " bytes is too large to deliver: at most max_frame_bytes - " +
               std::to_string(kDeliveryOverheadBytes) + " = " +
               std::to_string(config_.max_frame_bytes - kDeliveryOverheadBytes));
    return;
  }
  ClientEntry& src = apps_.at(s.client);
  ClientEntry& dst = apps_.GetOrCreate(send.dst());
  TransitQueue& q = QueueForSender(src);
  MessageRecord& r = messages_.Insert(id);
  r.src = src.index;
  r.dst = dst.index;
  r.queue = q.index;
  r.tclass = send.tclass();
  r.size = send.payload().size();
  r.t_send = send.t_send();
  r.app_sent = send.app_sent();
  r.accepted = wire::MonotonicNanos();
  r.notify_drop = send.notify_drop();
  src.counters.accepted++;
  src.counters.in_flight++;
  totals_.accepted++;
  totals_.in_flight++;
  store_.Put(id, std::move(*send.mutable_payload()),
             [this, id](const absl::Status& status) { OnPayloadStored(id, status); });
  if (q.ids.size() >= config_.transit_queue_limit && s.send != nullptr &&
      !s.send->stream().reading_paused()) {
    s.send->stream().PauseReading();
    q.paused_senders.push_back(s.client);
  }
}

void Relay::OnPayloadStored(std::uint64_t id, const absl::Status& status) {
  MessageRecord* r = messages_.Find(id);
  if (r == nullptr) return;
  if (!status.ok()) {
    spdlog::error("payload store {} refused message {}: {}", store_.name(), id,
                  status.ToString());
    CountExpired(*r);
    return;
  }
  TransitQueue& q = *queues_[r->queue];
  q.ids.push_back(id);
  ScheduleQueue(q);
}

void Relay::MaybeResumeSenders(TransitQueue& q) {
  if (q.paused_senders.empty() || q.ids.size() > config_.transit_queue_limit / 2) return;
  std::vector<std::uint32_t> paused;
  paused.swap(q.paused_senders);
  for (std::uint32_t client : paused) {
    Session* s = apps_.at(client).session;
    if (s != nullptr && s->send != nullptr) s->send->stream().ResumeReading();
  }
}

// ---- transits to simulators --------------------------------------------------

void Relay::WriteTransitBatch(TransitQueue& q, Session& sim, std::uint32_t max_count) {
  transit_frame_.Clear();
  wire::TransitBatch* batch = transit_frame_.mutable_transits();
  const std::uint64_t now = wire::MonotonicNanos();
  while (!q.ids.empty() && static_cast<std::uint32_t>(batch->transits_size()) < max_count) {
    const std::uint64_t id = q.ids.front();
    q.ids.pop_front();
    MessageRecord* r = messages_.Find(id);
    if (r == nullptr) continue;
    wire::Transit* t = batch->add_transits();
    t->set_id(id);
    t->set_src(apps_.at(r->src).id);
    t->set_dst(apps_.at(r->dst).id);
    t->set_size(r->size);
    t->set_tclass(r->tclass);
    t->set_t_send(r->t_send);
    r->state = MessageRecord::State::kHeld;
    r->holder = &sim;
    r->handed = now;
    sim.held.insert(id);
  }
  sim.recv->Write(transit_frame_);
  MaybeResumeSenders(q);
}

void Relay::PumpQueue(TransitQueue& q) {
  // PULL simulators waiting in a Fetch are answered first.
  for (Session* sim : q.sims) {
    while (!q.ids.empty() && !sim->is_push() && sim->poll_waiting()) {
      WriteTransitBatch(q, *sim, sim->TakePoll());
    }
    if (q.ids.empty()) return;
  }
  // PUSH simulators share the rest, a batch each in turn.
  std::size_t idle_turns = 0;
  while (!q.ids.empty() && !q.sims.empty() && idle_turns < q.sims.size()) {
    Session* sim = q.sims[q.next_sim++ % q.sims.size()];
    if (!sim->is_push() || !sim->ready() || sim->recv->stream().above_high_watermark()) {
      idle_turns++;
      continue;
    }
    idle_turns = 0;
    WriteTransitBatch(q, *sim, config_.max_batch);
  }
}

void Relay::OnFetch(Session& s, const wire::Fetch& fetch) {
  if (s.is_push()) {
    s.recv->SendError(wire::BAD_REQUEST, "Fetch needs PULL mode; this session is PUSH");
    return;
  }
  if (!s.poll_room()) {
    s.recv->SendError(wire::BAD_REQUEST, absl::StrCat(wire::kMaxWaitingPolls,
                                                      " Fetch requests are already waiting on "
                                                      "this session (the most allowed)"));
    return;
  }
  const std::uint32_t max =
      fetch.max_count() == 0 ? config_.max_batch : std::min(fetch.max_count(), config_.max_batch);
  TransitQueue& q = *queues_[s.queue];
  if (!q.ids.empty()) {
    WriteTransitBatch(q, s, max);
  } else if (fetch.timeout_ms() == 0) {
    WriteEmptyBatch(s);
  } else {
    s.ParkPoll(max, fetch.timeout_ms(), &Relay::OnPollTimeout);
  }
}

void Relay::OnPollTimeout(uv_timer_t* timer) {
  auto* s = static_cast<Session*>(timer->data);
  auto* relay = static_cast<Relay*>(timer->loop->data);
  const std::uint32_t expired = s->TakeExpiredPolls(uv_now(timer->loop));
  for (std::uint32_t i = 0; i < expired && s->ready(); ++i) relay->WriteEmptyBatch(*s);
}

void Relay::WriteEmptyBatch(Session& s) {
  wire::Frame frame;
  if (s.is_app()) {
    frame.mutable_deliveries();
  } else {
    frame.mutable_transits();
  }
  s.recv->Write(frame);
}

// ---- outcomes from simulators --------------------------------------------------

void Relay::OnOutcomes(Session& s, const wire::OutcomeBatch& batch) {
  const std::uint64_t now_ms = uv_now(loop_);
  const std::uint64_t now_ns = wire::MonotonicNanos();
  bool over_limit = false;
  for (const wire::Outcome& o : batch.outcomes()) {
    MessageRecord* r = messages_.Find(o.id());
    if (r == nullptr || r->state != MessageRecord::State::kHeld || r->holder != &s) {
      s.send->SendError(wire::NOT_FOUND,
                        "Outcome for transit " + std::to_string(o.id()) +
                            " which this simulator does not hold",
                        o.id());
      continue;
    }
    if (o.status() != wire::DELIVERED && o.status() != wire::DROPPED) {
      s.send->SendError(wire::BAD_REQUEST,
                        "Outcome for transit " + std::to_string(o.id()) +
                            " has no status (DELIVERED or DROPPED)",
                        o.id());
      continue;
    }
    s.held.erase(o.id());
    r->holder = nullptr;
    r->posted = o.sim_posted();
    r->outcome_at = now_ns;
    r->t_deliver = o.t_deliver();
    r->ready_ms = now_ms;
    ClientEntry* waiting_for = nullptr;
    if (o.status() == wire::DELIVERED) {
      r->state = MessageRecord::State::kAwaitingDelivery;
      waiting_for = &apps_.at(r->dst);
    } else {
      store_.Erase(r->id);
      CountDropped(*r);
      if (r->notify_drop) {
        r->state = MessageRecord::State::kDropReport;
        waiting_for = &apps_.at(r->src);
      } else {
        messages_.Erase(r->id);
      }
    }
    if (waiting_for != nullptr) {
      waiting_for->deliveries.push_back(o.id());
      ScheduleClient(*waiting_for);
      over_limit |= waiting_for->deliveries.size() >= config_.delivery_queue_limit;
    }
  }
  if (over_limit && !s.send->stream().reading_paused()) {
    s.send->stream().PauseReading();
    paused_sims_.push_back(s.client);
  }
}

void Relay::MaybeResumeSims(const ClientEntry& e) {
  if (paused_sims_.empty() || e.deliveries.size() > config_.delivery_queue_limit / 2) return;
  std::vector<std::uint32_t> paused;
  paused.swap(paused_sims_);
  for (std::uint32_t client : paused) {
    Session* s = sims_.at(client).session;
    if (s != nullptr && s->send != nullptr) s->send->stream().ResumeReading();
  }
}

// ---- deliveries to apps ------------------------------------------------------

void Relay::PumpDeliveries(ClientEntry& e) {
  Session* s = e.session;
  while (s != nullptr && s->ready() && !e.take_in_progress && !e.deliveries.empty()) {
    if (s->is_push()) {
      if (s->recv->stream().above_high_watermark()) return;
      WriteDeliveryBatch(e, config_.max_batch);
    } else {
      if (!s->poll_waiting()) return;
      WriteDeliveryBatch(e, s->TakePoll());
    }
  }
}

void Relay::OnReceive(Session& s, const wire::Receive& receive) {
  if (s.is_push()) {
    s.recv->SendError(wire::BAD_REQUEST, "Receive needs PULL mode; this session is PUSH");
    return;
  }
  if (!s.poll_room()) {
    s.recv->SendError(wire::BAD_REQUEST, absl::StrCat(wire::kMaxWaitingPolls,
                                                      " Receive requests are already waiting "
                                                      "on this session (the most allowed)"));
    return;
  }
  const std::uint32_t max = receive.max_count() == 0
                                ? config_.max_batch
                                : std::min(receive.max_count(), config_.max_batch);
  ClientEntry& e = apps_.at(s.client);
  if (!e.deliveries.empty() && !e.take_in_progress) {
    WriteDeliveryBatch(e, max);
  } else if (receive.timeout_ms() == 0) {
    WriteEmptyBatch(s);
  } else {
    s.ParkPoll(max, receive.timeout_ms(), &Relay::OnPollTimeout);
    if (!e.deliveries.empty()) ScheduleClient(e);  // a store take is finishing
  }
}

void Relay::WriteDeliveryBatch(ClientEntry& e, std::uint32_t max_count) {
  // Batch by count and by bytes, so the frame stays under the frame limit.
  auto ids = std::make_shared<std::vector<std::uint64_t>>();
  ids->reserve(std::min<std::size_t>(max_count, e.deliveries.size()));
  payload_ids_.clear();
  std::uint64_t bytes = 0;
  while (!e.deliveries.empty() && ids->size() < max_count) {
    MessageRecord* r = messages_.Find(e.deliveries.front());
    const std::uint64_t cost = kDeliveryOverheadBytes + r->size;
    if (!ids->empty() && bytes + cost > config_.max_frame_bytes) break;
    bytes += cost;
    ids->push_back(r->id);
    if (r->state == MessageRecord::State::kAwaitingDelivery) payload_ids_.push_back(r->id);
    e.deliveries.pop_front();
  }
  e.take_in_progress = true;
  const std::uint32_t client = e.index;
  store_.TakeBatch(payload_ids_, [this, client, ids](const absl::Status& status,
                                                     std::span<std::string> payloads,
                                                     std::span<const PayloadStore::TakeResult>) {
    CompleteDeliveryBatch(client, *ids, status, payloads);
  });
}

void Relay::CompleteDeliveryBatch(std::uint32_t client, const std::vector<std::uint64_t>& ids,
                                  const absl::Status& status, std::span<std::string> payloads) {
  ClientEntry& e = apps_.at(client);
  e.take_in_progress = false;
  Session* s = e.session;
  if (!status.ok()) {
    spdlog::error("payload store {} failed a batch of {} for {}: {}", store_.name(), ids.size(),
                  e.id, status.ToString());
    for (std::uint64_t id : ids) {
      if (MessageRecord* r = messages_.Find(id)) {
        if (r->state == MessageRecord::State::kAwaitingDelivery) CountExpired(*r);
        messages_.Erase(id);
      }
    }
    return;
  }
  if (s == nullptr || !s->ready()) {
    // The app left while the store answered: keep the payloads for it.
    std::size_t p = payloads.size();
    for (auto it = ids.rbegin(); it != ids.rend(); ++it) {
      MessageRecord* r = messages_.Find(*it);
      if (r->state == MessageRecord::State::kAwaitingDelivery) {
        store_.Put(*it, std::move(payloads[--p]), [](const absl::Status&) {});
      }
      e.deliveries.push_front(*it);
    }
    return;
  }
  // The frame is reused so its Delivery messages (and their strings) are
  // allocated once; after a large batch it is dropped so that it does not
  // keep megabytes of payload capacity alive.
  wire::Frame& frame = delivery_frame_;
  frame.Clear();
  wire::DeliverBatch* batch = frame.mutable_deliveries();
  const std::uint64_t now = wire::MonotonicNanos();
  std::uint64_t batch_bytes = 0;
  std::size_t p = 0;
  for (std::uint64_t id : ids) {
    MessageRecord* r = messages_.Find(id);
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
      CountDelivered(*r);
      const std::uint64_t queued = r->handed - r->accepted;
      const std::uint64_t delivering = now - r->outcome_at;
      queue_latency_.Record(queued);
      simulator_latency_.Record(r->outcome_at - r->handed);
      delivery_latency_.Record(delivering);
      resident_latency_.Record(queued + delivering);
      e.counters.received++;
    } else {
      d->set_status(wire::DROPPED);
    }
    messages_.Erase(id);
  }
  s->recv->Write(frame);
  if (batch_bytes > kKeepDeliveryFrameBytes) frame = wire::Frame();
  MaybeResumeSims(e);
  if (!e.deliveries.empty()) ScheduleClient(e);
}

void Relay::ExpireDeliveries(std::uint64_t now_ms) {
  for (ClientEntry& e : apps_) {
    if (e.deliveries.empty() || e.take_in_progress) continue;
    if (e.session != nullptr && e.session->ready()) continue;
    bool expired_any = false;
    while (!e.deliveries.empty()) {
      MessageRecord* r = messages_.Find(e.deliveries.front());
      if (r->ready_ms + config_.delivery_ttl_ms > now_ms) break;
      e.deliveries.pop_front();
      if (r->state == MessageRecord::State::kAwaitingDelivery) {
        store_.Erase(r->id);
        CountExpired(*r);
      }
      messages_.Erase(r->id);
      expired_any = true;
    }
    if (expired_any) MaybeResumeSims(e);
  }
}

// ---- accounting --------------------------------------------------------------

void Relay::CountDelivered(MessageRecord& r) {
  MessageCounters& c = apps_.at(r.src).counters;
  c.delivered++;
  c.in_flight--;
  totals_.delivered++;
  totals_.in_flight--;
  totals_.received++;
}

void Relay::CountDropped(MessageRecord& r) {
  MessageCounters& c = apps_.at(r.src).counters;
  c.dropped++;
  c.in_flight--;
  totals_.dropped++;
  totals_.in_flight--;
}

void Relay::CountExpired(MessageRecord& r) {
  MessageCounters& c = apps_.at(r.src).counters;
  c.expired++;
  c.in_flight--;
  totals_.expired++;
  totals_.in_flight--;
}

void Relay::FillStats(wire::StatsReply* reply) {
  totals_.CopyTo(reply->mutable_total());
  for (ClientEntry& e : apps_) {
    wire::ClientStats* c = reply->add_clients();
    c->set_client_id(e.id);
    c->set_role(wire::ROLE_APP);
    c->set_connected(e.session != nullptr && e.session->ready());
    e.counters.CopyTo(c->mutable_counters());
    c->set_queued(e.deliveries.size());
  }
  for (ClientEntry& e : sims_) {
    wire::ClientStats* c = reply->add_clients();
    c->set_client_id(e.id);
    c->set_role(wire::ROLE_SIM);
    c->set_connected(e.session != nullptr && e.session->ready());
    if (e.session != nullptr) {
      c->set_queued(queues_[e.session->queue]->ids.size());
      c->set_held(e.session->held.size());
    }
  }
}

void Relay::FillClients(admin::ListClientsReply* reply) {
  auto fill = [&](ClientEntry& e, wire::Role role) {
    admin::ClientInfo* c = reply->add_clients();
    c->set_client_id(e.id);
    c->set_role(role);
    e.counters.CopyTo(c->mutable_counters());
    c->set_sent(e.counters.accepted);
    c->set_received(e.counters.received);
    Session* s = e.session;
    if (role == wire::ROLE_APP) c->set_queued(e.deliveries.size());
    if (s == nullptr) return;
    c->set_mode(s->mode);
    c->set_connected(s->ready());
    c->set_lingering(s->state == Session::State::kLingering);
    c->set_ctrl(s->ctrl != nullptr);
    c->set_send(s->send != nullptr);
    c->set_recv(s->recv != nullptr);
    if (s->recv != nullptr) c->set_output_bytes(s->recv->stream().pending_bytes());
    if (role == wire::ROLE_SIM) {
      c->set_queued(queues_[s->queue]->ids.size());
      c->set_held(s->held.size());
    }
  };
  for (ClientEntry& e : apps_) fill(e, wire::ROLE_APP);
  for (ClientEntry& e : sims_) fill(e, wire::ROLE_SIM);
}

void Relay::FillStageLatencies(admin::StatsReply* reply) const {
  queue_latency_.CopyTo("queue", reply->add_stages());
  simulator_latency_.CopyTo("simulator", reply->add_stages());
  delivery_latency_.CopyTo("delivery", reply->add_stages());
  resident_latency_.CopyTo("resident", reply->add_stages());
  totals_.CopyTo(reply->mutable_totals());
}

}  // namespace trestle::daemon
