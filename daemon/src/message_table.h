// MessageTable: the metadata of every message the daemon is responsible
// for, by id, from the Send that opened it until its terminal state (or the
// drop report that follows one). The payload bytes live in the PayloadStore.
#pragma once

#include <cstdint>

#include "absl/container/flat_hash_map.h"

namespace trestle::daemon {

struct MessageRecord {
  enum class State : std::uint8_t {
    kStoring,           // Send read; the store has not confirmed the payload yet
    kQueued,            // in a TransitQueue, waiting for a simulator
    kHeld,              // handed to a simulator, outcome pending
    kAwaitingDelivery,  // DELIVERED outcome posted; in the destination's queue
    kDropReport,        // DROPPED; a drop report waits in the sender's queue
  };

  std::uint64_t id = 0;
  std::uint32_t src = 0;     // app client index (ClientRegistry)
  std::uint32_t dst = 0;     // app client index
  std::uint32_t queue = 0;   // TransitQueue index
  std::uint32_t holder = 0;  // kHeld: the simulator's client index
  std::uint32_t tclass = 0;
  std::uint64_t size = 0;
  std::uint64_t t_send = 0;
  std::uint64_t t_deliver = 0;
  std::uint64_t app_sent = 0;
  std::uint64_t accepted = 0;    // daemon clock: the Send was read
  std::uint64_t handed = 0;      // daemon clock: the transit was written
  std::uint64_t posted = 0;      // the simulator's stamp
  std::uint64_t outcome_at = 0;  // daemon clock: the outcome was read
  std::uint64_t ready_ms = 0;    // loop time it entered a delivery queue
  State state = State::kStoring;
  bool notify_drop = false;
  bool lost_in_store = false;  // kDropReport: the store lost it (else the network dropped it)
};

class MessageTable {
 public:
  // Returns the new record, or null when `id` is present already. Records
  // live inline in a flat table: a pointer or reference stays valid until
  // the next Insert or until that record is erased, and must not be held
  // longer.
  MessageRecord* Insert(std::uint64_t id) {
    auto [it, inserted] = records_.try_emplace(id);
    if (!inserted) return nullptr;
    it->second.id = id;
    return &it->second;
  }
  MessageRecord* Find(std::uint64_t id) {
    auto it = records_.find(id);
    return it == records_.end() ? nullptr : &it->second;
  }
  void Erase(std::uint64_t id) { records_.erase(id); }
  std::size_t size() const { return records_.size(); }

 private:
  absl::flat_hash_map<std::uint64_t, MessageRecord> records_;
};

}  // namespace trestle::daemon
