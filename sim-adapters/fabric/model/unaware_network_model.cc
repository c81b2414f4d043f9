#include "trestle/fabric/unaware_network_model.h"

#include <algorithm>


namespace trestle::fabric {

// Routes each step once and keeps only its distinct path profiles: messages
// of the unaware model do not interact, so a step lasts as long as its
// slowest profile, and distinct (fixed, bottleneck) pairs are few.
class UnawareNetworkModel::ProfileStepPricer final : public StepPricer {
 public:
  explicit ProfileStepPricer(UnawareNetworkModel& model) : model_(model) {}

  std::size_t AddStep(const std::vector<StepFlow>& flows) override {
    std::vector<PathProfile> profiles;
    for (const StepFlow& flow : flows) {
      model_.routing_->Route(flow.src, flow.dst, flow.tclass, &path_);
      const PathProfile p = model_.time_model_.Profile(path_);
      const bool seen = std::any_of(profiles.begin(), profiles.end(), [&](const PathProfile& q) {
        return q.fixed_ns == p.fixed_ns && q.bottleneck_bytes_per_ns == p.bottleneck_bytes_per_ns;
      });
      if (!seen) profiles.push_back(p);
    }
    steps_.push_back(std::move(profiles));
    return steps_.size() - 1;
  }

  double StepTimeNs(std::size_t step, std::uint64_t bytes) override {
    double slowest = 0;
    for (const PathProfile& p : steps_[step]) {
      slowest = std::max(slowest, MessageTimeModel::TimeNs(p, bytes));
    }
    return slowest;
  }

 private:
  UnawareNetworkModel& model_;
  Path path_;
  std::vector<std::vector<PathProfile>> steps_;
};

UnawareNetworkModel::UnawareNetworkModel(const Topology& topology,
                                         const NetworkModelOptions& options)
    : topology_(topology),
      ordering_(options.ordering),
      routing_(MakeRouting(options.routing, topology, options.seed, nullptr,
                           options.path_choice())),
      time_model_(topology, MessageTimeModel::Options{options.endpoint_delay}) {}

void UnawareNetworkModel::Submit(const ModelMessage& message,
                                 std::vector<ModelCompletion>* completed) {
  routing_->Route(message.src, message.dst, message.tclass, &path_);
  const PathProfile profile = time_model_.Profile(path_);
  double ns = MessageTimeModel::TimeNs(profile, message.size_bytes);
  // A message to itself never waits: its time is the same whatever came before.
  if (ordering_ == MessageOrdering::kConnection && !path_.Empty()) {
    const ConnectionTable::Index c = connections_.IndexOf(message.src, message.dst, message.tclass);
    if (c >= connection_state_.size()) connection_state_.resize(c + 1);
    ConnectionState& state = connection_state_[c];
    const auto t_send = static_cast<double>(message.t_send_ns);
    const double start = std::max(t_send, state.free_ns);
    state.free_ns = start + (ns - profile.fixed_ns);  // the transfer at the bottleneck
    // Exactly the message's own time when it did not wait (x + 0.0 == x).
    ns += start - t_send;
    ModelCompletion completion{message.id, message.t_send_ns, ns, false};
    if (completion.t_deliver_ns() < state.last_deliver_ns) {
      completion.latency_ns = static_cast<double>(state.last_deliver_ns - message.t_send_ns);
    }
    state.last_deliver_ns = completion.t_deliver_ns();
    completed->push_back(completion);
    return;
  }
  completed->push_back(ModelCompletion{message.id, message.t_send_ns, ns, false});
}

void UnawareNetworkModel::AdvanceTo(std::uint64_t t_ns, std::vector<ModelCompletion>*) {
  now_ns_ = std::max(now_ns_, t_ns);
}

LatencyBounds UnawareNetworkModel::MinLatency() const {
  if (!bounds_) bounds_ = IdleLatencyBounds(topology_, time_model_.options().endpoint_overhead.ns());
  return *bounds_;
}

std::unique_ptr<StepPricer> UnawareNetworkModel::NewStepPricer() {
  return std::make_unique<ProfileStepPricer>(*this);
}

}  // namespace trestle::fabric
