// MessageTable: the metadata of every message the daemon is responsible
// for, by id, from the Send that opened it until its terminal state (or the
// drop report that follows one). The payload bytes live in the PayloadStore.
#pragma once

#include <cstdint>
#include <string>

#include "absl/container/flat_hash_map.h"

namespace trestle::daemon {

struct MessageRecord {
  enum class State : std::uint8_t {
    kStoring,           // Send read; the store has not confirmed the payload yet
    kQueued,            // in a TransitQueue, waiting for a simulator
    kHeld,              // handed to a simulator, outcome pending
    kAwaitingDelivery,  // DELIVERED outcome posted; in the destination's queue
    kDropReport,        // DROPPED; a drop report waits in the sender's queue
    kForwarding,        // federation: being handed on to a peer daemon (docs/federation.md)
  };

  std::uint64_t id = 0;
  std::uint32_t src = 0;     // app client index (ClientRegistry)
  std::uint32_t dst = 0;     // app client index
  std::uint32_t queue = 0;   // TransitQueue index
  std::uint32_t holder = 0;  // kHeld: the simulator's client index
  std::uint32_t tclass = 0;
  std::uint64_t size = 0;        // payload bytes
  std::uint64_t model_size = 0;  // with has_model_size: Send.model_size
  std::uint64_t t_send = 0;
  std::uint64_t t_deliver = 0;
  std::uint64_t app_sent = 0;
  std::uint64_t accepted = 0;    // daemon clock: the Send was read
  std::uint64_t handed = 0;      // daemon clock: the transit was written
  std::uint64_t posted = 0;      // the simulator's stamp
  std::uint64_t outcome_at = 0;  // daemon clock: the outcome was read
  std::uint64_t ready_ms = 0;    // loop time it entered a delivery queue
  std::uint64_t delivery_seq = 0;  // its number among its app's deliveries; 0 = not written yet
  std::uint32_t grant_epoch = 0;   // lockstep: Grants sent to its simulator before it was written
  // Federation: the Redis stream entry that makes it durable (id ms-seq;
  // 0-0: none yet): the entry of this daemon's stream that brought it from a
  // peer, or with `journaled` its entry in this daemon's journal. The entry
  // goes once the message is finished here.
  std::uint64_t entry_ms = 0;
  std::uint64_t entry_seq = 0;
  // Written to an app that acknowledges deliveries, not yet acknowledged:
  // the payload is kept here, to be written again if the app reconnects.
  std::string payload;
  // Send.collectives (opaque here), handed to the simulator with the transit.
  std::string collectives;
  State state = State::kStoring;
  bool notify_drop = false;
  bool lost_in_store = false;  // kDropReport: the store lost it (else the network dropped it)
  bool unacked = false;        // written, waiting for the app's Ack
  // Payloads by key: the sender wrote the payload to the store itself
  // (Send.by_key), and the daemon does not hold it: an app that takes
  // payloads by key gets only the key.
  bool by_key = false;
  // Taken for delivery from a store that keeps its copy until the message
  // is finished (PayloadStore::TakeResult::kKept): the store is erased at
  // the end, and nothing is put back if the app goes.
  bool payload_kept = false;
  // The Send set model_size: the network model is told model_size, not size.
  bool has_model_size = false;
  // Federation: in this daemon's journal (entry 0-0: the append's reply has
  // not come yet). See MessageJournal.
  bool journaled = false;
  // Federation: taken up again after a restart (a replayed stream entry, or
  // the journal), so it may have been carried out before the restart.
  bool replayed = false;
  // Federation: the number of the hand-on whose append is in flight; 0: none.
  std::uint64_t hand_on_serial = 0;

  // The size a simulator is told (Transit.size).
  std::uint64_t transit_size() const { return has_model_size ? model_size : size; }
  bool has_entry() const { return entry_ms != 0 || entry_seq != 0; }
  bool durable() const { return journaled || has_entry(); }
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
  // After a burst: gives back the table's room beyond what it holds, when it
  // holds less than a quarter of it. Returns whether it did.
  bool Compact() {
    if (records_.capacity() < 4 * records_.size() + 4096) return false;
    records_.rehash(0);
    return true;
  }

 private:
  absl::flat_hash_map<std::uint64_t, MessageRecord> records_;
};

}  // namespace trestle::daemon
