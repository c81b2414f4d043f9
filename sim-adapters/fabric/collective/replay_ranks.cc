#include "trestle/fabric/replay_ranks.h"

#include <algorithm>

namespace trestle::fabric {

ReplayRanks::ReplayRanks(const std::vector<ReplayStep>& steps, std::uint32_t ranks,
                         std::uint64_t start, std::uint64_t units_per_ns, std::uint64_t first_id)
    : steps_(steps), units_per_ns_(units_per_ns), first_id_(first_id), ranks_(ranks), end_(start) {
  for (Rank& rank : ranks_) rank.clock = start;
}

std::uint32_t ReplayRanks::StepOf(std::uint64_t id) const {
  return static_cast<std::uint32_t>((id - first_id_) / ranks_.size());
}

NodeId ReplayRanks::SenderOf(std::uint64_t id) const {
  return static_cast<NodeId>((id - first_id_) % ranks_.size());
}

NodeId ReplayRanks::ReceiverOf(std::uint64_t id) const {
  return steps_[StepOf(id)].pattern.PartnerOf(SenderOf(id),
                                               static_cast<std::uint32_t>(ranks_.size()));
}

ReplayRanks::Message ReplayRanks::Send(std::uint32_t r, std::vector<Due>* due) {
  Rank& rank = ranks_[r];
  const std::uint32_t k = rank.sent++;
  const ReplayStep& step = steps_[k];
  const Message message{first_id_ + static_cast<std::uint64_t>(k) * ranks_.size() + r,
                        k,
                        r,
                        step.pattern.PartnerOf(r, static_cast<std::uint32_t>(ranks_.size())),
                        step.bytes,
                        rank.clock};
  for (std::size_t i = 0; i < rank.early.size(); ++i) {
    if (rank.early[i].first != k) continue;
    const std::uint64_t t = rank.early[i].second;
    rank.early[i] = rank.early.back();
    rank.early.pop_back();
    Take(r, t, due);
    break;
  }
  return message;
}

void ReplayRanks::Arrived(std::uint64_t id, std::uint64_t t, std::vector<Due>* due) {
  const std::uint32_t k = StepOf(id);
  const NodeId r = ReceiverOf(id);
  Rank& rank = ranks_[r];
  if (rank.taken == k && rank.sent == k + 1) {
    Take(r, t, due);
  } else {
    rank.early.emplace_back(k, t);
  }
}

void ReplayRanks::Take(std::uint32_t r, std::uint64_t t, std::vector<Due>* due) {
  Rank& rank = ranks_[r];
  rank.clock = std::max(rank.clock, t) + steps_[rank.taken].reduce_ns * units_per_ns_;
  if (++rank.taken < steps_.size()) {
    due->push_back(Due{rank.clock, r});
    return;
  }
  ++done_;
  end_ = std::max(end_, rank.clock);
}

}  // namespace trestle::fabric
