// MessageLedger: the message table and the accounting identity, in one
// place. Every change of a message's terminal state goes through it, so
//
//   accepted + from_peers + recovered = delivered + dropped + expired +
//                                       lost_in_store + forwarded + in_flight
//
// (from_peers, recovered and forwarded move only in a federated bridge)
// holds per sending app and in total at every moment (the ledger unit tests
// check it after every step). A Send is opened first (its record exists while
// the store takes the payload) and counted as accepted only once the store
// has it; a send refused before that is counted as rejected instead.
//
// With a MessageTrace, every terminal transition also writes its trace line.
//
// Loop thread only.
#pragma once

#include <cstdint>
#include <string_view>

#include "messages/client_registry.h"
#include "messages/message_counters.h"
#include "messages/message_table.h"
#include "messages/message_trace.h"
#include "messages/stage_latencies.h"

namespace trestle::daemon {

// Told of each durable message (MessageRecord::durable(): it came from a
// peer daemon's entry, or is in this daemon's journal) once it is finished
// here (terminal, or forwarded on), so that its entry goes.
class DurableMessageObserver {
 public:
  virtual void OnDurableDone(const MessageRecord& r) = 0;

 protected:
  ~DurableMessageObserver() = default;
};

class MessageLedger {
 public:
  // `apps` holds the senders' counters and must outlive the ledger.
  explicit MessageLedger(ClientRegistry& apps) : apps_(apps) {}

  // A new record in state kStoring for a Send from app `src` to app `dst`;
  // null when the id is in use (ids are unique per daemon; see
  // docs/protocol.md). The record holds both registry entries until Erase.
  MessageRecord* Open(std::uint64_t id, std::uint32_t src, std::uint32_t dst);
  MessageRecord* Find(std::uint64_t id) { return messages_.Find(id); }
  // Forgets the record (if any) and lets go of its registry entries.
  void Erase(std::uint64_t id);
  std::size_t size() const { return messages_.size(); }
  bool Compact() { return messages_.Compact(); }

  // The store holds the payload of `r`: accepted and in flight.
  void Accept(MessageRecord& r);
  // `r` was taken over from a peer daemon (r.entry_* set): in flight here.
  void FromPeer(MessageRecord& r);
  // `r` was accepted by this daemon before a restart and taken up again from
  // its journal (r.entry_* set, r.journaled): in flight here.
  void Recovered(MessageRecord& r);
  // A Send of app `src` was refused: counted as rejected, never accepted.
  // The caller erases the send's record if it had opened one. `src` must be
  // in the registry (its session, or the record, holds it).
  void Reject(std::uint32_t src);

  // `r` was written to its app at daemon clock `now_ns`: its stage
  // latencies are recorded (it counts as delivered at Delivered).
  void Written(const MessageRecord& r, std::uint64_t now_ns) { latencies_.Record(r, now_ns); }
  // Terminal transitions of accepted messages; the record stays (the caller
  // erases it, or keeps it for a drop report).
  void Delivered(MessageRecord& r);
  void Dropped(MessageRecord& r);
  void Expired(MessageRecord& r);
  void LostInStore(MessageRecord& r);
  // Handed on to a peer daemon, which now answers for it.
  void Forwarded(MessageRecord& r);

  // The trace to write (null: none); it must outlive the ledger's use of it.
  void SetTrace(MessageTrace* trace) { trace_ = trace; }
  // At most one; null: none.
  void SetDurableObserver(DurableMessageObserver* observer) { durable_ = observer; }

  const MessageCounters& totals() const { return totals_; }
  const StageLatencies& latencies() const { return latencies_; }

 private:
  // Counts one more message of `r`'s sender in flight, come in as `which`
  // (accepted, from_peers or recovered).
  void Begin(const MessageRecord& r, std::uint64_t MessageCounters::*which);
  // Moves one in-flight message of `r`'s sender to the terminal counter
  // `which` (a member of MessageCounters).
  void Finish(const MessageRecord& r, std::uint64_t MessageCounters::*which,
              std::string_view outcome);

  ClientRegistry& apps_;
  MessageTable messages_;
  MessageCounters totals_;
  StageLatencies latencies_;
  MessageTrace* trace_ = nullptr;
  DurableMessageObserver* durable_ = nullptr;
};

}  // namespace trestle::daemon
