#include "trestle/fabric/congestion_experiment.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/status/status.h"
#include "common/text.h"
#include "trestle/fabric/flow_network_model.h"
#include "trestle/fabric/network_model_factory.h"
#include "trestle/fabric/sample_statistics.h"

namespace trestle::fabric {
namespace {

constexpr std::uint64_t kVictimBit = std::uint64_t{1} << 63;
constexpr int kRankBits = 24;  // message ids: (sequence << kRankBits) | rank
constexpr std::uint64_t kRankMask = (std::uint64_t{1} << kRankBits) - 1;
// A run that needs more events than this has gone wrong.
constexpr std::uint64_t kMaxEvents = 200'000'000;

std::uint32_t DefaultIterations(VictimSpec::Kind kind) {
  switch (kind) {
    case VictimSpec::Kind::kAllReduce: return 50;
    case VictimSpec::Kind::kRingLatency: return 20;
    case VictimSpec::Kind::kRingBandwidth: return 10;
    case VictimSpec::Kind::kAllToAll: return 1;
  }
  return 1;
}

// One run: the victim's iterations, with or without the aggressor.
class JobRun {
 public:
  JobRun(const Topology& topology, const CongestionOptions& options,
         const NodeAllocation& allocation, const TrafficClassTable& classes, bool with_aggressor)
      : options_(options),
        allocation_(allocation),
        with_aggressor_(with_aggressor),
        victim_class_(options.separate_classes ? CongestionExperiment::kVictimClass : 0),
        aggressor_class_(options.separate_classes ? CongestionExperiment::kAggressorClass : 0),
        iterations_(options.iterations > 0 ? options.iterations
                                           : DefaultIterations(options.victim.kind)) {
    NetworkModelOptions model{options.routing, options.seed, options.endpoint_delay};
    model.flow.congestion_control = options.congestion_control;
    model.flow.classes = classes;
    model.flow.queues = options.queues;
    model.flow.check_invariants = options.check_invariants;
    model_ = std::make_unique<FlowNetworkModel>(topology, model);
    const auto v = static_cast<std::uint32_t>(allocation.victims.size());
    switch (options.victim.kind) {
      case VictimSpec::Kind::kAllReduce:
        for (std::uint32_t shift = 1; shift < v; shift *= 2) shifts_.push_back(shift);
        break;
      case VictimSpec::Kind::kRingLatency:
      case VictimSpec::Kind::kRingBandwidth:
        shifts_.push_back(1);
        break;
      case VictimSpec::Kind::kAllToAll:
        for (std::uint32_t shift = 1; shift < v; ++shift) shifts_.push_back(shift);
        break;
    }
    next_partner_.assign(allocation.aggressors.size(), 0);
  }

  absl::StatusOr<std::vector<double>> Run() {
    if (with_aggressor_) {
      for (std::uint32_t rank = 0; rank < allocation_.aggressors.size(); ++rank) {
        SendAggressor(rank, 0);
      }
    }
    StartStep(with_aggressor_ ? options_.warmup_ns : 0);
    std::vector<ModelCompletion> completed;
    while (!done_) {
      if (model_->events() > kMaxEvents) {
        return absl::InternalError(internal::Concat("congestion run gave up after ",
                                                    model_->events(), " events"));
      }
      completed.clear();
      model_->AdvanceTo(model_->NextEventNs(), &completed);
      for (const ModelCompletion& c : completed) {
        if (c.id & kVictimBit) {
          VictimArrived(c);
        } else {
          SendAggressor(static_cast<std::uint32_t>(c.id & kRankMask), c.t_deliver_ns());
        }
      }
      if (!model_->invariants().ok()) return model_->invariants();
    }
    return samples_;
  }

  std::uint64_t events() const { return model_->events(); }
  std::uint64_t approximate_solves() const { return model_->solver().approximate_solves(); }

 private:
  void SendAggressor(std::uint32_t rank, std::uint64_t t) {
    const std::vector<NodeId>& ranks = allocation_.aggressors;
    const auto n = static_cast<std::uint32_t>(ranks.size());
    std::uint32_t to = 0;
    if (options_.aggressor.kind == AggressorSpec::Kind::kIncast) {
      if (rank == 0) return;  // the hot spot only receives
    } else {
      next_partner_[rank] = next_partner_[rank] % (n - 1) + 1;  // 1 .. n-1, round robin
      to = (rank + next_partner_[rank]) % n;
    }
    model_->Submit(ModelMessage{(aggressor_seq_++ << kRankBits) | rank, ranks[rank], ranks[to],
                                options_.aggressor.bytes, aggressor_class_, t},
                   &completed_now_);
    Collect();
  }

  void StartStep(std::uint64_t t) {
    const std::vector<NodeId>& ranks = allocation_.victims;
    const auto n = static_cast<std::uint32_t>(ranks.size());
    const std::uint32_t shift = shifts_[step_];
    if (step_ == 0) iteration_start_ = t;
    step_start_ = t;
    step_end_ = t;
    outstanding_ = n;
    ++victim_seq_;
    for (std::uint32_t rank = 0; rank < n; ++rank) {
      model_->Submit(ModelMessage{kVictimBit | (victim_seq_ << kRankBits) | rank, ranks[rank],
                                  ranks[(rank + shift) % n], options_.victim.bytes, victim_class_,
                                  t},
                     &completed_now_);
    }
    Collect();
  }

