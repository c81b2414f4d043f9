// DeliveryDispatcher: deliveries towards apps. Each app has its own queue of
// messages ready for it (payloads delivered by the simulator, and drop
// reports), written as batches as soon as they exist (PUSH) or in answer to
// Receive long-polls (PULL). Payloads are taken from the store one batch at
// a time per app, and a batch is bounded by count and by the app's frame
// limit.
//
// An app that acknowledges deliveries (Hello.delivery_acks) has each one
// counted as delivered only at its Ack. Until then the daemon keeps the
// payload in the message's record; if the app loses its channels first, the
// unacknowledged deliveries go back to the front of its queue (payloads back
// to the store), to be written again, with the same delivery_seq, to its
// next session.
//
// A slow app does not stall anyone else. Each connected app is bounded on
// its own (delivery_queue_limit messages, delivery_queue_bytes bytes, ready
// and unacknowledged together); an
// app that stays over either bound for longer than slow_app_grace_ms has its
// session closed with an Error naming its backlog and the limit (the idea of
// Redis's client-output-buffer-limit). Its deliveries stay for its resume,
// or expire after delivery_ttl_ms and are counted as expired. Only the
// global DeliveryBudget may pause simulators.
//
// Payloads by key (docs/protocol.md): a message whose sender wrote its
// payload to the store (MessageRecord::by_key) reaches an app that takes
// payloads by key as its key alone: nothing is read from the store, and the
// key is unlinked once the app has acknowledged it (after its GETDEL, that
// finds nothing). Any other app gets the payload read from the store and
// written inline, like every other message.
//
// A payload the store no longer has is counted lost_in_store; its sender
// gets a drop report if it asked for them. When the store cannot be reached
// the batch goes back to the front of the queue, to be tried again once the
// store is available.
//
// Loop thread only. Everything passed to the constructor must outlive it.
#pragma once

#include <uv.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dispatch/delivery_batch_writer.h"
#include "dispatch/delivery_budget.h"
#include "dispatch/id_ring.h"
#include "messages/client_registry.h"
#include "messages/message_ledger.h"
#include "session/long_polls.h"
#include "session/session_closer.h"
#include "trestle.pb.h"
#include "trestle/daemon/daemon_config.h"
#include "trestle/daemon/payload_store.h"

namespace trestle::daemon {

class Session;

// Told of each delivery or drop report written to app `app`, once its
// delivery_seq is set (the TimeCoordinator, in lockstep time).
class DeliveryObserver {
 public:
  virtual void OnDeliveryWritten(std::uint32_t app, const MessageRecord& r) = 0;

 protected:
  ~DeliveryObserver() = default;
};

// Takes the drop report of a payload lost in the store whose sender is not
// here (the FederationRouter of a federated daemon).
class DropReportRoute {
 public:
  // True if it took `r` (counted lost_in_store already).
  virtual bool TakeDropReport(MessageRecord& r) = 0;

 protected:
  ~DropReportRoute() = default;
};

class DeliveryDispatcher final : public LongPolls::TimeoutHandler {
 public:
  DeliveryDispatcher(uv_loop_t* loop, const DaemonConfig& config, MessageLedger& ledger,
                     ClientRegistry& apps, PayloadStore& store, DeliveryBudget& budget,
                     SessionCloser& closer);

  // A DELIVERED outcome: `r` waits for its destination app (ready at `now_ms`).
  void EnqueueDelivery(MessageRecord& r, std::uint64_t now_ms);
  // A DROPPED outcome of a sender that asked for drop reports.
  void EnqueueDropReport(MessageRecord& r, std::uint64_t now_ms);

  // At most one; null: none.
  void SetObserver(DeliveryObserver* observer) { observer_ = observer; }
  // Null: every report of a payload lost here waits here for its sender.
  void SetDropReportRoute(DropReportRoute* route) { drop_route_ = route; }

  void OnAppReady(Session& app);
  void OnAppDetached(Session& app);
  void OnWritable(Session& app);
  void OnReceive(Session& app, const wire::Receive& receive);
  // The app has every delivery up to ack.delivery_seq: they are delivered.
  void OnAck(Session& app, const wire::Ack& ack);

  // Writes what became ready since the last call (once per loop pass).
  void Pump();
  bool pump_pending() const { return !dirty_.empty(); }
  // Periodic work at loop time `now_ms`: deliveries for absent apps expire
  // after delivery_ttl_ms; apps over their backlog bounds past the grace
  // period are closed; queues stalled by a store outage are retried.
  void Housekeeping(std::uint64_t now_ms);

