// PeerBatches: the messages a loop pass hands on, gathered per peer daemon
// so that each daemon's go as one stream entry (a batch, peer_message.h),
// and the members of every batch appended and not yet answered.
//
// Redis spends most of a cross-daemon message's time per stream entry (the
// XADD, the consumer group's pending list at XREADGROUP, the XACK), and
// hiredis allocates a reply object per entry field on both sides: one entry
// for a pass's messages costs each of them a fraction (docs/benchmarks.md).
//
// A member is a message id and its hand-on serial; what the entry says of
// it is read from the ledger when the batch is appended, so a member whose
// message is gone or handed on again meanwhile is left out then. Batches are
// answered in the order they were appended (one connection), except one
// answered inside its own Append (Redis away), which is the newest.
//
// Loop thread only.
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <vector>

namespace trestle::daemon {

class PeerBatches {
 public:
  struct Member {
    std::uint64_t message = 0;
    std::uint64_t serial = 0;  // the message's hand-on serial
    char kind = 0;             // t, d or r
  };
  // At most this many messages go in one entry; a fuller batch is appended
  // at once, and the next one starts.
  static constexpr std::size_t kMaxMembers = 128;

  // Adds `m` to `daemon`'s batch. True if the batch is full now (Take it).
  bool Add(std::uint32_t daemon, const Member& m);
  // The daemons with a batch waiting, in the order their batches began.
  std::span<const std::uint32_t> waiting() const { return waiting_; }
  // Takes `daemon`'s batch for an Append (empty if it has none) and
  // numbers it; the members stay here, as sent, until Answered. The span is
  // valid until the next call (the Append may answer at once).
  std::span<const Member> Take(std::uint32_t daemon, std::uint64_t* number);
  // Batch `number` was answered: its members, moved out (empty if it is not
  // known; give the vector back with Recycle when done).
  std::vector<Member> Answered(std::uint64_t number);
  void Recycle(std::vector<Member>&& members);

  std::size_t in_flight() const { return sent_.size(); }

 private:
  struct Batch {
    std::uint32_t daemon = 0;
    std::uint64_t number = 0;
    std::vector<Member> members;
  };
  Batch* Open(std::uint32_t daemon);

  std::vector<Batch> open_;         // one per daemon in waiting_, same order
  std::vector<std::uint32_t> waiting_;
  std::deque<Batch> sent_;          // appended, oldest first
  std::vector<std::vector<Member>> spare_;  // member lists to reuse
  std::uint64_t last_number_ = 0;
};

}  // namespace trestle::daemon
