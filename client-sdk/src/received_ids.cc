#include "received_ids.h"

#include <algorithm>

namespace trestle::internal {

void ReceivedIds::StartNumbering() {
  earlier_.clear();
  earlier_.insert(ring_.begin(), ring_.end());
}

bool ReceivedIds::Insert(std::uint64_t id) {
  if (capacity_ == 0) return true;
  if (!earlier_.empty() && earlier_.contains(id)) return false;
  if (ring_.size() < capacity_) {
    ring_.push_back(id);
  } else {
    ring_[next_] = id;
    next_ = next_ + 1 == capacity_ ? 0 : next_ + 1;
  }
  return true;
}

bool ReceivedIds::Contains(std::uint64_t id) const {
  return std::find(ring_.begin(), ring_.end(), id) != ring_.end();
}

}  // namespace trestle::internal
