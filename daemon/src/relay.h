// Relay: the data plane of trestled. It accepts sends, queues transits for
// the simulator that owns them, takes outcomes back, and delivers payloads,
// in PUSH (written as soon as they exist, batched once per loop pass) or
// PULL (long-poll requests answered in batches). It keeps the accounting:
// accepted = delivered + dropped + expired + in_flight, per sender and total.
//
// Backpressure, never loss: a full transit queue pauses reading from the
// apps that feed it; a full delivery queue pauses reading outcomes from the
// simulator; a connection whose output is above its high watermark gets
// nothing more until it drains.
//
// Single-threaded: every method runs on the loop thread.
#pragma once

#include <uv.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "admin.pb.h"
#include "client_registry.h"
#include "latency_histogram.h"
#include "message_table.h"
#include "transit_queue.h"
#include "trestle.pb.h"
#include "trestle/daemon/daemon_config.h"
#include "trestle/daemon/payload_store.h"

namespace trestle::daemon {

class Connection;
class Session;

class Relay {
 public:
  Relay(uv_loop_t* loop, const DaemonConfig& config, PayloadStore& store,
        ClientRegistry& apps, ClientRegistry& sims);

  // Session lifecycle, from the SessionManager.
  void OnSessionReady(Session& s);
  // The session lost its channels (or said Bye): give back what it held.
  void OnSessionDetached(Session& s);

  // Frames, already checked for role and channel.
  void OnSend(Session& s, wire::Send& send);
  void OnOutcomes(Session& s, const wire::OutcomeBatch& batch);
  void OnFetch(Session& s, const wire::Fetch& fetch);
  void OnReceive(Session& s, const wire::Receive& receive);
  // A connection of `s` drained below its low watermark.
  void OnWritable(Session& s);

  // Writes what became ready during this loop pass (called before sleeping).
  void RunPumps();
  // Expires deliveries that waited longer than delivery_ttl_ms for an
  // absent app. `now_ms` is the loop's clock.
  void ExpireDeliveries(std::uint64_t now_ms);

  void FillStats(wire::StatsReply* reply);
  // For the admin service: per-client detail and per-stage latencies.
  void FillClients(admin::ListClientsReply* reply);
  void FillStageLatencies(admin::StatsReply* reply) const;
  const MessageCounters& totals() const { return totals_; }

  // Draining: new sends are refused (SHUTTING_DOWN); what is in flight goes on.
  void set_draining(bool draining) { draining_ = draining; }
  bool draining() const { return draining_; }
  std::size_t messages_in_table() const { return messages_.size(); }

 private:
  static void OnPollTimeout(uv_timer_t* timer);

  TransitQueue& QueueForSender(const ClientEntry& src);
  TransitQueue& QueueByKey(const std::string& key);
  void Reject(Session& s, std::uint64_t id, wire::ErrorCode code, const std::string& text);
  void OnPayloadStored(std::uint64_t id, const absl::Status& status);

  void ScheduleQueue(TransitQueue& q);
  void ScheduleClient(ClientEntry& e);
  void PumpQueue(TransitQueue& q);
  void PumpDeliveries(ClientEntry& e);
  void WriteTransitBatch(TransitQueue& q, Session& sim, std::uint32_t max_count);
  void WriteDeliveryBatch(ClientEntry& e, std::uint32_t max_count);
  void CompleteDeliveryBatch(std::uint32_t client, const std::vector<std::uint64_t>& ids,
                             const absl::Status& status, std::span<std::string> payloads);
  void WriteEmptyBatch(Session& s);
  void MaybeResumeSenders(TransitQueue& q);
  void MaybeResumeSims(const ClientEntry& e);

  // Terminal transitions; each keeps the accounting identity.
  void CountDelivered(MessageRecord& r);
  void CountDropped(MessageRecord& r);
  void CountExpired(MessageRecord& r);

  uv_loop_t* loop_;
  const DaemonConfig& config_;
  PayloadStore& store_;
  ClientRegistry& apps_;
  ClientRegistry& sims_;
  MessageTable messages_;
  MessageCounters totals_;
  std::vector<std::unique_ptr<TransitQueue>> queues_;
  absl::flat_hash_map<std::string, std::uint32_t> queue_by_key_;
  std::vector<std::uint32_t> dirty_queues_;
  std::vector<std::uint32_t> dirty_clients_;
  std::vector<std::uint32_t> pump_batch_;   // RunPumps' working list
  std::vector<std::uint32_t> paused_sims_;  // sim client indices
  std::vector<std::uint64_t> payload_ids_;  // scratch for TakeBatch
  wire::Frame transit_frame_;               // reused for every TransitBatch
  wire::Frame delivery_frame_;              // reused for DeliverBatches
  bool draining_ = false;
  // Per-stage latencies of delivered payloads (see admin.proto StatsReply).
  LatencyHistogram queue_latency_;
  LatencyHistogram simulator_latency_;
  LatencyHistogram delivery_latency_;
  LatencyHistogram resident_latency_;
};

}  // namespace trestle::daemon
