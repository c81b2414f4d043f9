#include "trestle/fabric/flow_network_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

#include "common/text.h"
#include "model/indexed_min_heap.h"

namespace trestle::fabric {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Transfers that end within this of the earliest one end with it: one solve
// instead of many for flows that finish together up to rounding.
double FinishSlack(double t) { return std::max(1e-6, t * 1e-12); }

MaxMinFairSolver::Options SolverOptions(const FlowModelOptions& flow) {
  MaxMinFairSolver::Options options;
  options.sharing = flow.congestion_control ? MaxMinFairSolver::Sharing::kEndToEnd
                                            : MaxMinFairSolver::Sharing::kUpstream;
  options.classes = flow.classes.Shares();
  return options;
}

}  // namespace

bool FlowNetworkModel::Pending::operator>(const Pending& other) const {
  if (message.t_send_ns != other.message.t_send_ns) {
    return message.t_send_ns > other.message.t_send_ns;
  }
  if (message.src != other.message.src) return message.src > other.message.src;
  if (message.order != other.message.order) return message.order > other.message.order;
  return message.id > other.message.id;
}

FlowNetworkModel::FlowNetworkModel(const Topology& topology, const NetworkModelOptions& options)
    : topology_(topology),
      flow_options_(options.flow),
      ordering_(options.ordering),
      classes_(options.flow.classes),
      routing_(MakeRouting(options.routing, topology, options.seed, &queues_,
                           options.path_choice())),
      adaptive_(options.routing == RoutingKind::kAdaptive),
      time_model_(topology, MessageTimeModel::Options{options.endpoint_delay}),
      solver_(
          topology.LinkIdCount(),
          [&topology](MaxMinFairSolver::ResourceId link) {
            return topology.PropertiesOf(link).bandwidth.bytes_per_ns();
          },
          SolverOptions(options.flow)),
      queues_(solver_, topology, start_ns_,
              StandingQueues::Options{options.flow.congestion_control,
                                      options.flow.classes.Shares(), options.flow.queues,
                                      options.seed}),
      finishes_(std::make_unique<internal::IndexedMinHeap>()) {}

FlowNetworkModel::~FlowNetworkModel() = default;

void FlowNetworkModel::Submit(const ModelMessage& message,
                              std::vector<ModelCompletion>* completed) {
  if (message.t_send_ns > now_ns_) {
    pending_.push(Pending{message});
    if (message.src == message.dst) ++pending_to_itself_;
    return;
  }
  Start(message, now_ns_, completed);
  if (adaptive_) SolveAt(static_cast<double>(now_ns_));
}

void FlowNetworkModel::Start(const ModelMessage& message, std::uint64_t t,
                             std::vector<ModelCompletion>* completed) {
  ++events_;
  ConnectionTable::Index connection = kNone;
  // A message to itself crosses no link and never waits.
  if (ordering_ == MessageOrdering::kConnection && message.src != message.dst) {
    connection = connections_.IndexOf(message.src, message.dst, message.tclass);
    if (connection >= connection_state_.size()) connection_state_.resize(connection + 1);
    if (connection_state_[connection].flow != kNone) {
      Wait(connection, message, t);
      return;
    }
  }
  const std::uint32_t class_index = classes_.IndexOf(message.tclass);
  routing_->Route(message.src, message.dst, message.tclass, &path_);
  const PathProfile profile = time_model_.Profile(path_);
  // Exactly profile.fixed_ns on an idle path (x + 0.0 == x).
  const double fixed = profile.fixed_ns + queues_.PathDelayNs(path_, class_index, t, message);
  if (path_.Empty() || message.size_bytes == 0) {
    completed->push_back(
        InOrder(connection, ModelCompletion{message.id, message.t_send_ns, fixed, false}));
    return;
  }
  if (starting_count_ == starting_.size()) starting_.emplace_back();
  Starting& starting = starting_[starting_count_++];
  starting.message = message;
  std::swap(starting.path, path_);  // path_ takes the old storage for reuse
  starting.class_index = class_index;
  starting.fixed_ns = fixed;
  starting.path_fixed_ns = profile.fixed_ns;
  starting.bound_offset = AddBoundOffset(message.t_send_ns, t, fixed);
  starting.connection = connection;
  if (connection != kNone) connection_state_[connection].flow = kStarting;
  open_instant_ = t;
  // Adaptive routing must see the flows that started before it at this
  // instant: its flow joins the solver now (the caller solves).
  if (adaptive_) CloseInstantWithoutSolving();
}

