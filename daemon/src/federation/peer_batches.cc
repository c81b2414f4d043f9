#include "federation/peer_batches.h"

#include <algorithm>
#include <utility>

namespace trestle::daemon {
namespace {

// Member lists kept for reuse, at most.
constexpr std::size_t kSpareLists = 16;

}  // namespace

PeerBatches::Batch* PeerBatches::Open(std::uint32_t daemon) {
  auto it = std::find(waiting_.begin(), waiting_.end(), daemon);
  return it == waiting_.end() ? nullptr : &open_[static_cast<std::size_t>(it - waiting_.begin())];
}

bool PeerBatches::Add(std::uint32_t daemon, const Member& m) {
  Batch* b = Open(daemon);
  if (b == nullptr) {
    waiting_.push_back(daemon);
    b = &open_.emplace_back();
    b->daemon = daemon;
    if (!spare_.empty()) {
      b->members = std::move(spare_.back());
      spare_.pop_back();
    }
  }
  b->members.push_back(m);
  return b->members.size() >= kMaxMembers;
}

std::span<const PeerBatches::Member> PeerBatches::Take(std::uint32_t daemon,
                                                       std::uint64_t* number) {
  auto it = std::find(waiting_.begin(), waiting_.end(), daemon);
  if (it == waiting_.end()) return {};
  const auto at = it - waiting_.begin();
  Batch& b = sent_.emplace_back(std::move(open_[static_cast<std::size_t>(at)]));
  open_.erase(open_.begin() + at);
  waiting_.erase(it);
  b.number = *number = ++last_number_;
  return b.members;
}

std::vector<PeerBatches::Member> PeerBatches::Answered(std::uint64_t number) {
  auto it = std::find_if(sent_.begin(), sent_.end(),
                         [number](const Batch& b) { return b.number == number; });
  if (it == sent_.end()) return {};
  std::vector<Member> members = std::move(it->members);
  sent_.erase(it);  // the oldest, or the newest (answered inside its Append)
  return members;
}

void PeerBatches::Recycle(std::vector<Member>&& members) {
  if (spare_.size() >= kSpareLists) return;
  members.clear();
  spare_.push_back(std::move(members));
}

}  // namespace trestle::daemon
