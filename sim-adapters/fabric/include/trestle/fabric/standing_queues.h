// StandingQueues: the queues the flow model's flows leave standing in switch
// ports, read off the MaxMinFairSolver's state. They give messages their
// queueing delay, and adaptive routing its view of the load (LinkLoad).
//
// A fluid model has rates, not packets, so queues are a stated assumption
// (docs/fabric.md, "Queues and queueing delay"). On a link, for each
// traffic class k (the sizes in QueueModelOptions; the flows counted are
// those started before the message that asks; a source's own first host
// link, its NIC, holds no network queue):
//   load queue     the class's packets arrive from N_k flows that together
//                  use ρ_k of what the class can have there (C_k: the link
//                  less the other classes' use, and never below the class's
//                  share by weight or minimum). Kingman's G/D/1 waiting
//                  room, the packet in transmission apart:
//                    Q = burstiness × (1 − 1/N_k) × ρ²/(1 − ρ) × packet / 2
//                  (one paced flow queues behind no one: 1 − 1/N_k).
//   congestion     a flow of the class is limited at the link: the control
//   control on     loop holds every flow of the class crossing it to
//                  cc_queue_bytes queued there, N_k × cc_queue_bytes; below
//                  saturation the load queue, at most that.
//   congestion     a port's buffer for a class is full (buffer_bytes) as
//   control off    soon as one of the class's flows arrives there wanting
//                  more than it gets, or is held back further down (its
//                  occupancy there is above its delivered rate): credit
//                  flow control fills every buffer upstream of a bottleneck
//                  (tree saturation). Elsewhere the load queue, at most the
//                  buffer.
// A message of class k waits at each port of its path for its class's
// queue, drained at C_k (a backed-up or saturated queue: at the class's
// delivered throughput there, which behind a saturation tree is small), and
// for the rest of the packet in transmission (switches do not preempt; any
// class): ρ × packet / 2 ÷ capacity, ρ the use of all the port's flows. A
// queue's size is its mean: the message finds a unit-mean exponential draw
// of it (from a hash of the message and the seed: a run repeats exactly,
// whatever the order of submission), except a full buffer, full every time.
//
// A message alone on an idle network waits for nothing; behind one paced
// flow that does not saturate a link, only for its packet in transmission.
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
#include "trestle/fabric/network_model.h"
#include "trestle/fabric/path.h"
#include "trestle/fabric/queue_model_options.h"
#include "trestle/fabric/topology.h"

namespace trestle::fabric {

class StandingQueues final : public LinkLoad {
 public:
  struct Options {
    bool congestion_control = true;
    // The solver's classes (weights and minimums), by class index.
    std::vector<ClassShare> classes = {ClassShare{}};
    QueueModelOptions sizes;
    std::uint64_t seed = 1;  // mixed into every message's draws
  };

  // `start_ns[h]` is when the solver's flow h started (flows that started at
  // the time a message starts do not delay it: their queues are not built).
  StandingQueues(const MaxMinFairSolver& solver, const Topology& topology,
                 const std::vector<std::uint64_t>& start_ns, Options options);

  // LinkLoad: the bytes queued on `link` in every class over its capacity.
  // O(flows on the link × their path length).
  double QueueDelayNs(LinkId link) const override;
  // The wait of `message`, of class `class_index`, starting at `now_ns` on
  // `path`: Σ over its links of its class's queue (of flows started before
  // now_ns) ÷ its drain rate × its draw there, plus the packet in
  // transmission. 0 on an idle path. The draws come from what the message
  // is (source, destination, traffic class, t_send, size) and the seed, not
  // from its id, which callers may number differently from run to run.
  double PathDelayNs(const Path& path, std::uint32_t class_index, std::uint64_t now_ns,
                     const ModelMessage& message) const;

 private:
  // One class on the link being measured.
  struct ClassQueue {
    double bytes = 0;      // its queue
    double drain = 0;      // bytes/ns its queue drains at
    double use = 0;        // bytes/ns its earlier flows occupy
    double delivered = 0;  // bytes/ns its flows deliver through the link
    std::uint32_t flows = 0;
    bool saturated = false;  // cc on: a flow of it is limited here
    bool backed = false;     // cc off: a flow of it backs up here
  };
  static constexpr std::uint64_t kEveryFlow = std::numeric_limits<std::uint64_t>::max();

  // Fills queues_ (one per class) for `link`, counting the flows started
  // before `before_ns`.
  void Measure(LinkId link, std::uint64_t before_ns) const;
  // A measured class's queue, where it can have `available` bytes/ns.
  double QueueBytes(const ClassQueue& q, double available) const;
  // The hop of the flow's path where it is first limited, or its length.
  std::size_t Bottleneck(MaxMinFairSolver::FlowHandle flow) const;

  const MaxMinFairSolver& solver_;
  const Topology& topology_;
  const std::vector<std::uint64_t>& start_ns_;
  Options options_;
  mutable std::vector<ClassQueue> queues_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_STANDING_QUEUES_H_
