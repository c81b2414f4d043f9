// Internal to trestle_fabric: IndexedMinHeap, a binary min-heap of (time,
// item) where each item (a dense index, e.g. a solver flow handle) is in the
// heap at most once and its time can be changed or removed in O(log n). The
// flow model keeps each flow's projected finish time here and moves it
// whenever the flow's rate changes, without leaving stale entries behind.
// Equal times pop in item order, so runs repeat exactly.
//
// Memory: 4 bytes per item index ever used, plus 16 bytes per queued item.
// Threading: one thread.
#ifndef TRESTLE_FABRIC_MODEL_INDEXED_MIN_HEAP_H_
#define TRESTLE_FABRIC_MODEL_INDEXED_MIN_HEAP_H_

#include <cstdint>
#include <vector>

namespace trestle::fabric::internal {

class IndexedMinHeap {
 public:
  struct Entry {
    double time;
    std::uint32_t item;
  };

  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  const Entry& top() const { return heap_.front(); }
  bool contains(std::uint32_t item) const {
    return item < position_.size() && position_[item] != kAbsent;
  }

  // Inserts `item` at `time`, or moves it there if it is queued already.
  void Set(std::uint32_t item, double time) {
    if (item >= position_.size()) position_.resize(item + 1, kAbsent);
    std::uint32_t at = position_[item];
    if (at == kAbsent) {
      at = static_cast<std::uint32_t>(heap_.size());
      heap_.push_back(Entry{time, item});
      position_[item] = at;
      Up(at);
      return;
    }
    const bool earlier = Before(Entry{time, item}, heap_[at]);
    heap_[at].time = time;
    if (earlier) {
      Up(at);
    } else {
      Down(at);
    }
  }

  // Removes `item` if queued.
  void Remove(std::uint32_t item) {
    if (!contains(item)) return;
    const std::uint32_t at = position_[item];
    position_[item] = kAbsent;
    const Entry last = heap_.back();
    heap_.pop_back();
    if (at == heap_.size()) return;
    heap_[at] = last;
    position_[last.item] = at;
    Up(at);
    Down(position_[last.item]);
  }

  void Clear() {
    for (const Entry& e : heap_) position_[e.item] = kAbsent;
    heap_.clear();
  }

 private:
  static constexpr std::uint32_t kAbsent = 0xffffffffu;

  static bool Before(const Entry& a, const Entry& b) {
    return a.time < b.time || (a.time == b.time && a.item < b.item);
  }
  void Place(std::uint32_t at, const Entry& entry) {
    heap_[at] = entry;
    position_[entry.item] = at;
  }
  void Up(std::uint32_t at) {
    const Entry entry = heap_[at];
    while (at > 0) {
      const std::uint32_t parent = (at - 1) / 2;
      if (!Before(entry, heap_[parent])) break;
      Place(at, heap_[parent]);
      at = parent;
    }
    Place(at, entry);
  }
  void Down(std::uint32_t at) {
    const Entry entry = heap_[at];
    const auto n = static_cast<std::uint32_t>(heap_.size());
    while (true) {
      std::uint32_t child = 2 * at + 1;
      if (child >= n) break;
      if (child + 1 < n && Before(heap_[child + 1], heap_[child])) ++child;
      if (!Before(heap_[child], entry)) break;
      Place(at, heap_[child]);
      at = child;
    }
    Place(at, entry);
  }

  std::vector<Entry> heap_;
  std::vector<std::uint32_t> position_;
};

}  // namespace trestle::fabric::internal

#endif  // TRESTLE_FABRIC_MODEL_INDEXED_MIN_HEAP_H_
