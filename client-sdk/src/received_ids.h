// internal::ReceivedIds: the message ids of an app's last `capacity`
// deliveries, so that a message delivered again is told from a new one even
// when the delivery_seq check cannot tell (docs/protocol.md, "Delivery
// acknowledgements"): a federated daemon killed and restarted replays what
// it had accepted to a NEW session, whose numbering starts over. AppClient
// keeps one only for a daemon that says it may (Welcome.
// redelivers_across_sessions).
//
// Under one numbering delivery_seq tells a delivery written again, so the
// ids are only written down as they come (a ring, oldest overwritten first:
// 8 bytes an id, no hashing). When a new numbering starts, the ids then in
// the ring go into a hash set, and each delivery of the new numbering is
// looked up there: one lookup per delivery, and only after a numbering has
// changed. The set may hold ids the ring has since overwritten; that is
// safe, as message ids are never reused. Capacity 0 remembers nothing
// (Insert is always true).
//
// Not thread-safe; the owning client's loop thread only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_set.h"

namespace trestle::internal {

class ReceivedIds {
 public:
  explicit ReceivedIds(std::size_t capacity) : capacity_(capacity) {}

  // Deliveries are numbered anew from here on (a new session that does not
  // continue the last one's numbering): the ids remembered so far are what
  // later deliveries are checked against.
  void StartNumbering();
  // `id` was delivered under the current numbering. False (and nothing
  // changes) if it was among the last `capacity` deliveries before this
  // numbering started; otherwise it is remembered (forgetting the oldest
  // once `capacity` are) and the answer is true.
  bool Insert(std::uint64_t id);
  // Whether `id` is among the last `capacity` remembered (a scan: tests).
  bool Contains(std::uint64_t id) const;
  std::size_t size() const { return ring_.size(); }
  std::size_t capacity() const { return capacity_; }

 private:
  const std::size_t capacity_;
  std::vector<std::uint64_t> ring_;  // up to capacity_ ids; ring_[next_] is the oldest once full
  std::size_t next_ = 0;
  absl::flat_hash_set<std::uint64_t> earlier_;  // the ring's ids when the numbering started
};

}  // namespace trestle::internal
