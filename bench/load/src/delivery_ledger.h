// DeliveryLedger: every message the generator sent, and how many times each
// arrived, for the exactly-once check.
//
// A message is identified twice: by its ledger sequence number, which the
// generator writes into the first 8 bytes of the payload, and by the id the
// daemon assigned (what AppClient::Send returned). An arrival counts only if
// both agree; anything else is "unknown". Entries live in one vector that
// the caller reserves up front, so Add does not allocate in a run whose size
// was estimated well.
//
// Messages to stalled apps (`trestle bench --stalled-apps`) are expected
// never to arrive: they are counted apart, and lost() counts only the
// messages to apps that read.
#pragma once

#include <cstdint>
#include <vector>

namespace trestle::bench {

class DeliveryLedger {
 public:
  struct Entry {
    std::uint64_t id = 0;         // the daemon's message id
    std::uint32_t sender = 0;     // index of the sending client
    std::uint32_t receiver = 0;   // index of the destination client
    std::uint16_t arrivals = 0;   // deliveries seen (1 is right)
    bool measured = false;        // sent after the warm-up
    bool to_stalled = false;      // the receiver never reads
  };

  void Reserve(std::size_t messages) { entries_.reserve(messages); }
  void Clear();

  // The sequence number the next Add will use (write it into the payload).
  std::uint64_t next_seq() const { return entries_.size(); }
  // Records a sent message under next_seq().
  void Add(std::uint64_t id, std::uint32_t sender, std::uint32_t receiver, bool measured,
           bool to_stalled = false);

  // Records an arrival of message `seq` with daemon id `id` at client
  // `receiver`. Returns its entry if it is a first arrival; nullptr for a
  // duplicate, or for an unknown message (no such seq, another id, or the
  // wrong receiver); both are counted.
  const Entry* MarkArrived(std::uint64_t seq, std::uint64_t id, std::uint32_t receiver);
  // Counts an arrival whose payload carries no sequence number at all.
  void MarkUnknown() { ++unknown_; }

  std::uint64_t sent() const { return entries_.size(); }
  // Distinct messages that arrived at least once.
  std::uint64_t delivered() const { return delivered_; }
  // Sent and not arrived (so far), stalled receivers included.
  std::uint64_t undelivered() const { return sent() - delivered_; }
  // Sent to stalled apps.
  std::uint64_t sent_to_stalled() const { return sent_to_stalled_; }
  // Sent to apps that read, and not arrived (so far).
  std::uint64_t lost() const {
    return (sent() - sent_to_stalled_) - (delivered_ - delivered_to_stalled_);
  }
  // Arrivals beyond the first of a message.
  std::uint64_t duplicated() const { return duplicated_; }
  // Arrivals that match no sent message (or reached the wrong client).
  std::uint64_t unknown() const { return unknown_; }

 private:
  std::vector<Entry> entries_;
  std::uint64_t delivered_ = 0;
  std::uint64_t sent_to_stalled_ = 0;
  std::uint64_t delivered_to_stalled_ = 0;
  std::uint64_t duplicated_ = 0;
  std::uint64_t unknown_ = 0;
};

}  // namespace trestle::bench