  // App index `app` was freed (no message names it, so its queues are
  // empty): it may be reused by another client, which starts afresh, and
  // the queue's memory goes back. It may run while its queue is being
  // worked on, so callers never touch a queue after erasing a record.
  void Forget(std::uint32_t app) {
    if (app < queues_.size()) queues_[app] = AppQueue();
  }
  // App indices from `apps` on are gone (their registry slots were given back).
  // One may still be scheduled from earlier in this loop pass (it became
  // ready, then left): the pump must not look for its queue.
  void Shrink(std::size_t apps) {
    std::erase_if(dirty_, [apps](std::uint32_t app) { return app >= apps; });
    if (queues_.size() > apps) queues_.resize(apps);
    queues_.shrink_to_fit();
  }
  // The last delivery_seq given to app `app`'s deliveries (0: none yet).
  std::uint64_t last_delivery_seq(std::uint32_t app) const {
    return app < queues_.size() ? queues_[app].next_seq : 0;
  }
  // For reports: deliveries waiting for app `app` (ready or unacknowledged),
  // and their payload bytes.
  std::size_t queued(std::uint32_t app) const;
  // Of those, the ones written and not yet acknowledged.
  std::size_t unacked(std::uint32_t app) const {
    return app < queues_.size() ? queues_[app].unacked.size() : 0;
  }
  std::uint64_t queued_bytes(std::uint32_t app) const;

 private:
  struct AppQueue {
    IdRing ids;                     // ready to be written, oldest first
    IdRing unacked;                 // written, awaiting the app's Ack (in delivery_seq order)
    std::uint64_t bytes = 0;        // payload bytes of ids and unacked
    std::uint64_t next_seq = 0;     // the last delivery_seq given out
    std::uint64_t over_since_ms = 0;  // connected and over a bound since; 0 = within
    bool scheduled = false;
    bool taking = false;            // a store TakeBatch is outstanding
    bool store_stalled = false;     // the last take found the store unreachable
    std::uint32_t detaches = 0;     // times the app lost its channels
  };
  // A TakeBatch in progress: which app, and which ids in which order.
  struct PendingTake {
    std::uint32_t app = 0;
    std::vector<std::uint64_t> ids;
    bool answers_poll = false;  // PULL: a Receive was taken for it
    bool by_key = false;        // the app takes payloads by key (none read for those)
    std::uint32_t detaches = 0;  // AppQueue::detaches at its start: other channels, no answer
  };
  // Whether a batch for an app that does (`by_key_app`) or does not take
  // payloads by key reads the payload of `r` from the store.
  static bool ReadsPayload(const MessageRecord& r, bool by_key_app) {
    return r.state == MessageRecord::State::kAwaitingDelivery && !(r.by_key && by_key_app);
  }

  void OnPollsExpired(Session& app, std::uint32_t count) override;
  // Answers one Receive of `app` with an empty batch.
  void AnswerEmpty(std::uint32_t app);
  AppQueue& QueueOf(std::uint32_t app);
  void Push(std::uint32_t app, MessageRecord& r, std::uint64_t bytes);
  void Schedule(std::uint32_t app);
  void PumpApp(std::uint32_t app);
  // `answers_poll`: the batch answers a Receive (PULL); if it ends up with
  // nothing to write, the Receive is answered empty rather than lost.
  void StartBatch(std::uint32_t app, Session& s, std::uint32_t max_count, bool answers_poll);
  void CompleteBatch(std::uint32_t slot, const absl::Status& status,
                     std::span<std::string> payloads,
                     std::span<const PayloadStore::TakeResult> results);
  // Puts a batch back at the front of its queue, in order.
  void Requeue(PendingTake& take);
  // `payloads` holds, in order, the payloads of the batch's DELIVERED messages.
  void WriteBatch(Session& s, PendingTake& take, std::span<std::string> payloads);
  void LoseInStore(MessageRecord& r);
  // The message is delivered for good (written, and acknowledged if the app
  // acknowledges): counted, and forgotten.
  void Finish(AppQueue& q, MessageRecord& r);
  void ExpireAbsent(AppQueue& q, std::uint64_t now_ms);
  void EnforceBacklogLimit(std::uint32_t app, AppQueue& q, Session& s, std::uint64_t now_ms);
  std::uint64_t PayloadBytes(const MessageRecord& r) const;

  uv_loop_t* loop_;
  const DaemonConfig& config_;
  MessageLedger& ledger_;
  ClientRegistry& apps_;
  PayloadStore& store_;
  DeliveryBudget& budget_;
  SessionCloser& closer_;
  std::vector<AppQueue> queues_;  // by app client index
  std::vector<std::uint32_t> dirty_;
  std::vector<std::uint32_t> pumping_;
  std::vector<PendingTake> takes_;
  std::vector<std::uint32_t> free_takes_;
  std::vector<std::uint64_t> payload_ids_;  // scratch: the ids a take asks the store for
  DeliveryBatchWriter writer_;
  DeliveryObserver* observer_ = nullptr;
  DropReportRoute* drop_route_ = nullptr;
};

}  // namespace trestle::daemon