void FlowNetworkModel::AddTransfer(const Starting& starting, std::uint64_t t) {
  const MaxMinFairSolver::FlowHandle flow =
      solver_.AddFlow(starting.path.Links(), starting.class_index);
  if (flow >= transfers_.size()) {
    transfers_.resize(flow + 1);
    progress_.resize(flow + 1);
    start_ns_.resize(flow + 1);
  }
  start_ns_[flow] = t;
  BeginTransfer(flow, starting.message, static_cast<double>(t), 0.0, starting.fixed_ns,
                starting.bound_offset, starting.connection);
  if (starting.connection != kNone) {
    connection_state_[starting.connection].flow = flow;
    connection_state_[starting.connection].fixed_ns = starting.path_fixed_ns;
  }
}

void FlowNetworkModel::CloseInstantWithoutSolving() {
  const auto first = starting_.begin();
  const auto end = first + static_cast<std::ptrdiff_t>(starting_count_);
  std::sort(first, end, [](const Starting& a, const Starting& b) {
    return std::tie(a.message.t_send_ns, a.message.src, a.message.order, a.message.id) <
           std::tie(b.message.t_send_ns, b.message.src, b.message.order, b.message.id);
  });
  for (auto it = first; it != end; ++it) AddTransfer(*it, open_instant_);
  starting_count_ = 0;
  open_instant_ = kNoEvent;
}

void FlowNetworkModel::CloseInstant() {
  const double t = static_cast<double>(open_instant_);
  CloseInstantWithoutSolving();
  SolveAt(t);
}

std::int64_t FlowNetworkModel::AddBoundOffset(std::uint64_t t_send, std::uint64_t start_ns,
                                              double fixed_ns) {
  const std::int64_t offset = static_cast<std::int64_t>(t_send) -
                              static_cast<std::int64_t>(start_ns) + std::llround(fixed_ns);
  ++bound_offsets_[offset];
  return offset;
}

void FlowNetworkModel::BeginTransfer(MaxMinFairSolver::FlowHandle flow,
                                     const ModelMessage& message, double at_ns, double wait_ns,
                                     double fixed_ns, std::int64_t bound_offset,
                                     ConnectionTable::Index connection) {
  Transfer& transfer = transfers_[flow];
  transfer = Transfer{};
  transfer.id = message.id;
  transfer.t_send = message.t_send_ns;
  transfer.connection = connection;
  // Exactly fixed_ns when it did not wait (0.0 + x == x).
  transfer.fixed_plus_queue_ns = wait_ns + fixed_ns;
  transfer.size = static_cast<double>(message.size_bytes);
  transfer.bound_offset = bound_offset;
  Progress& progress = progress_[flow];
  progress = Progress{};
  progress.remaining = transfer.size;
  progress.updated_ns = at_ns;
}

void FlowNetworkModel::SolveAt(double t) {
  solver_.Solve();
  const bool check = flow_options_.check_invariants;
  for (MaxMinFairSolver::FlowHandle flow : solver_.Changed()) {
    Progress& x = progress_[flow];
    if (t > x.updated_ns) {
      const double dt = t - x.updated_ns;
      x.remaining -= x.rate * dt;
      x.elapsed += dt;
      x.updated_ns = t;
      if (check) {
        Transfer& transfer = transfers_[flow];
        transfer.moved += x.rate * dt;
        if (x.remaining < -1e-6 * transfer.size && invariants_.ok()) {
          invariants_ = absl::InternalError(internal::Concat(
              "message ", transfer.id, " moved ", transfer.moved, " of its ", transfer.size,
              " bytes"));
        }
      }
      x.remaining = std::max(x.remaining, 0.0);
    }
    x.rate = solver_.Rate(flow);
    // A finish that moves later keeps its earlier place in the heap (a
    // lower bound, repaired when it comes to the top): most rate changes
    // then cost no heap operation.
    const double finish = x.Finish();
    if (!(finish >= x.queued_finish)) {  // earlier, or not queued (NaN)
      finishes_->Set(flow, finish);
      x.queued_finish = finish;
    }
  }
  RepairEarliest();
  if (check) CheckInvariants();
}

void FlowNetworkModel::RepairEarliest() {
  while (!finishes_->empty()) {
    const MaxMinFairSolver::FlowHandle flow = finishes_->top().item;
    Progress& x = progress_[flow];
    const double finish = x.Finish();
    if (finishes_->top().time == finish) return;
    finishes_->Set(flow, finish);
    x.queued_finish = finish;
  }
}

void FlowNetworkModel::StartDue(std::uint64_t t, std::vector<ModelCompletion>* completed) {
  while (!pending_.empty() && pending_.top().message.t_send_ns == t) {
    const ModelMessage message = pending_.top().message;
    pending_.pop();
    if (message.src == message.dst) --pending_to_itself_;
    Start(message, t, completed);
    if (adaptive_) SolveAt(static_cast<double>(t));
  }
}

