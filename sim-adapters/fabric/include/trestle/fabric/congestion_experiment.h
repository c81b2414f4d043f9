// CongestionExperiment: how much an aggressor job slows a victim job on the
// same network, in the flow model (FlowNetworkModel) - the measurement behind
// `trestle-sim congestion`, after GPCNeT's congestion impact.
//
// The endpoints are split between the jobs (NodeAllocation). The victim
// (VictimSpec) runs its iterations twice: alone, then with the aggressor
// (AggressorSpec) running beside it from `warmup_ns` earlier (its flows are
// then established, with their queues). The same samples are taken both
// times, and
//   latency victims    impact = congested ÷ alone, of the mean and of the
//                      99th percentile of the samples (times);
//   bandwidth victims  impact = alone ÷ congested, of the mean and of the
//                      1st percentile of the samples (bandwidths: the
//                      slowest 1 %).
// So an impact of 1 means no effect, 2 twice as slow. Deterministic for a
// given seed (the allocation's shuffle and the routing's choices).
//
// Traffic classes: with separate_classes the victim sends in tclass 1 and the
// aggressor in tclass 2 (each weight 1 unless `classes` configures them);
// otherwise both send in tclass 0.
//
// Iterations: 0 picks the victim's default (allreduce 50, ring-latency 20,
// ring-bw 10, alltoall 1), so that every run has enough samples.
//
// Cost: one flow-model event per message start and finish; the aggressor
// keeps one message per rank in flight for as long as the victim runs.
#ifndef TRESTLE_FABRIC_CONGESTION_EXPERIMENT_H_
#define TRESTLE_FABRIC_CONGESTION_EXPERIMENT_H_

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "trestle/fabric/congestion_workload.h"
#include "trestle/fabric/duration.h"
#include "trestle/fabric/node_allocation.h"
#include "trestle/fabric/queue_model_options.h"
#include "trestle/fabric/routing.h"
#include "trestle/fabric/topology.h"
#include "trestle/fabric/traffic_class_table.h"

namespace trestle::fabric {

struct CongestionOptions {
  VictimSpec victim;
  AggressorSpec aggressor;
  NodeSplit split;
  AllocationKind allocation = AllocationKind::kLinear;
  bool congestion_control = true;
  bool separate_classes = false;
  // Weights and minimums of tclass 1 (victim) and 2 (aggressor), and any other.
  TrafficClassTable classes;
  // The flow model's queues.
  QueueModelOptions queues;
  RoutingKind routing = RoutingKind::kMinimal;
  std::uint64_t seed = 1;
  Duration endpoint_delay;
  // Victim iterations; 0: its default (allreduce 50, ring-latency 20,
  // ring-bw 10, alltoall 1: V - 1 samples each).
  std::uint32_t iterations = 0;
  std::uint64_t warmup_ns = 20000;
  // FlowModelOptions::check_invariants for both runs (slow; for tests).
  bool check_invariants = false;
};

struct CongestionResult {
  std::size_t victim_endpoints = 0;
  std::size_t aggressor_endpoints = 0;
  std::uint32_t iterations = 0;
  // Per sample: ns for latency victims, bytes/ns for bandwidth victims.
  std::vector<double> alone;
  std::vector<double> congested;
  // Mean and tail of each: the 99th percentile of latencies, the 1st of
  // bandwidths (nearest rank).
  double alone_mean = 0, alone_tail = 0;
  double congested_mean = 0, congested_tail = 0;
  double impact_mean = 0;
  double impact_p99 = 0;
  std::uint64_t events = 0;             // flow-model starts and finishes, both runs
  std::uint64_t approximate_solves = 0;  // MaxMinFairSolver::approximate_solves, both runs
};

class CongestionExperiment {
 public:
  static constexpr TrafficClass kVictimClass = 1;
  static constexpr TrafficClass kAggressorClass = 2;

  // Called with "alone" and then "congested" as each run begins.
  using Progress = std::function<void(std::string_view phase)>;

  // Errors: the split leaves a job fewer than 2 endpoints; a model invariant
  // broken (with check_invariants).
  static absl::StatusOr<CongestionResult> Run(const Topology& topology,
                                              const CongestionOptions& options,
                                              const Progress& progress = {});
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_CONGESTION_EXPERIMENT_H_
