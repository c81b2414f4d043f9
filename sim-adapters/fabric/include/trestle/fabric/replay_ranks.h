// ReplayRanks: the ranks of a collective run at their own pace (the
// dataflow timing, CollectiveReplay): what each has sent and taken, the
// messages that came before their step, and when each next sends. Shared by
// the fabric backend's replay and the ns-3 backend's, which only differ in
// what carries the messages.
//
// The rule (collective_replay.h): every rank's clock starts at `start`; in
// step k rank i sends one message to steps[k].pattern.PartnerOf(i) and waits
// for the one step k brings it; once that has arrived, its clock moves to the
// later of the clock and the arrival, plus the step's reduction, and it sends
// step k + 1's message then. A rank is done after its last step's message.
//
// Times are in the caller's unit, `units_per_ns` to a nanosecond (1: ns;
// 1000: ps); reductions (ReplayStep::reduce_ns) are scaled by it. Message ids
// are first_id + k × ranks + i, unique for the run.
//
// Usage: Send(i) for every rank; hand each message to the network; on each
// arrival, Arrived(). Both append the ranks whose next message is due
// (Due: when, which rank), to be sent with Send() at that time, in time
// order. Costs: O(1) per call, plus a scan of the few messages a rank holds
// early. One thread. C++17-clean (the ns-3 adapter uses it).
#ifndef TRESTLE_FABRIC_REPLAY_RANKS_H_
#define TRESTLE_FABRIC_REPLAY_RANKS_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "trestle/fabric/collective_schedule.h"
#include "trestle/fabric/link.h"

namespace trestle::fabric {

// One step as every rank takes it.
struct ReplayStep {
  StepPattern pattern;
  std::uint64_t bytes = 0;      // each message's size
  std::uint64_t reduce_ns = 0;  // each rank's compute after its message arrives
};

class ReplayRanks {
 public:
  // A rank whose next message is due at `t`.
  struct Due {
    std::uint64_t t;
    std::uint32_t rank;
  };
  // The message a rank sends.
  struct Message {
    std::uint64_t id;
    std::uint32_t step;
    NodeId src;
    NodeId dst;
    std::uint64_t bytes;
    std::uint64_t t_send;
  };

  // `steps` must outlive this object.
  ReplayRanks(const std::vector<ReplayStep>& steps, std::uint32_t ranks, std::uint64_t start,
              std::uint64_t units_per_ns = 1, std::uint64_t first_id = 0);

  // Rank `rank` sends its next step's message, at its clock. If the message
  // that step brings it came already, it takes it: appends to *due when its
  // next send is (unless that was its last step).
  Message Send(std::uint32_t rank, std::vector<Due>* due);
  // The message `id` (a Send's) arrived at `t`: its receiver takes it if it
  // waits for it (appending to *due as Send does), or keeps it for later.
  void Arrived(std::uint64_t id, std::uint64_t t, std::vector<Due>* due);

  // Ranks that took their last message; the latest of their clocks then.
  std::uint32_t done() const { return done_; }
  bool all_done() const { return done_ == ranks_.size(); }
  std::uint64_t end() const { return end_; }
  // The step and the two ends of message `id`.
  std::uint32_t StepOf(std::uint64_t id) const;
  NodeId SenderOf(std::uint64_t id) const;
  NodeId ReceiverOf(std::uint64_t id) const;

 private:
  // Steps [0, sent) sent, the messages of [0, taken) taken; taken == sent
  // means the next send is due at `clock`.
  struct Rank {
    std::uint32_t sent = 0;
    std::uint32_t taken = 0;
    std::uint64_t clock = 0;
    std::vector<std::pair<std::uint32_t, std::uint64_t>> early;  // (step, arrival)
  };

  // Rank `r` takes its current step's message, which arrived at `t`.
  void Take(std::uint32_t r, std::uint64_t t, std::vector<Due>* due);

  const std::vector<ReplayStep>& steps_;
  std::uint64_t units_per_ns_;
  std::uint64_t first_id_;
  std::vector<Rank> ranks_;
  std::uint32_t done_ = 0;
  std::uint64_t end_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_REPLAY_RANKS_H_
