#include "trestle/fabric/collective_replay.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

#include "absl/status/status.h"
#include "common/text.h"

namespace trestle::fabric {
namespace {

// One rank's progress: it has sent steps [0, sent) and taken the messages of
// steps [0, taken); taken == sent means its next send is due at `clock`.
struct Rank {
  std::uint32_t sent = 0;
  std::uint32_t taken = 0;
  std::uint64_t clock = 0;
  // Messages delivered before the rank reached their step: (step, t_deliver).
  std::vector<std::pair<std::uint32_t, std::uint64_t>> early;
};

class Replay {
 public:
  Replay(NetworkModel& model, const std::vector<ReplayStep>& steps, std::uint32_t ranks)
      : model_(model), steps_(steps), n_(ranks), ranks_(ranks) {}

  absl::StatusOr<std::uint64_t> Run() {
    if (steps_.empty() || n_ == 0) return 0;
    for (std::uint32_t r = 0; r < n_; ++r) due_.push(Due{0, r});
    while (status_.ok()) {
      // Every send due by the model's next event goes in first, as a
      // lockstep adapter has every transit with t_send < T before it
      // advances to T.
      const std::uint64_t next_event = model_.NextEventNs();
      if (!due_.empty() && due_.top().t <= next_event) {
        const Due due = due_.top();
        due_.pop();
        Send(due.rank);
        continue;
      }
      if (next_event == NetworkModel::kNoEvent) break;
      model_.AdvanceTo(next_event, &completed_);
      TakeCompleted();
    }
    if (!status_.ok()) return status_;
    if (done_ != n_) {
      return absl::InternalError(internal::Concat("replay ended with ", n_ - done_, " of ", n_,
                                                  " ranks unfinished"));
    }
    return end_ns_;
  }

 private:
  struct Due {
    std::uint64_t t;
    std::uint32_t rank;
    bool operator>(const Due& o) const { return t != o.t ? t > o.t : rank > o.rank; }
  };

  void Send(std::uint32_t r) {
    Rank& rank = ranks_[r];
    const std::uint32_t k = rank.sent++;
    const ReplayStep& step = steps_[k];
    const ModelMessage message{static_cast<std::uint64_t>(k) * n_ + r, r,
                               step.pattern.PartnerOf(r, n_), step.bytes, 0, rank.clock};
    model_.Submit(message, &completed_);
    TakeCompleted();
    // The step's message may have come already.
    for (std::size_t i = 0; i < rank.early.size(); ++i) {
      if (rank.early[i].first != k) continue;
      const std::uint64_t t = rank.early[i].second;
      rank.early[i] = rank.early.back();
      rank.early.pop_back();
      Take(r, t);
      return;
    }
  }

  void TakeCompleted() {
    for (const ModelCompletion& c : completed_) {
      const auto k = static_cast<std::uint32_t>(c.id / n_);
      const auto src = static_cast<std::uint32_t>(c.id % n_);
      const std::uint32_t dst = steps_[k].pattern.PartnerOf(src, n_);
      if (c.dropped) {
        if (status_.ok()) {
          status_ = absl::DataLossError(internal::Concat(
              "the model dropped step ", k, "'s message from rank ", src, " to rank ", dst,
              ": the collective never ends"));
        }
        continue;
      }
      Rank& rank = ranks_[dst];
      if (rank.taken == k && rank.sent == k + 1) {
        Take(dst, c.t_deliver_ns());
      } else {
        rank.early.emplace_back(k, c.t_deliver_ns());
      }
    }
    completed_.clear();
  }

  // Rank r takes the message of its current step, delivered at `t`.
  void Take(std::uint32_t r, std::uint64_t t) {
    Rank& rank = ranks_[r];
    rank.clock = std::max(rank.clock, t) + steps_[rank.taken].reduce_ns;
    if (++rank.taken == steps_.size()) {
      ++done_;
      end_ns_ = std::max(end_ns_, rank.clock);
      return;
    }
    due_.push(Due{rank.clock, r});
  }

  NetworkModel& model_;
  const std::vector<ReplayStep>& steps_;
  const std::uint32_t n_;
  std::vector<Rank> ranks_;
  std::priority_queue<Due, std::vector<Due>, std::greater<Due>> due_;
  std::vector<ModelCompletion> completed_;
  absl::Status status_;
  std::uint32_t done_ = 0;
  std::uint64_t end_ns_ = 0;
};

}  // namespace

absl::StatusOr<std::uint64_t> CollectiveReplay::TimeNs(NetworkModel& model,
                                                       const std::vector<ReplayStep>& steps,
                                                       std::uint32_t ranks) {
  return Replay(model, steps, ranks).Run();
}

}  // namespace trestle::fabric
