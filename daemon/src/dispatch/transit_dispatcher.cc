#include "dispatch/transit_dispatcher.h"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "absl/strings/str_cat.h"
#include "session/session.h"
#include "trestle/wire/monotonic_clock.h"

namespace trestle::daemon {
namespace {
// A Transit's encoded size besides its two ids: tags, varints, the repeated
// field's framing and the Frame's own, rounded up.
constexpr std::uint64_t kTransitOverheadBytes = 64;
}  // namespace

TransitDispatcher::TransitDispatcher(const DaemonConfig& config, MessageLedger& ledger,
                                     ClientRegistry& apps, SimulatorAssignment& assignment)
    : config_(config), ledger_(ledger), apps_(apps), assignment_(assignment) {}

TransitDispatcher::Queue& TransitDispatcher::QueueAt(std::uint32_t index) {
  if (index >= queues_.size()) queues_.resize(index + 1);
  return queues_[index];
}

TransitDispatcher::SimState& TransitDispatcher::StateOf(std::uint32_t sim) {
  if (sim >= sims_.size()) sims_.resize(sim + 1);
  return sims_[sim];
}

void TransitDispatcher::Schedule(std::uint32_t queue) {
  Queue& q = QueueAt(queue);
  if (q.scheduled) return;
  q.scheduled = true;
  dirty_.push_back(queue);
}

void TransitDispatcher::Pump() {
  pumping_.swap(dirty_);
  for (std::uint32_t i : pumping_) {
    queues_[i].scheduled = false;
    PumpQueue(queues_[i]);
  }
  pumping_.clear();
}

void TransitDispatcher::Enqueue(MessageRecord& r) {
  r.state = MessageRecord::State::kQueued;
  QueueAt(r.queue).ids.push_back(r.id);
  Schedule(r.queue);
}

void TransitDispatcher::ThrottleSender(Session& sender, std::uint32_t queue) {
  Queue& q = QueueAt(queue);
  Channel* send = sender.send();
  if (q.ids.size() < config_.transit_queue_limit || send == nullptr || send->reading_paused()) {
    return;
  }
  send->PauseReading();
  q.paused_senders.push_back(sender.client());
}

void TransitDispatcher::MaybeResumeSenders(Queue& q) {
  if (q.paused_senders.empty() || q.ids.size() > config_.transit_queue_limit / 2) return;
  std::vector<std::uint32_t> paused;
  paused.swap(q.paused_senders);
  for (std::uint32_t client : paused) {
    Session* s = apps_.at(client).session;
    if (s != nullptr && s->send() != nullptr) s->send()->ResumeReading();
  }
}

void TransitDispatcher::OnSimReady(Session& sim, std::uint32_t queue) {
  StateOf(sim.client()).queue = queue;
  QueueAt(queue).sims.push_back(&sim);
  if (outcomes_paused_ && sim.send() != nullptr) sim.send()->PauseReading();
  Schedule(queue);
}

void TransitDispatcher::OnSimDetached(Session& sim) {
  sim.polls().Drop();
  SimState& state = StateOf(sim.client());
  Queue& q = QueueAt(state.queue);
  q.sims.erase(std::remove(q.sims.begin(), q.sims.end(), &sim), q.sims.end());
  if (state.held.empty()) return;
  // Give the held transits back, oldest first, ahead of newer work, so the
  // next simulator sees them in the order the first one did.
  std::vector<std::uint64_t> held(state.held.begin(), state.held.end());
  std::sort(held.begin(), held.end(), [this](std::uint64_t a, std::uint64_t b) {
    return ledger_.Find(a)->accepted > ledger_.Find(b)->accepted;
  });
  for (std::uint64_t id : held) {
    MessageRecord* r = ledger_.Find(id);
    if (observer_ != nullptr) observer_->OnTransitRequeued(*r);
    r->state = MessageRecord::State::kQueued;
    q.ids.push_front(id);
  }
  state.held.clear();
  spdlog::debug("a simulator left holding {} transits; requeued", held.size());
  Schedule(state.queue);
}

void TransitDispatcher::OnAppDetached(Session& app) {
  for (Queue& q : queues_) {
    auto& paused = q.paused_senders;
    paused.erase(std::remove(paused.begin(), paused.end(), app.client()), paused.end());
  }
}

void TransitDispatcher::OnWritable(Session& sim) {
  if (sim.ready()) Schedule(StateOf(sim.client()).queue);
}

void TransitDispatcher::PauseOutcomes(bool paused) {
  if (paused == outcomes_paused_) return;
  outcomes_paused_ = paused;
  for (Queue& q : queues_) {
    for (Session* sim : q.sims) {
      if (sim->send() == nullptr) continue;
      if (paused) {
        sim->send()->PauseReading();
      } else {
        sim->send()->ResumeReading();
      }
    }
  }
}

void TransitDispatcher::WriteBatch(Queue& q, Session& sim, std::uint32_t max_count) {
  // Clearing the batch, not the frame, keeps its Transits and their strings
  // for the next batch: no allocation per transit once warm.
  wire::TransitBatch* batch = frame_.mutable_transits();
  batch->Clear();
  SimState& state = StateOf(sim.client());
  const std::uint64_t now = wire::MonotonicNanos();
  std::uint64_t bytes = 0;
  while (!q.ids.empty() && static_cast<std::uint32_t>(batch->transits_size()) < max_count) {
    MessageRecord* r = ledger_.Find(q.ids.front());
    if (r == nullptr) {
      q.ids.pop_front();
      continue;
    }
    const std::string& src = apps_.at(r->src).id;
    const std::string& dst = apps_.at(r->dst).id;
    const std::uint64_t cost =
        kTransitOverheadBytes + src.size() + dst.size() + r->collectives.size();
    if (batch->transits_size() > 0 && bytes + cost > sim.max_frame_bytes()) break;
    bytes += cost;
    q.ids.pop_front();
    wire::Transit* t = batch->add_transits();
    t->set_id(r->id);
    t->set_src(src);
    t->set_dst(dst);
    t->set_size(r->transit_size());
    t->set_tclass(r->tclass);
    t->set_t_send(r->t_send);
    r->state = MessageRecord::State::kHeld;
    r->holder = sim.client();
    r->handed = now;
    state.held.insert(r->id);
    if (observer_ != nullptr) observer_->OnTransitWritten(sim.client(), *r);
    if (!r->collectives.empty()) *t->mutable_collectives() = std::move(r->collectives);
  }
  sim.recv()->Write(frame_);
  MaybeResumeSenders(q);
}

void TransitDispatcher::PumpQueue(Queue& q) {
  // PULL simulators waiting in a Fetch are answered first.
  for (Session* sim : q.sims) {
    while (!q.ids.empty() && !sim->is_push() && sim->polls().waiting()) {
      WriteBatch(q, *sim, sim->polls().Take());
    }
    if (q.ids.empty()) return;
  }
  // PUSH simulators share the rest, a batch each in turn.
  std::size_t idle_turns = 0;
  while (!q.ids.empty() && !q.sims.empty() && idle_turns < q.sims.size()) {
    Session* sim = q.sims[q.next_sim++ % q.sims.size()];
    if (!sim->is_push() || !sim->ready() || sim->recv()->above_high_watermark()) {
      idle_turns++;
      continue;
    }
    idle_turns = 0;
    WriteBatch(q, *sim, config_.max_batch);
  }
}

void TransitDispatcher::OnFetch(Session& sim, const wire::Fetch& fetch) {
  if (sim.is_push()) {
    sim.recv()->SendError(wire::BAD_REQUEST, "Fetch needs PULL mode; this session is PUSH");
    return;
  }
  if (!sim.polls().room()) {
    sim.recv()->SendError(wire::BAD_REQUEST,
                          absl::StrCat(wire::kMaxWaitingPolls,
                                       " Fetch requests are already waiting on this session "
                                       "(the most allowed)"));
    return;
  }
  const std::uint32_t max = fetch.max_count() == 0
                                ? config_.max_batch
                                : std::min(fetch.max_count(), config_.max_batch);
  Queue& q = QueueAt(StateOf(sim.client()).queue);
  if (!q.ids.empty()) {
    WriteBatch(q, sim, max);
  } else if (fetch.timeout_ms() == 0) {
    OnPollsExpired(sim, 1);
  } else {
    sim.polls().Park(max, fetch.timeout_ms(), this);
  }
}

void TransitDispatcher::OnPollsExpired(Session& sim, std::uint32_t count) {
  if (!sim.ready()) return;
  wire::Frame empty;
  empty.mutable_transits();
  for (std::uint32_t i = 0; i < count; ++i) sim.recv()->Write(empty);
}

MessageRecord* TransitDispatcher::Release(Session& sim, std::uint64_t id) {
  SimState& state = StateOf(sim.client());
  if (state.held.erase(id) == 0) return nullptr;
  return ledger_.Find(id);
}

void TransitDispatcher::TakeQueued(std::uint32_t queue, std::size_t max,
                                   std::vector<std::uint64_t>* ids) {
  if (queue >= queues_.size()) return;
  Queue& q = queues_[queue];
  for (std::size_t n = 0; n < max && !q.ids.empty(); ++n) {
    ids->push_back(q.ids.front());
    q.ids.pop_front();
  }
  MaybeResumeSenders(q);
}

std::size_t TransitDispatcher::queued(std::uint32_t queue) const {
  return queue < queues_.size() ? queues_[queue].ids.size() : 0;
}

std::size_t TransitDispatcher::held_by(std::uint32_t sim) const {
  return sim < sims_.size() ? sims_[sim].held.size() : 0;
}

std::uint32_t TransitDispatcher::queue_of(std::uint32_t sim) const {
  return sim < sims_.size() ? sims_[sim].queue : 0;
}

}  // namespace trestle::daemon
