// LevelQueue: the links MaxMinFairSolver waits to evaluate, lowest level
// first (ties: lowest link index first, so that a solve repeats exactly).
// A binary min-heap of (level, link) in which a level (>= 0, or +infinity)
// is compared as the bits of its double, an integer that orders
// non-negative doubles as their values do, and (level, link) as one 128-bit
// integer: a compare is two integer instructions and no branch, and a pop
// chooses each child without a branch. Pop moves the hole down to a leaf and
// the last entry up from there (Floyd), about half the compares of a
// sift-down from the root.
//
// It does not know whether a link is queued already: the solver keeps that
// flag. Memory: 16 bytes per queued entry. Threading: one thread.
// C++17-clean.
#ifndef TRESTLE_FABRIC_LEVEL_QUEUE_H_
#define TRESTLE_FABRIC_LEVEL_QUEUE_H_

#include <cstdint>
#include <cstring>
#include <vector>

namespace trestle::fabric {

class LevelQueue {
 public:
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }

  // Queues `link` at `level` (>= 0 or +infinity; -0 counts as 0).
  void Push(double level, std::uint32_t link) {
    heap_.emplace_back();
    Rise(heap_.size() - 1, KeyOf(level, link));
  }

  // Removes and returns the link with the lowest (level, link). Not empty.
  std::uint32_t Pop() {
    const auto top = static_cast<std::uint32_t>(heap_.front());
    const Key last = heap_.back();
    heap_.pop_back();
    const std::size_t n = heap_.size();
    if (n == 0) return top;
    // The hole at the root goes down along the smaller children to a leaf...
    std::size_t hole = 0;
    std::size_t child = 1;
    while (child + 1 < n) {
      child += static_cast<std::size_t>(heap_[child + 1] < heap_[child]);
      heap_[hole] = heap_[child];
      hole = child;
      child = 2 * hole + 1;
    }
    if (child < n) {  // an only child
      heap_[hole] = heap_[child];
      hole = child;
    }
    // ... and the last entry rises from there to its place.
    Rise(hole, last);
    return top;
  }

  void Clear() { heap_.clear(); }

 private:
  // Level bits << 64 | link. (__extension__: ISO C++ has no 128-bit
  // integer; GCC and Clang do, and compare it without a branch.)
  __extension__ typedef unsigned __int128 Key;

  // Puts `key` at the hole `at` or above it, moving larger parents down.
  void Rise(std::size_t at, Key key) {
    while (at > 0) {
      const std::size_t parent = (at - 1) / 2;
      if (!(key < heap_[parent])) break;
      heap_[at] = heap_[parent];
      at = parent;
    }
    heap_[at] = key;
  }

  static Key KeyOf(double level, std::uint32_t link) {
    const double positive = level + 0.0;  // -0 -> +0
    std::uint64_t bits;
    std::memcpy(&bits, &positive, sizeof bits);
    return static_cast<Key>(bits) << 64 | link;
  }

  std::vector<Key> heap_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_LEVEL_QUEUE_H_
