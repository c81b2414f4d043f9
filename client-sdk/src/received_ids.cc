#include "received_ids.h"

namespace trestle::internal {

bool ReceivedIds::Insert(std::uint64_t id) {
  if (capacity_ == 0) return true;
  if (ids_.contains(id)) return false;
  if (ring_.size() < capacity_) {
    ring_.push_back(id);
  } else {
    // Forget the oldest first, so that the set never holds more than
    // capacity_ ids (and its table, once grown, is reused in place).
    ids_.erase(ring_[next_]);
    ring_[next_] = id;
    next_ = next_ + 1 == capacity_ ? 0 : next_ + 1;
  }
  ids_.insert(id);
  return true;
}

}  // namespace trestle::internal
