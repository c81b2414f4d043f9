// IdRing: a double-ended queue of message ids in one growable ring buffer.
// Unlike std::deque (which allocates on construction in libstdc++), a new
// IdRing owns no memory, and one that empties gives a large buffer back, so
// a daemon can keep one per known client without paying for idle ones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace trestle::daemon {

class IdRing {
 public:
  IdRing() = default;
  IdRing(IdRing&& other) noexcept { *this = std::move(other); }
  IdRing& operator=(IdRing&& other) noexcept {
    slots_ = std::move(other.slots_);
    capacity_ = std::exchange(other.capacity_, 0);
    head_ = std::exchange(other.head_, 0);
    size_ = std::exchange(other.size_, 0);
    return *this;
  }

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  std::uint64_t front() const { return slots_[head_]; }
  std::uint64_t back() const { return slots_[(head_ + size_ - 1) & (capacity_ - 1)]; }
  // The i-th id from the front.
  std::uint64_t operator[](std::size_t i) const { return slots_[(head_ + i) & (capacity_ - 1)]; }

  void push_back(std::uint64_t id) {
    if (size_ == capacity_) Grow();
    slots_[(head_ + size_) & (capacity_ - 1)] = id;
    ++size_;
  }
  void push_front(std::uint64_t id) {
    if (size_ == capacity_) Grow();
    head_ = (head_ + capacity_ - 1) & (capacity_ - 1);
    slots_[head_] = id;
    ++size_;
  }
  void pop_front() {
    head_ = (head_ + 1) & (capacity_ - 1);
    if (--size_ == 0) Release();
  }
  void pop_back() {
    if (--size_ == 0) Release();
  }
  void clear() { Release(); }

 private:
  static constexpr std::size_t kFirstCapacity = 8;
  // An emptied ring keeps a buffer up to this size (2 KiB), so that a queue
  // that fills and drains batch after batch does not allocate each time.
  static constexpr std::size_t kKeepCapacity = 256;
  void Grow() {
    const std::size_t capacity = capacity_ == 0 ? kFirstCapacity : capacity_ * 2;
    auto slots = std::make_unique<std::uint64_t[]>(capacity);
    for (std::size_t i = 0; i < size_; ++i) slots[i] = (*this)[i];
    slots_ = std::move(slots);
    capacity_ = capacity;
    head_ = 0;
  }
  void Release() {
    size_ = 0;
    head_ = 0;
    if (capacity_ > kKeepCapacity) {
      slots_.reset();
      capacity_ = 0;
    }
  }

  std::unique_ptr<std::uint64_t[]> slots_;
  std::size_t capacity_ = 0;  // a power of two
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace trestle::daemon
