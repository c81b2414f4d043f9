// internal::ReceivedIds: the message ids of an app's last `capacity`
// deliveries, so that a message delivered again is told from a new one even
// when the delivery_seq check cannot tell (docs/protocol.md, "Delivery
// acknowledgements"): a federated daemon killed and restarted replays what
// it had accepted to a NEW session, whose numbering starts over. AppClient
// keeps one only for a daemon that says it may (Welcome.
// redelivers_across_sessions).
//
// A fixed-capacity ring of ids (oldest overwritten first) and a hash set of
// the same ids. Both grow with use up to `capacity`, so an app that receives
// little costs little (about 26 bytes per id remembered once full); after
// that nothing is allocated per id. Capacity 0 remembers nothing (Insert is
// always true).
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

  // Records `id` as delivered and returns true, forgetting the oldest id
  // once `capacity` are remembered; false (and nothing changes) if `id` is
  // among those remembered.
  bool Insert(std::uint64_t id);
  bool Contains(std::uint64_t id) const { return ids_.contains(id); }
  std::size_t size() const { return ids_.size(); }
  std::size_t capacity() const { return capacity_; }

 private:
  const std::size_t capacity_;
  std::vector<std::uint64_t> ring_;  // up to capacity_ ids; ring_[next_] is the oldest once full
  std::size_t next_ = 0;
  absl::flat_hash_set<std::uint64_t> ids_;
};

}  // namespace trestle::internal
