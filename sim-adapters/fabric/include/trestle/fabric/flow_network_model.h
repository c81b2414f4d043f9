// FlowNetworkModel: the flow-level contention model behind NetworkModel
// (NetworkModelKind::kFlow). Messages in flight share the links they cross.
//
// A message from src to a different dst with at least one byte is a flow on
// its routed path (host links included: injection and ejection are links
// like any other). From the moment it starts, the MaxMinFairSolver gives it a
// rate, recomputed whenever a flow starts or finishes; its bytes drain at
// that rate, and its transfer ends when they are gone. Then
//
//   latency = fixed + queueing + transfer
//
// where fixed is MessageTimeModel's size-independent part of the path
// (endpoint delay, link and switch latencies), queueing is what it waits
// behind the queues standing on its path when it starts (StandingQueues,
// counting flows that started earlier), and transfer is the time its bytes
// took at the rates they got. Alone on the network, a flow gets the lowest
// bandwidth on its path, nothing is queued, and the latency is exactly
// MessageTimeModel's. Messages to themselves cost the endpoint delay; 0-byte
// messages cost fixed + queueing; neither takes bandwidth.
//
// Connections (MessageOrdering::kConnection, the default): a connection's
// messages are one flow. A message that starts while the previous message
// of its connection is still transferring waits behind it and takes over
// its flow, path and rate the moment that message's last byte has left:
//
//   latency = wait + fixed + queueing (now) + transfer
//
// (the path keeps its fixed latency; the queueing is the path's when its
// bytes start). A connection with nothing left to send leaves the solver;
// its next message is routed again (adaptive routing may move it). Its
// t_deliver is never below the previous message's (a new path may be
// shorter). A message alone on its connection is priced as below. Under
// kMessage, every message is its own flow, as below.
//
// Time: a message starts at t_send (Submit with t_send > NowNs() queues the
// start; the start happens in AdvanceTo). A message with t_send <= NowNs()
// starts at NowNs(), against the network as it is then, and its latency is
// counted from that start: t_deliver = t_send + round(latency); one at
// exactly NowNs() (a lockstep delta step hands those over after the model
// has reached their instant) is one more start of that instant. Completions
// are reported when a flow's transfer ends (t_deliver lies a fixed latency
// after that), in the order transfers end; a message that needs no transfer
// completes when it starts. Events at one time: finishes first, then starts.
// The starts of one instant all see the network as it was before the
// instant (routes, queueing), and their flows join the solver together, in
// (t_send, src, id) order, when the clock moves past the instant (AdvanceTo
// beyond it; NextEventNs() is then the instant + 1); so a run repeats
// exactly whatever order the messages were submitted in and however an
// instant's starts were split between calls. With adaptive routing each
// start instead solves at once and the next one sees its load (routing
// reads the standing queues, a LinkLoad, with every flow already started
// counted): same-instant starts then depend on their order. Never drops.
//
// Costs: a start or a finish is one incremental solve (MaxMinFairSolver) plus
// O(1) per flow whose rate changed (O(log n) when it will now finish
// earlier: a finish that moves later keeps its place in the heap until it
// comes to the top); the queueing delay of a starting
// message is O(flows on its links × their path length). Memory: 4 bytes per
// link id of the topology plus per-flow and per-busy-link state, and about
// 50 bytes per connection ever seen (kConnection).
//
// Threading and lifetime: one thread; `topology` must outlive the model.
#ifndef TRESTLE_FABRIC_FLOW_NETWORK_MODEL_H_
#define TRESTLE_FABRIC_FLOW_NETWORK_MODEL_H_

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <vector>

#include "absl/status/status.h"
#include "trestle/fabric/connection_table.h"
#include "trestle/fabric/max_min_fair_solver.h"
#include "trestle/fabric/message_time_model.h"
#include "trestle/fabric/network_model.h"
#include "trestle/fabric/network_model_factory.h"
#include "trestle/fabric/routing.h"
#include "trestle/fabric/standing_queues.h"
#include "trestle/fabric/topology.h"

namespace trestle::fabric {

namespace internal {
class IndexedMinHeap;
}  // namespace internal

class FlowNetworkModel final : public NetworkModel {
 public:
  // `topology` must outlive the model; options.flow.classes must be valid
  // (TrafficClassTable guarantees it).
  FlowNetworkModel(const Topology& topology, const NetworkModelOptions& options);
  ~FlowNetworkModel() override;

