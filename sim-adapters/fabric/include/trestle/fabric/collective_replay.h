// CollectiveReplay: runs a collective's steps through a NetworkModel as live
// ranks run them (SweepTiming::kDataflow): a rank waits only for the data
// it depends on, never for the slowest rank of a step.
//
// The ranks' rule, for ranks 0..N-1 on endpoints 0..N-1 and steps 0..K-1:
//   - every rank's clock starts at 0, and it sends step 0's message then;
//   - in step k rank i sends one message of the step's bytes to
//     pattern.PartnerOf(i) (class 0), and then waits for the one message
//     step k brings it (from the rank whose partner it is);
//   - when that message is delivered, its clock moves to the later of the
//     clock and t_deliver; a reduce step then adds its reduction,
//     round(bytes / reduce bandwidth) ns; then it sends step k + 1's
//     message at its clock. A message that comes before its step is kept
//     until the rank gets there.
//   - the rank is done when its last step's message has arrived (and been
//     reduced); the collective's time is the latest rank's clock then.
// That is what an app on the SDK does in lockstep time (its clock moves to
// each delivery's t_deliver, Advance models compute, a Send leaves at the
// clock: examples/ring-allreduce), so with the same model, options and
// endpoints every message gets the same t_send as live, and the time is
// the live run's.
//
// The model sees what a lockstep adapter lets it see: every message with
// t_send t is submitted before the model's clock reaches t, and messages
// due at one time are submitted in (rank, step) order. Message ids are
// k × N + i, so that the model breaks ties between one rank's messages in
// the order it sent them.
//
// The ranks' bookkeeping is ReplayRanks'. Costs: one Submit per message,
// the model's events, and O(log N) per message for the ranks' send queue.
// Threading: one thread.
#ifndef TRESTLE_FABRIC_COLLECTIVE_REPLAY_H_
#define TRESTLE_FABRIC_COLLECTIVE_REPLAY_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "trestle/fabric/network_model.h"
#include "trestle/fabric/replay_ranks.h"

namespace trestle::fabric {

class CollectiveReplay {
 public:
  // The time in ns, from 0 to the last rank's end, of `ranks` ranks taking
  // `steps` in order through `model`, which must be fresh (clock 0, nothing
  // in flight) and have at least `ranks` endpoints. Errors: DataLoss naming
  // the step and ranks when the model drops a message (the collective never
  // ends); Internal if a rank never finished.
  static absl::StatusOr<std::uint64_t> TimeNs(NetworkModel& model,
                                              const std::vector<ReplayStep>& steps,
                                              std::uint32_t ranks);
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_COLLECTIVE_REPLAY_H_
