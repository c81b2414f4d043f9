#include "source_queue.h"

#include <algorithm>

namespace trestle::mpi {

void SourceQueue::Arrive(std::uint32_t number, const MirrorArrival& arrival) {
  if (number != next_) {
    early_.emplace(number, arrival);
    return;
  }
  Promote(arrival);
  ++next_;
  // Those that waited for this one.
  for (auto it = early_.begin(); it != early_.end() && it->first == next_;
       it = early_.erase(it)) {
    Promote(it->second);
    ++next_;
  }
}

void SourceQueue::Promote(const MirrorArrival& arrival) {
  auto owed = owed_.find(arrival.tag);
  if (owed != owed_.end() && !owed->second.empty()) {
    ReceiveOp* op = owed->second.front();
    owed->second.pop_front();
    op->mirror = arrival;
    op->state = ReceiveOp::State::kReady;
    return;
  }
  unassigned_[arrival.tag].push_back(arrival);
  ++unassigned_total_;
}

void SourceQueue::Claim(int tag, ReceiveOp* op) {
  auto waiting = unassigned_.find(tag);
  if (waiting != unassigned_.end() && !waiting->second.empty()) {
    op->mirror = waiting->second.front();
    op->state = ReceiveOp::State::kReady;
    waiting->second.pop_front();
    --unassigned_total_;
    return;
  }
  op->state = ReceiveOp::State::kOwed;
  owed_[tag].push_back(op);
}

std::size_t SourceQueue::Unassigned(int tag) const {
  if (tag == ReceiveOp::kAny) return unassigned_total_;
  auto it = unassigned_.find(tag);
  return it == unassigned_.end() ? 0 : it->second.size();
}

const MirrorArrival* SourceQueue::FirstUnassigned(int tag) const {
  if (tag != ReceiveOp::kAny) {
    auto it = unassigned_.find(tag);
    return it == unassigned_.end() || it->second.empty() ? nullptr : &it->second.front();
  }
  const MirrorArrival* first = nullptr;
  for (const auto& [t, line] : unassigned_) {
    if (!line.empty() && (first == nullptr || line.front().order < first->order)) {
      first = &line.front();
    }
  }
  return first;
}

void SourceQueue::Forget(const ReceiveOp* op) {
  for (auto& [tag, line] : owed_) {
    line.erase(std::remove(line.begin(), line.end(), op), line.end());
  }
}

}  // namespace trestle::mpi