  std::string_view Name() const override { return "flow"; }
  void Submit(const ModelMessage& message, std::vector<ModelCompletion>* completed) override;
  void AdvanceTo(std::uint64_t t_ns, std::vector<ModelCompletion>* completed) override;
  std::uint64_t NextEventNs() const override;
  std::uint64_t NowNs() const override { return now_ns_; }
  std::size_t InFlight() const override {
    return pending_.size() + solver_.FlowCount() + waiting_count_ + starting_count_;
  }
  // The same bounds as the congestion-unaware model: contention only adds.
  LatencyBounds MinLatency() const override;
  // In flight: its transfer ends no earlier than the next event as the model
  // stands (the earliest finish at today's rates, or the next start), and it
  // is delivered its fixed latency and queueing after that; waiting to
  // start: its start plus the lowest latency of a message between endpoints
  // (of any message, while one to itself waits). The bound holds for what is
  // submitted so far: a message submitted later at t_send s changes the
  // others' deliveries only from s + MinLatency().between_endpoints_ns on
  // (it takes bandwidth from s, and an affected transfer ends after s). One
  // to itself, or of 0 bytes, takes no bandwidth and changes nothing.
  std::uint64_t PendingDeliveryBoundNs() const override;
  // Prices a step from one fluid run at a unit size: rates do not depend on
  // the size, so each flow's transfer scales with it (exactly MessageTimeModel
  // for flows whose rate never changed). Routes are chosen once, in AddStep.
  std::unique_ptr<StepPricer> NewStepPricer() override;

  // Flows transferring now.
  std::size_t ActiveFlows() const { return solver_.FlowCount(); }
  // Messages waiting behind an earlier one of their connection.
  std::size_t WaitingMessages() const { return waiting_count_; }
  // The first violation found by FlowModelOptions::check_invariants (OK if
  // none or if the checks are off).
  const absl::Status& invariants() const { return invariants_; }
  // Starts and finishes processed so far.
  std::uint64_t events() const { return events_; }
  const MaxMinFairSolver& solver() const { return solver_; }
  const StandingQueues& queues() const { return queues_; }

 private:
  class FlowStepPricer;
  // A message waiting for its start time.
  struct Pending {
    ModelMessage message;
    bool operator>(const Pending& other) const;  // later start, then (src, order, id)
  };
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  // ConnectionState::flow of a connection whose message starts this instant.
  static constexpr std::uint32_t kStarting = kNone - 1;
  // A message whose bytes are in flight, by solver flow handle.
  struct Transfer {
    std::uint64_t id = 0;
    std::uint64_t t_send = 0;
    ConnectionTable::Index connection = kNone;  // kNone: ordering by message
    double fixed_plus_queue_ns = 0;  // and the wait behind its connection
    double size = 0;
    double moved = 0;  // bytes moved so far by rate × time (invariant check)
    std::int64_t bound_offset = 0;  // PendingDeliveryBoundNs: t_send - start + round(fixed + queueing)
  };
  // What changes with a transfer's rate (every rate change writes it), by
  // solver flow handle: kept apart from Transfer so that the many flows a
  // solve touches share fewer cache lines.
  struct Progress {
    double remaining = 0;  // bytes, as of updated_ns
    double elapsed = 0;    // transfer time before updated_ns
    double updated_ns = 0;
    double rate = 0;
    // Its time in finishes_: never later than its finish (a lower bound:
    // a rate that falls leaves it there), and exactly its finish when it is
    // the earliest (RepairEarliest). NaN: not in finishes_ yet.
    double queued_finish = std::numeric_limits<double>::quiet_NaN();
    double Finish() const {
      return rate > 0 ? updated_ns + remaining / rate : std::numeric_limits<double>::infinity();
    }
  };

  // A connection (kConnection): the flow carrying its messages now, the
  // messages waiting behind it (a list through waiting_), the fixed latency
  // of its path, and its last delivery.
  struct ConnectionState {
    MaxMinFairSolver::FlowHandle flow = kNone;
    std::uint32_t head = kNone;
    std::uint32_t tail = kNone;
    double fixed_ns = 0;
    std::uint64_t last_deliver_ns = 0;
  };
  // A flow that starts at the open instant, before it joins the solver.
  struct Starting {
    ModelMessage message;
    Path path;
    std::uint32_t class_index = 0;
    double fixed_ns = 0;       // path latencies and queueing
    double path_fixed_ns = 0;  // path latencies
    std::int64_t bound_offset = 0;
    ConnectionTable::Index connection = kNone;
  };
  // A message waiting behind its connection's flow since `start_ns`.
  struct Waiting {
    ModelMessage message;
    std::uint64_t start_ns = 0;
    std::uint32_t next = kNone;
  };

