// StandingQueues: the queues the flow model's flows leave standing in switch
// ports, read off the MaxMinFairSolver's state. They give messages their
// queueing delay, and adaptive routing its view of the load (LinkLoad).
//
// A fluid model has rates, not packets, so queues are a stated assumption:
//   congestion control on   a flow keeps `cc_queue_bytes` queued at its
//                           bottleneck (the first link of its path where its
//                           class is limited and the flow gets the limit);
//                           a port holds at most `buffer_bytes` per class.
//   congestion control off  a port's buffer for a class is full
//                           (`buffer_bytes`) as soon as one of the class's
//                           flows arrives there wanting more than it gets, or
//                           is held back further down (its occupancy there
//                           is above its delivered rate): credit flow
//                           control fills every buffer upstream of a
//                           bottleneck (tree saturation).
// A source's own first host link (its NIC) holds no network queue. The queue
// of a class drains at the class's delivered throughput through the link
// (the sum of its flows' delivered rates), so a message of that class waits
// queue / throughput there; with congestion control off that throughput is
// what the backed-up flows deliver, which is why small messages wait long
// behind a saturation tree.
//
// Threading and lifetime: one thread; `solver`, `topology` and `start_ns`
// must outlive this object. C++17-clean.
#ifndef TRESTLE_FABRIC_STANDING_QUEUES_H_
#define TRESTLE_FABRIC_STANDING_QUEUES_H_

#include <cstdint>
#include <limits>
#include <vector>

#include "trestle/fabric/link_load.h"
#include "trestle/fabric/max_min_fair_solver.h"
#include "trestle/fabric/path.h"
#include "trestle/fabric/topology.h"

namespace trestle::fabric {

class StandingQueues final : public LinkLoad {
 public:
  struct Options {
    bool congestion_control = true;
    double buffer_bytes = 8 * 1024;
    double cc_queue_bytes = 2 * 1024;
    std::size_t class_count = 1;
  };

  // `start_ns[h]` is when the solver's flow h started (flows that started at
  // the time a message starts do not delay it: their queues are not built).
  StandingQueues(const MaxMinFairSolver& solver, const Topology& topology,
                 const std::vector<std::uint64_t>& start_ns, Options options);

  // LinkLoad: the bytes queued on `link` in every class over its capacity.
  // O(flows on the link × their path length).
  double QueueDelayNs(LinkId link) const override;
  // The wait of a message of class `class_index` that starts at `now_ns` on
  // `path`: Σ over its links of the class's queue (of flows started before
  // now_ns) / the class's throughput there. 0 on an idle path.
  double PathDelayNs(const Path& path, std::uint32_t class_index, std::uint64_t now_ns) const;

 private:
  struct ClassQueue {
    double bytes = 0;
    double throughput = 0;  // bytes/ns delivered by the class's flows here
  };
  static constexpr std::uint64_t kEveryFlow = std::numeric_limits<std::uint64_t>::max();

  // Fills queues_ (one per class) for `link`, counting the queues of flows
  // started before `before_ns`.
  void Measure(LinkId link, std::uint64_t before_ns) const;
  // The hop of the flow's path where it is first limited, or its length.
  std::size_t Bottleneck(MaxMinFairSolver::FlowHandle flow) const;

  const MaxMinFairSolver& solver_;
  const Topology& topology_;
  const std::vector<std::uint64_t>& start_ns_;
  Options options_;
  mutable std::vector<ClassQueue> queues_;
  mutable std::vector<std::uint32_t> count_;  // per class: flows limited here (cc on)
  mutable std::vector<std::uint8_t> backed_;   // per class: backed up here (cc off)
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_STANDING_QUEUES_H_