void FlowNetworkModel::FinishDue(double t, std::vector<ModelCompletion>* completed) {
  const double until = t + FinishSlack(t);
  while (!finishes_->empty() && finishes_->top().time <= until) {
    const MaxMinFairSolver::FlowHandle flow = finishes_->top().item;
    finishes_->Remove(flow);
    RepairEarliest();
    ++events_;
    const Transfer& x = transfers_[flow];
    const Progress& p = progress_[flow];
    const double transfer_ns = p.elapsed + p.remaining / p.rate;
    if (flow_options_.check_invariants && invariants_.ok() &&
        std::abs(x.moved + p.remaining - x.size) > 1e-9 * x.size) {
      invariants_ = absl::InternalError(internal::Concat(
          "message ", x.id, " delivered ", x.moved + p.remaining, " of ", x.size, " bytes"));
    }
    const ConnectionTable::Index connection = x.connection;
    completed->push_back(InOrder(
        connection, ModelCompletion{x.id, x.t_send, x.fixed_plus_queue_ns + transfer_ns, false}));
    if (auto it = bound_offsets_.find(x.bound_offset); --it->second == 0) {
      bound_offsets_.erase(it);
    }
    if (connection == kNone ||
        !ContinueConnection(connection, flow, p.updated_ns + p.remaining / p.rate, completed)) {
      solver_.RemoveFlow(flow);
    }
  }
  SolveAt(t);
}

void FlowNetworkModel::AdvanceTo(std::uint64_t t_ns, std::vector<ModelCompletion>* completed) {
  const auto until = static_cast<double>(t_ns);
  while (true) {
    const double finish = finishes_->empty() ? kInfinity : finishes_->top().time;
    const double start = pending_.empty()
                             ? kInfinity
                             : static_cast<double>(pending_.top().message.t_send_ns);
    if (open_instant_ != kNoEvent && std::min(finish, start) > static_cast<double>(open_instant_)) {
      // Nothing else happens at the open instant: it is over once the clock
      // moves past it (more starts may still come at it until then).
      if (static_cast<double>(open_instant_) >= until) break;
      CloseInstant();
      continue;
    }
    if (finish <= start) {
      if (finish > until) break;
      FinishDue(finish, completed);
    } else {
      if (start > until) break;
      StartDue(pending_.top().message.t_send_ns, completed);
    }
  }
  now_ns_ = std::max(now_ns_, t_ns);
}

std::uint64_t FlowNetworkModel::NextEventNs() const {
  std::uint64_t next = kNoEvent;
  if (!finishes_->empty() && std::isfinite(finishes_->top().time)) {
    next = static_cast<std::uint64_t>(std::ceil(finishes_->top().time));
  }
  if (!pending_.empty()) next = std::min(next, pending_.top().message.t_send_ns);
  // The open instant's flows join the solver just after it.
  if (open_instant_ != kNoEvent) next = std::min(next, open_instant_ + 1);
  return next;
}

LatencyBounds FlowNetworkModel::MinLatency() const {
  if (!bounds_) bounds_ = IdleLatencyBounds(topology_, time_model_.options().endpoint_overhead.ns());
  return *bounds_;
}

std::uint64_t FlowNetworkModel::PendingDeliveryBoundNs() const {
  std::uint64_t bound = kNoEvent;
  const double next_start = pending_.empty()
                                ? kInfinity
                                : static_cast<double>(pending_.top().message.t_send_ns);
  if (!bound_offsets_.empty()) {
    // Rates change only at a start or a finish: no transfer ends before the
    // earliest entry of finishes_ (each is a lower bound on its flow's end)
    // or the next start. A transfer ending at e delivers at e + its offset
    // or later (round(a + b) >= round(a) + floor(b)).
    double ends = std::min(finishes_->empty() ? kInfinity : finishes_->top().time, next_start);
    // The open instant's flows have no finish yet, and its end moves the
    // others' rates: none ends before it.
    if (open_instant_ != kNoEvent) ends = std::min(ends, static_cast<double>(open_instant_));
    if (!std::isfinite(ends)) ends = static_cast<double>(now_ns_);
    const std::int64_t at = static_cast<std::int64_t>(std::floor(std::max(ends, 0.0))) +
                            bound_offsets_.begin()->first;
    bound = static_cast<std::uint64_t>(std::max<std::int64_t>(at, 0));
  }
  if (!pending_.empty()) {
    // The earliest start, plus the lowest latency of what may start then.
    const LatencyBounds min = MinLatency();
    const double latency =
        pending_to_itself_ > 0 || !std::isfinite(min.between_endpoints_ns)
            ? min.AnyMessageNs()
            : min.between_endpoints_ns;
    bound = std::min(bound, pending_.top().message.t_send_ns +
                                static_cast<std::uint64_t>(std::llround(latency)));
  }
  return bound;
}