  // Starts `message` at `t` (whole ns): completes it at once, adds its flow,
  // or queues it behind its connection's.
  void Start(const ModelMessage& message, std::uint64_t t,
             std::vector<ModelCompletion>* completed);
  // Queues `message` (started at `t`) behind the flow of `connection`.
  void Wait(ConnectionTable::Index connection, const ModelMessage& message, std::uint64_t t);
  // The flow of `connection` has moved its message's last byte at `at_ns`:
  // starts its next waiting message on it (completing the 0-byte ones).
  // False if none was waiting: the caller removes the flow.
  bool ContinueConnection(ConnectionTable::Index connection, MaxMinFairSolver::FlowHandle flow,
                          double at_ns, std::vector<ModelCompletion>* completed);
  // Adds the flow of `starting`, started at `t`, to the solver.
  void AddTransfer(const Starting& starting, std::uint64_t t);
  // Adds the flows of the open instant in (t_send, src, id) order and
  // solves; the instant is over.
  void CloseInstant();
  // The same without the solve (adaptive routing: the caller solves).
  void CloseInstantWithoutSolving();
  // Sets up transfer and progress for `flow`, a message whose bytes start
  // moving at `at_ns`; `bound_offset` is counted in bound_offsets_ already.
  void BeginTransfer(MaxMinFairSolver::FlowHandle flow, const ModelMessage& message,
                     double at_ns, double wait_ns, double fixed_ns, std::int64_t bound_offset,
                     ConnectionTable::Index connection);
  // What PendingDeliveryBoundNs adds to a transfer's end (whole ns): a
  // message sent at `t_send`, started at `start_ns`, with `fixed_ns` of path
  // latency and queueing delivers at t_send - start + round(end + fixed),
  // so at floor(end) + this or later (round(a + b) >= floor(a) + round(b)).
  // Counts it in bound_offsets_.
  std::int64_t AddBoundOffset(std::uint64_t t_send, std::uint64_t start_ns, double fixed_ns);
  // `completion` with its t_deliver raised to its connection's last, which
  // it becomes (kNone: as is).
  ModelCompletion InOrder(ConnectionTable::Index connection, ModelCompletion completion);
  // Starts every queued message due at `t`, then solves.
  void StartDue(std::uint64_t t, std::vector<ModelCompletion>* completed);
  // Completes every flow whose transfer ends by `t` (+ a rounding slack).
  void FinishDue(double t, std::vector<ModelCompletion>* completed);
  // Solves and moves every flow whose rate changed at time `t`.
  void SolveAt(double t);
  // Brings the earliest entry of finishes_ to its flow's finish until it is
  // exact (each entry is a lower bound), so that top() is the next finish.
  void RepairEarliest();
  void CheckInvariants();

  const Topology& topology_;
  FlowModelOptions flow_options_;
  MessageOrdering ordering_;
  TrafficClassTable classes_;
  RoutingPtr routing_;
  bool adaptive_;  // routing reads the load: solve after each start
  MessageTimeModel time_model_;
  MaxMinFairSolver solver_;
  std::vector<std::uint64_t> start_ns_;  // by flow handle
  StandingQueues queues_;
  std::vector<Transfer> transfers_;  // by flow handle
  std::vector<Progress> progress_;   // by flow handle
  std::unique_ptr<internal::IndexedMinHeap> finishes_;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> pending_;
  std::map<std::int64_t, std::uint32_t> bound_offsets_;  // offset -> flows with it
  std::size_t pending_to_itself_ = 0;  // in pending_, src == dst
  ConnectionTable connections_;
  std::vector<ConnectionState> connection_state_;  // by ConnectionTable index
  std::vector<Waiting> waiting_;  // a pool: lists of waiting messages, and free slots
  std::uint32_t free_waiting_ = kNone;  // the free slots of waiting_, a list
  std::size_t waiting_count_ = 0;
  // The instant whose starts have not joined the solver (kNoEvent: none),
  // and those starts: the first starting_count_ of starting_ (the rest keep
  // their paths' storage for reuse).
  std::uint64_t open_instant_ = kNoEvent;
  std::vector<Starting> starting_;
  std::size_t starting_count_ = 0;
  std::uint64_t now_ns_ = 0;
  std::uint64_t events_ = 0;
  absl::Status invariants_;
  Path path_;  // scratch
  mutable std::optional<LatencyBounds> bounds_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_FLOW_NETWORK_MODEL_H_
