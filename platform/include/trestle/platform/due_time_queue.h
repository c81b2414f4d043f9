// DueTimeQueue<Value, SourceLess>: items waiting for a time, handed out
// earliest first in the order lockstep determinism rests on: by due time,
// then source, then the source's sequence (DueTimeKey). Items with equal due
// times therefore come out in an order fixed by what they are, not by when
// they were pushed.
//
// Sources compare with SourceLess (by number by default; the daemon orders
// app indices by their client id). A site with one source (a pacer) gives
// every item source 0 and a running sequence: equal due times come out in
// push order.
//
// A binary heap over one std::vector (std::push_heap/std::pop_heap): Push
// and Pop are O(log n) and allocate only when the vector grows. Items with
// equal keys come out in an unspecified (but repeatable) order.
//
// Header-only and C++17 (the ns-3 adapter uses it); library
// trestle_platform_due_time_queue. Not thread-safe.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

namespace trestle::platform {

struct DueTimeKey {
  std::uint64_t due = 0;       // the time the item is due at
  std::uint64_t source = 0;    // who it comes from
  std::uint64_t sequence = 0;  // its place among that source's items
};

template <typename Value, typename SourceLess = std::less<std::uint64_t>>
class DueTimeQueue {
 public:
  struct Item {
    DueTimeKey key;
    Value value;
  };

  // EarliestDue() of an empty queue.
  static constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();

  DueTimeQueue() = default;
  explicit DueTimeQueue(SourceLess source_less) : later_{std::move(source_less)} {}

  void Push(const DueTimeKey& key, Value value) {
    items_.push_back(Item{key, std::move(value)});
    std::push_heap(items_.begin(), items_.end(), later_);
  }

  // The earliest item; the queue must not be empty.
  const Item& Top() const { return items_.front(); }
  // Its due time; kNone when empty.
  std::uint64_t EarliestDue() const { return items_.empty() ? kNone : items_.front().key.due; }

  // Removes and returns the earliest item; the queue must not be empty.
  Item Pop() {
    std::pop_heap(items_.begin(), items_.end(), later_);
    Item item = std::move(items_.back());
    items_.pop_back();
    return item;
  }

  // Pops every item due at or before `now`, earliest first, and calls
  // fn(Item&&) with each once it is out of the queue (fn may Push: what it
  // pushes due by `now` comes out in this call too). Returns how many.
  template <typename Fn>
  std::size_t PopDue(std::uint64_t now, Fn&& fn) {
    std::size_t n = 0;
    while (!items_.empty() && items_.front().key.due <= now) {
      fn(Pop());
      ++n;
    }
    return n;
  }

  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  void clear() { items_.clear(); }

 private:
  // Heap order: true when `a` comes after `b`.
  struct Later {
    SourceLess source_less;
    bool operator()(const Item& a, const Item& b) const {
      if (a.key.due != b.key.due) return a.key.due > b.key.due;
      if (a.key.source != b.key.source) return source_less(b.key.source, a.key.source);
      return a.key.sequence > b.key.sequence;
    }
  };

  Later later_{};
  std::vector<Item> items_;
};

}  // namespace trestle::platform
