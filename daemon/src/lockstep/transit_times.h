// TransitTimes: the t_send of a set of transits whose outcomes are not yet
// covered by a simulator's Reached, kept apart by kind, for the
// TimeCoordinator's bound U: a message between two distinct apps delivers
// no earlier than t_send + L (the simulators' lookahead), one an app sends
// to itself no earlier than t_send + Ls (their self lookahead).
//
// A multiset per kind (a B-tree: a node holds many times, so a transit
// costs no allocation of its own): inserts and erases are O(log n), the
// earliest O(1). Loop thread only.
#pragma once

#include <cstdint>

#include "absl/container/btree_set.h"
#include "lockstep/virtual_time.h"

namespace trestle::daemon {

class TransitTimes {
 public:
  void Insert(std::uint64_t t_send, bool to_itself) { Set(to_itself).insert(t_send); }
  // Forgets one transit of that kind at `t_send`, if any.
  void Erase(std::uint64_t t_send, bool to_itself) {
    absl::btree_multiset<std::uint64_t>& set = Set(to_itself);
    if (auto it = set.find(t_send); it != set.end()) set.erase(it);
  }
  void Clear() {
    between_.clear();
    to_itself_.clear();
  }
  void Swap(TransitTimes& other) noexcept {
    between_.swap(other.between_);
    to_itself_.swap(other.to_itself_);
  }

  bool empty() const { return between_.empty() && to_itself_.empty(); }
  std::size_t size() const { return between_.size() + to_itself_.size(); }
  // The earliest t_send of any kind, or kNever.
  std::uint64_t EarliestSend() const {
    std::uint64_t t = kNever;
    if (!between_.empty()) t = *between_.begin();
    if (!to_itself_.empty() && *to_itself_.begin() < t) t = *to_itself_.begin();
    return t;
  }
  // The earliest t_deliver any of them can get, or kNever.
  std::uint64_t EarliestDelivery(std::uint64_t lookahead, std::uint64_t self_lookahead) const {
    std::uint64_t t = kNever;
    if (!between_.empty()) t = SaturatingAdd(*between_.begin(), lookahead);
    if (!to_itself_.empty()) {
      const std::uint64_t self = SaturatingAdd(*to_itself_.begin(), self_lookahead);
      if (self < t) t = self;
    }
    return t;
  }

 private:
  absl::btree_multiset<std::uint64_t>& Set(bool to_itself) {
    return to_itself ? to_itself_ : between_;
  }

  absl::btree_multiset<std::uint64_t> between_;
  absl::btree_multiset<std::uint64_t> to_itself_;
};

}  // namespace trestle::daemon
