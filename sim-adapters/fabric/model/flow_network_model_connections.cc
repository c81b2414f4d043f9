// FlowNetworkModel's connections (MessageOrdering::kConnection): messages
// that wait behind the one their connection's flow carries, the flow taken
// over by the next when a message's last byte has left, and deliveries kept
// in order (flow_network_model.h).
#include <algorithm>
#include <cmath>
#include <limits>

#include "model/indexed_min_heap.h"
#include "trestle/fabric/flow_network_model.h"

namespace trestle::fabric {

void FlowNetworkModel::Wait(ConnectionTable::Index connection, const ModelMessage& message,
                            std::uint64_t t) {
  std::uint32_t slot = free_waiting_;
  if (slot == kNone) {
    slot = static_cast<std::uint32_t>(waiting_.size());
    waiting_.emplace_back();
  } else {
    free_waiting_ = waiting_[slot].next;
  }
  waiting_[slot] = Waiting{message, t, kNone};
  ConnectionState& state = connection_state_[connection];
  if (state.tail == kNone) {
    state.head = slot;
  } else {
    waiting_[state.tail].next = slot;
  }
  state.tail = slot;
  ++waiting_count_;
}

bool FlowNetworkModel::ContinueConnection(ConnectionTable::Index connection,
                                          MaxMinFairSolver::FlowHandle flow, double at_ns,
                                          std::vector<ModelCompletion>* completed) {
  ConnectionState& state = connection_state_[connection];
  while (state.head != kNone) {
    const std::uint32_t slot = state.head;
    const Waiting w = waiting_[slot];
    state.head = w.next;
    if (state.head == kNone) state.tail = kNone;
    waiting_[slot].next = free_waiting_;
    free_waiting_ = slot;
    --waiting_count_;
    ++events_;
    path_.Clear();
    for (LinkId link : solver_.PathOf(flow)) path_.Append(link);
    // Its bytes start now, behind the queues other flows keep standing on
    // its path; its own connection's queue holds its own earlier bytes,
    // whose delivery it follows anyway (InOrder), so it does not count.
    const std::uint64_t own_start = start_ns_[flow];
    start_ns_[flow] = std::numeric_limits<std::uint64_t>::max();
    const double queueing = queues_.PathDelayNs(path_, solver_.ClassOf(flow),
                                                static_cast<std::uint64_t>(std::ceil(at_ns)),
                                                w.message);
    start_ns_[flow] = own_start;
    const double wait = std::max(0.0, at_ns - static_cast<double>(w.start_ns));
    if (w.message.size_bytes == 0) {
      completed->push_back(InOrder(
          connection,
          ModelCompletion{w.message.id, w.message.t_send_ns, wait + state.fixed_ns + queueing,
                          false}));
      continue;
    }
    const double fixed = state.fixed_ns + queueing;
    BeginTransfer(flow, w.message, at_ns, wait, fixed,
                  AddBoundOffset(w.message.t_send_ns, w.start_ns, fixed), connection);
    // The flow keeps its rate (until a solve changes it) and its place in
    // the solver: no solve is needed for it.
    Progress& x = progress_[flow];
    x.rate = solver_.Rate(flow);
    x.queued_finish = x.Finish();
    finishes_->Set(flow, x.queued_finish);
    return true;
  }
  state.flow = kNone;
  return false;
}

ModelCompletion FlowNetworkModel::InOrder(ConnectionTable::Index connection,
                                          ModelCompletion completion) {
  if (connection == kNone) return completion;
  ConnectionState& state = connection_state_[connection];
  if (completion.t_deliver_ns() < state.last_deliver_ns) {
    completion.latency_ns = static_cast<double>(state.last_deliver_ns - completion.t_send_ns);
  }
  state.last_deliver_ns = completion.t_deliver_ns();
  return completion;
}

}  // namespace trestle::fabric