void FlowNetworkModel::CheckInvariants() {
  if (!invariants_.ok()) return;
  invariants_ = solver_.CheckCapacity();
  if (invariants_.ok()) invariants_ = solver_.CheckFixedPoint();
}

// Runs each step once, at one byte per flow, and keeps for every flow its
// fixed latency and how its transfer scales with the size.
class FlowNetworkModel::FlowStepPricer final : public StepPricer {
 public:
  explicit FlowStepPricer(FlowNetworkModel& model) : model_(model) {}

  std::size_t AddStep(const std::vector<StepFlow>& flows) override {
    MaxMinFairSolver& solver = model_.solver_;
    std::vector<Price> prices;
    running_.clear();
    for (const StepFlow& flow : flows) {
      model_.routing_->Route(flow.src, flow.dst, flow.tclass, &path_);
      const double fixed = model_.time_model_.Profile(path_).fixed_ns;
      if (path_.Empty()) {
        prices.push_back(Price{fixed, 0, 0});
        continue;
      }
      const MaxMinFairSolver::FlowHandle handle =
          solver.AddFlow(path_.Links(), model_.classes_.IndexOf(flow.tclass));
      if (handle >= model_.start_ns_.size()) model_.start_ns_.resize(handle + 1);
      model_.start_ns_[handle] = 0;
      running_.push_back(Running{handle, fixed, 1.0, 0, true});
      if (model_.adaptive_) solver.Solve();
    }
    solver.Solve();
    // The fluid run at one byte each: to the next transfer end, again and again.
    double t = 0;
    for (Running& r : running_) r.rate = solver.Rate(r.handle);
    while (!running_.empty()) {
      double step = kInfinity;
      for (const Running& r : running_) step = std::min(step, r.remaining / r.rate);
      t += step;
      const double done_below = 1e-12;
      for (std::size_t i = 0; i < running_.size();) {
        Running& r = running_[i];
        r.remaining -= r.rate * step;
        if (r.remaining > done_below) {
          ++i;
          continue;
        }
        // Alone for its whole transfer: keep the rate, priced as size / rate.
        prices.push_back(r.single ? Price{r.fixed, r.rate, 0} : Price{r.fixed, 0, t});
        solver.RemoveFlow(r.handle);
        running_[i] = running_.back();
        running_.pop_back();
      }
      solver.Solve();
      for (Running& r : running_) {
        const double rate = solver.Rate(r.handle);
        if (rate != r.rate) r.single = false;
        r.rate = rate;
      }
    }
    std::sort(prices.begin(), prices.end());
    prices.erase(std::unique(prices.begin(), prices.end()), prices.end());
    steps_.push_back(std::move(prices));
    return steps_.size() - 1;
  }

  double StepTimeNs(std::size_t step, std::uint64_t bytes) override {
    double slowest = 0;
    const auto size = static_cast<double>(bytes);
    for (const Price& p : steps_[step]) {
      double time = p.fixed_ns;
      if (bytes > 0 && p.rate > 0) time = p.fixed_ns + size / p.rate;
      if (bytes > 0 && p.ns_per_byte > 0) time = p.fixed_ns + size * p.ns_per_byte;
      slowest = std::max(slowest, time);
    }
    return slowest;
  }

 private:
  // One flow's price: fixed + size / rate (rate > 0), or fixed + size ×
  // ns_per_byte, or fixed alone (a message to itself).
  struct Price {
    double fixed_ns;
    double rate;
    double ns_per_byte;
    bool operator<(const Price& o) const {
      return std::tie(fixed_ns, rate, ns_per_byte) < std::tie(o.fixed_ns, o.rate, o.ns_per_byte);
    }
    bool operator==(const Price& o) const {
      return fixed_ns == o.fixed_ns && rate == o.rate && ns_per_byte == o.ns_per_byte;
    }
  };
  struct Running {
    MaxMinFairSolver::FlowHandle handle;
    double fixed;
    double remaining;
    double rate;
    bool single;
  };

  FlowNetworkModel& model_;
  Path path_;
  std::vector<Running> running_;
  std::vector<std::vector<Price>> steps_;
};

std::unique_ptr<StepPricer> FlowNetworkModel::NewStepPricer() {
  return std::make_unique<FlowStepPricer>(*this);
}

}  // namespace trestle::fabric