  // Completions that came during a Submit (messages that need no transfer).
  void Collect() {
    if (completed_now_.empty()) return;
    std::vector<ModelCompletion> now;
    now.swap(completed_now_);
    for (const ModelCompletion& c : now) {
      if (c.id & kVictimBit) VictimArrived(c);
    }
  }

  void VictimArrived(const ModelCompletion& c) {
    const double bytes = static_cast<double>(options_.victim.bytes);
    switch (options_.victim.kind) {
      case VictimSpec::Kind::kRingLatency: samples_.push_back(c.latency_ns); break;
      case VictimSpec::Kind::kRingBandwidth: samples_.push_back(bytes / c.latency_ns); break;
      default: break;
    }
    step_end_ = std::max(step_end_, c.t_deliver_ns());
    if (--outstanding_ > 0) return;
    if (options_.victim.kind == VictimSpec::Kind::kAllToAll) {
      samples_.push_back(bytes / static_cast<double>(std::max<std::uint64_t>(
                                     step_end_ - step_start_, 1)));
    }
    if (++step_ < shifts_.size()) {
      StartStep(step_end_);
      return;
    }
    step_ = 0;
    if (options_.victim.kind == VictimSpec::Kind::kAllReduce) {
      samples_.push_back(static_cast<double>(step_end_ - iteration_start_));
    }
    if (++iteration_ == iterations_) {
      done_ = true;
      return;
    }
    StartStep(step_end_);
  }

  const CongestionOptions& options_;
  const NodeAllocation& allocation_;
  const bool with_aggressor_;
  const TrafficClass victim_class_;
  const TrafficClass aggressor_class_;
  const std::uint32_t iterations_;
  std::unique_ptr<FlowNetworkModel> model_;
  std::vector<std::uint32_t> shifts_;  // the victim's steps: rank r sends to r + shift
  std::vector<std::uint32_t> next_partner_;
  std::vector<ModelCompletion> completed_now_;
  std::uint64_t aggressor_seq_ = 0;
  std::uint64_t victim_seq_ = 0;
  std::size_t step_ = 0;
  std::uint32_t iteration_ = 0;
  std::uint32_t outstanding_ = 0;
  std::uint64_t iteration_start_ = 0;
  std::uint64_t step_start_ = 0;
  std::uint64_t step_end_ = 0;
  bool done_ = false;
  std::vector<double> samples_;
};

}  // namespace

absl::StatusOr<CongestionResult> CongestionExperiment::Run(const Topology& topology,
                                                           const CongestionOptions& options,
                                                           const Progress& progress) {
  absl::StatusOr<NodeAllocation> allocation = NodeAllocation::Make(
      topology.EndpointCount(), options.split, options.allocation, options.seed);
  if (!allocation.ok()) return allocation.status();
  TrafficClassTable classes = options.classes;
  if (options.separate_classes) {
    std::vector<TrafficClassSpec> missing;
    for (TrafficClass tclass : {kVictimClass, kAggressorClass}) {
      if (classes.IndexOf(tclass) == 0) missing.push_back(TrafficClassSpec{tclass, ClassShare{}});
    }
    absl::StatusOr<TrafficClassTable> merged = TrafficClassTable::Merge(classes, missing);
    if (!merged.ok()) return merged.status();
    classes = *std::move(merged);
  }
  CongestionResult result;
  result.victim_endpoints = allocation->victims.size();
  result.aggressor_endpoints = allocation->aggressors.size();
  result.iterations =
      options.iterations > 0 ? options.iterations : DefaultIterations(options.victim.kind);
  for (bool with_aggressor : {false, true}) {
    if (progress) progress(with_aggressor ? "congested" : "alone");
    JobRun run(topology, options, *allocation, classes, with_aggressor);
    absl::StatusOr<std::vector<double>> samples = run.Run();
    if (!samples.ok()) return samples.status();
    (with_aggressor ? result.congested : result.alone) = *std::move(samples);
    result.events += run.events();
    result.approximate_solves += run.approximate_solves();
  }
  const bool latency = options.victim.MeasuresLatency();
  const double tail = latency ? 99 : 1;
  result.alone_mean = Mean(result.alone);
  result.alone_tail = Percentile(result.alone, tail);
  result.congested_mean = Mean(result.congested);
  result.congested_tail = Percentile(result.congested, tail);
  if (latency) {
    result.impact_mean = result.congested_mean / result.alone_mean;
    result.impact_p99 = result.congested_tail / result.alone_tail;
  } else {
    result.impact_mean = result.alone_mean / result.congested_mean;
    result.impact_p99 = result.alone_tail / result.congested_tail;
  }
  return result;
}

}  // namespace trestle::fabric
