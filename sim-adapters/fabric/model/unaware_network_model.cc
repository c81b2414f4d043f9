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
      routing_(MakeRouting(options.routing, topology, options.seed)),
      time_model_(topology, MessageTimeModel::Options{options.endpoint_delay}) {}

void UnawareNetworkModel::Submit(const ModelMessage& message,
                                 std::vector<ModelCompletion>* completed) {
  const double ns =
      time_model_.TimeNs(message.src, message.dst, message.size_bytes, message.tclass, *routing_);
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
