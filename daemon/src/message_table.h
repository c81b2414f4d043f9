// MessageTable: the metadata of every accepted, not yet terminal payload,
// by daemon id. The payload bytes live in the PayloadStore.
#pragma once

#include <cstdint>

#include "absl/container/flat_hash_map.h"

namespace trestle::daemon {

class Session;

struct MessageRecord {
  enum class State : std::uint8_t {
    kQueued,          // in a TransitQueue, waiting for a simulator
    kHeld,            // handed to a simulator, outcome pending
    kAwaitingDelivery,  // DELIVERED outcome posted; in the dst's delivery queue
    kDropReport,      // DROPPED; a drop report waits in the sender's queue
  };

  std::uint64_t id = 0;
  std::uint32_t src = 0;    // app client index (ClientRegistry)
  std::uint32_t dst = 0;    // app client index
  std::uint32_t queue = 0;  // TransitQueue index
  std::uint32_t tclass = 0;
  std::uint64_t size = 0;
  std::uint64_t t_send = 0;
  std::uint64_t t_deliver = 0;
  std::uint64_t app_sent = 0;
  std::uint64_t accepted = 0;
  std::uint64_t handed = 0;
  std::uint64_t posted = 0;      // the simulator's stamp
  std::uint64_t outcome_at = 0;  // daemon clock when the outcome was read
  std::uint64_t ready_ms = 0;  // loop time it entered a delivery queue
  Session* holder = nullptr;   // kHeld: the simulator session holding it
  State state = State::kQueued;
  bool notify_drop = false;
};

class MessageTable {
 public:
  // Returns the new record; `id` must not be present. Records live inline in
  // a flat table: a pointer or reference stays valid until the next Insert
  // or until that record is erased, and must not be held longer.
  MessageRecord& Insert(std::uint64_t id) {
    MessageRecord& r = records_[id];
    r.id = id;
    return r;
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
