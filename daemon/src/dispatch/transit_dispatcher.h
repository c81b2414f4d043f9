// TransitDispatcher: transits towards simulators. It keeps one queue per
// simulator assignment (see SimulatorAssignment), hands transits to the
// simulators serving a queue (PUSH: batches in turn; PULL: answers to Fetch
// long-polls), remembers which simulator holds which transit until its
// outcome, and gives a departing simulator's transits back to its queue.
//
// Batches are bounded by count (max_batch, or the Fetch's max_count) and by
// bytes (the receiving session's frame limit). Backpressure, never loss: a
// queue holding transit_queue_limit transits pauses reading from each app
// that adds more, until it is half empty.
//
// Loop thread only. The ledger, registries and assignment must outlive it.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "dispatch/id_ring.h"
#include "dispatch/simulator_assignment.h"
#include "messages/client_registry.h"
#include "messages/message_ledger.h"
#include "session/long_polls.h"
#include "trestle.pb.h"
#include "trestle/daemon/daemon_config.h"

namespace trestle::daemon {

class Session;

// Told of each transit written to a simulator, and of each given back to its
// queue by a departing one (the TimeCoordinator, in lockstep time).
class TransitObserver {
 public:
  virtual void OnTransitWritten(std::uint32_t sim, MessageRecord& r) = 0;
  virtual void OnTransitRequeued(MessageRecord& r) = 0;

 protected:
  ~TransitObserver() = default;
};

class TransitDispatcher final : public LongPolls::TimeoutHandler {
 public:
  TransitDispatcher(const DaemonConfig& config, MessageLedger& ledger, ClientRegistry& apps,
                    SimulatorAssignment& assignment);

  // `r` is accepted and goes to its queue (r.queue), behind what waits there.
  void Enqueue(MessageRecord& r);
  // After `sender` added to `queue`: pauses its send channel if the queue
  // is full.
  void ThrottleSender(Session& sender, std::uint32_t queue);

  // `sim` is ready and serves `queue` (SimulatorAssignment::QueueForSimulator).
  void OnSimReady(Session& sim, std::uint32_t queue);
  // The simulator lost its channels: its held transits go back to the front
  // of its queue, oldest first, for the next simulator.
  void OnSimDetached(Session& sim);
  void OnAppDetached(Session& app);
  void OnWritable(Session& sim);
  void OnFetch(Session& sim, const wire::Fetch& fetch);
  // An outcome from `sim` for message `id`: the record, no longer held, or
  // null when `sim` does not hold `id`.
  MessageRecord* Release(Session& sim, std::uint64_t id);
  // Simulator index `sim` was freed (it may be reused by another client).
  void ForgetSimulator(std::uint32_t sim) {
    if (sim < sims_.size()) sims_[sim] = SimState();
  }
  // Simulator indices from `sims` on are gone (their registry slots were given back).
  void ShrinkSimulators(std::size_t sims) {
    if (sims_.size() > sims) sims_.resize(sims);
    sims_.shrink_to_fit();
  }
  // At most one; null: none.
  void SetObserver(TransitObserver* observer) { observer_ = observer; }

  // The global delivery budget: stop or resume reading outcomes from every
  // simulator (and from those that join while paused).
  void PauseOutcomes(bool paused);

  // Writes what became ready since the last call (once per loop pass).
  void Pump();
  bool pump_pending() const { return !dirty_.empty(); }

  // Whether a ready simulator of this daemon serves `queue`.
  bool served(std::uint32_t queue) const {
    return queue < queues_.size() && !queues_[queue].sims.empty();
  }
  // Federation: removes up to `max` transits waiting in `queue`, oldest
  // first, appending their ids to *ids, for a simulator attached to another
  // daemon; paused senders resume as the queue empties.
  void TakeQueued(std::uint32_t queue, std::size_t max, std::vector<std::uint64_t>* ids);

  // For reports.
  std::size_t queued(std::uint32_t queue) const;
  std::size_t held_by(std::uint32_t sim) const;
  std::uint32_t queue_of(std::uint32_t sim) const;

 private:
  struct Queue {
    IdRing ids;                               // oldest first
    std::vector<Session*> sims;               // ready simulators serving it
    std::vector<std::uint32_t> paused_senders;  // app client indices
    std::size_t next_sim = 0;                 // round robin among PUSH sims
    bool scheduled = false;
  };
  struct SimState {
    std::uint32_t queue = 0;
    absl::flat_hash_set<std::uint64_t> held;
  };

  void OnPollsExpired(Session& sim, std::uint32_t count) override;
  Queue& QueueAt(std::uint32_t index);
  SimState& StateOf(std::uint32_t sim);
  void Schedule(std::uint32_t queue);
  void PumpQueue(Queue& q);
  void WriteBatch(Queue& q, Session& sim, std::uint32_t max_count);
  void MaybeResumeSenders(Queue& q);

  const DaemonConfig& config_;
  MessageLedger& ledger_;
  ClientRegistry& apps_;
  SimulatorAssignment& assignment_;
  std::vector<Queue> queues_;
  std::vector<SimState> sims_;  // by sim client index
  std::vector<std::uint32_t> dirty_;
  std::vector<std::uint32_t> pumping_;  // Pump's working list (keeps capacity)
  wire::Frame frame_;                   // reused for every TransitBatch
  bool outcomes_paused_ = false;
  TransitObserver* observer_ = nullptr;
};

}  // namespace trestle::daemon
