#include "trestle/fabric/collective_replay.h"

#include <functional>
#include <queue>

#include "absl/status/status.h"
#include "common/text.h"

namespace trestle::fabric {
namespace {

class Replay {
 public:
  Replay(NetworkModel& model, const std::vector<ReplayStep>& steps, std::uint32_t ranks)
      : model_(model), ranks_(steps, ranks, 0), n_(ranks) {}

  absl::StatusOr<std::uint64_t> Run() {
    for (std::uint32_t r = 0; r < n_; ++r) queue_.push(Due{0, r});
    while (status_.ok()) {
      // Every send due by the model's next event goes in first, as a
      // lockstep adapter has every transit with t_send < T before it
      // advances to T.
      const std::uint64_t next_event = model_.NextEventNs();
      if (!queue_.empty() && queue_.top().t <= next_event) {
        const std::uint32_t rank = queue_.top().rank;
        queue_.pop();
        const ReplayRanks::Message m = ranks_.Send(rank, &due_);
        model_.Submit(ModelMessage{m.id, m.src, m.dst, m.bytes, 0, m.t_send}, &completed_);
        TakeCompleted();
        continue;
      }
      if (next_event == NetworkModel::kNoEvent) break;
      model_.AdvanceTo(next_event, &completed_);
      TakeCompleted();
    }
    if (!status_.ok()) return status_;
    if (!ranks_.all_done()) {
      return absl::InternalError(internal::Concat("replay ended with ", n_ - ranks_.done(),
                                                  " of ", n_, " ranks unfinished"));
    }
    return ranks_.end();
  }

 private:
  using Due = ReplayRanks::Due;
  struct Later {
    bool operator()(const Due& a, const Due& b) const {
      return a.t != b.t ? a.t > b.t : a.rank > b.rank;
    }
  };

  // Hands the model's completions to the ranks, and queues the sends they
  // make due.
  void TakeCompleted() {
    for (const ModelCompletion& c : completed_) {
      if (c.dropped) {
        if (status_.ok()) {
          status_ = absl::DataLossError(internal::Concat(
              "the model dropped step ", ranks_.StepOf(c.id), "'s message from rank ",
              ranks_.SenderOf(c.id), " to rank ", ranks_.ReceiverOf(c.id),
              ": the collective never ends"));
        }
        continue;
      }
      ranks_.Arrived(c.id, c.t_deliver_ns(), &due_);
    }
    completed_.clear();
    for (const Due& d : due_) queue_.push(d);
    due_.clear();
  }

  NetworkModel& model_;
  ReplayRanks ranks_;
  const std::uint32_t n_;
  std::priority_queue<Due, std::vector<Due>, Later> queue_;
  std::vector<Due> due_;
  std::vector<ModelCompletion> completed_;
  absl::Status status_;
};

}  // namespace

absl::StatusOr<std::uint64_t> CollectiveReplay::TimeNs(NetworkModel& model,
                                                       const std::vector<ReplayStep>& steps,
                                                       std::uint32_t ranks) {
  if (steps.empty() || ranks == 0) return 0;
  return Replay(model, steps, ranks).Run();
}

}  // namespace trestle::fabric
