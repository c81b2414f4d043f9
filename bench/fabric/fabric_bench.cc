// Fabric model benchmarks:
//   BM_BuildSlingshot     building the full slingshot preset (279,040 endpoints)
//   BM_DescribeSlingshot  build + link counts + exact hop statistics, as
//                         `trestle-sim fabric describe --topology slingshot`
//   BM_MessageTime        congestion-unaware message-time queries on one core
//                         (route + price), random endpoint pairs
//   BM_ModelSubmit        the same queries through the NetworkModel interface
//                         (UnawareNetworkModel::Submit), as the live adapter
//                         makes them
//   BM_Sweep              5 topologies x 3 algorithms x 11 sizes, allreduce
//   BM_FlowEvent          the flow model (FlowNetworkModel): one flow start and
//                         one finish among 10,000 flows in flight, on
//                         slingshot-1k and on slingshot (279,040 endpoints;
//                         flows over all of it, or among its first 1,024
//                         endpoints), congestion control on and off; counters:
//                         links re-evaluated and rates changed per event
//   BM_FlowSweep          BM_Sweep's topologies 3 (torus, fat tree,
//                         slingshot-1k at 1,024 endpoints) x 3 algorithms
//                         x 11 sizes priced by the flow model (the regime map)
//   BM_CongestionSweep    `trestle-sim congestion --sweep` on slingshot-1k:
//                         4 victims x 2 aggressors x 3 allocations x cc on/off
//
// Run: fabric_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <random>
#include <set>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "trestle/fabric/collective_schedule.h"
#include "trestle/fabric/collective_sweep.h"
#include "trestle/fabric/congestion_experiment.h"
#include "trestle/fabric/flow_network_model.h"
#include "trestle/fabric/hop_statistics.h"
#include "trestle/fabric/message_time_model.h"
#include "trestle/fabric/network_model_factory.h"
#include "trestle/fabric/topology_builder.h"

namespace trestle::fabric {
namespace {

TopologyPtr Build(const std::string& spec) {
  absl::StatusOr<TopologyPtr> t = TopologyBuilder::FromText(spec);
  if (!t.ok()) std::abort();
  return *std::move(t);
}

void BM_BuildSlingshot(benchmark::State& state) {
  for (auto _ : state) {
    TopologyPtr t = Build("slingshot");
    LinkCounts counts = t->CountLinks();
    benchmark::DoNotOptimize(counts);
  }
}
BENCHMARK(BM_BuildSlingshot)->Unit(benchmark::kMillisecond);

void BM_DescribeSlingshot(benchmark::State& state) {
  for (auto _ : state) {
    TopologyPtr t = Build("slingshot");
    LinkCounts counts = t->CountLinks();
    HopStatistics stats = HopStatistics::Compute(*t);
    benchmark::DoNotOptimize(counts);
    benchmark::DoNotOptimize(stats);
  }
}
BENCHMARK(BM_DescribeSlingshot)->Unit(benchmark::kMillisecond);

const char* const kQuerySpecs[] = {"slingshot", "slingshot-1k", "fattree:k=16", "torus:8x8x8",
                                   "switch:64"};

// Random endpoint pairs, drawn up front so the generator is not timed; a
// power of two of them, so a benchmark walks them with a mask.
std::vector<std::pair<NodeId, NodeId>> RandomPairs(const Topology& t) {
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<NodeId> endpoint(0, t.EndpointCount() - 1);
  std::vector<std::pair<NodeId, NodeId>> pairs(1 << 16);
  for (auto& p : pairs) p = {endpoint(rng), endpoint(rng)};
  return pairs;
}

// Every query topology × minimal, valiant and adaptive routing.
void QueryArgs(benchmark::internal::Benchmark* b) {
  b->ArgsProduct({{0, 1, 2, 3, 4},
                  {static_cast<int>(RoutingKind::kMinimal), static_cast<int>(RoutingKind::kValiant),
                   static_cast<int>(RoutingKind::kAdaptive)}});
}

std::string FlowEventLabel(const char* spec, bool cc, NodeId span) {
  std::string label = std::string(spec) + (cc ? " cc on" : " cc off");
  if (span > 0) label += " flows among endpoints 0.." + std::to_string(span - 1);
  return label;
}

// One query = route a random (src, dst) with the given routing and price a
// 64 KiB message.
void BM_MessageTime(benchmark::State& state) {
  TopologyPtr t = Build(kQuerySpecs[state.range(0)]);
  auto kind = static_cast<RoutingKind>(state.range(1));
  state.SetLabel(t->Name() + " " + std::string(RoutingKindName(kind)));
  MessageTimeModel model(*t, {Duration::Nanoseconds(10)});
  RoutingPtr routing = MakeRouting(kind, *t, 1);
  const std::vector<std::pair<NodeId, NodeId>> pairs = RandomPairs(*t);
  std::size_t i = 0;
  double sum = 0;
  for (auto _ : state) {
    const auto& [src, dst] = pairs[i++ & (pairs.size() - 1)];
    sum += model.TimeNs(src, dst, 65536, 0, *routing);
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MessageTime)->Apply(QueryArgs);

// BM_MessageTime's queries as the live adapter makes them: one Submit per
// message into a completion vector that is reused.
void BM_ModelSubmit(benchmark::State& state) {
  TopologyPtr t = Build(kQuerySpecs[state.range(0)]);
  auto kind = static_cast<RoutingKind>(state.range(1));
  state.SetLabel(t->Name() + " " + std::string(RoutingKindName(kind)));
  NetworkModelPtr model =
      MakeNetworkModel(NetworkModelKind::kUnaware, *t, {kind, 1, Duration::Nanoseconds(10)});
  const std::vector<std::pair<NodeId, NodeId>> pairs = RandomPairs(*t);
  std::vector<ModelCompletion> completed;
  std::size_t i = 0;
  double sum = 0;
  for (auto _ : state) {
    const auto& [src, dst] = pairs[i & (pairs.size() - 1)];
    model->Submit(ModelMessage{i++, src, dst, 65536, 0, 0}, &completed);
    sum += completed.back().latency_ns;
    completed.clear();
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ModelSubmit)->Apply(QueryArgs);

// The sweep of part 8: 5 topologies x 3 algorithms x 11 sizes (16KiB..16MiB),
// step by step (the step pricers; dataflow runs every message per size).
void BM_Sweep(benchmark::State& state) {
  const std::vector<std::string> specs = {"switch:64", "ring:64", "torus:4x4x4", "fattree:k=8",
                                          "slingshot-1k"};
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t s = 16 << 10; s <= (16u << 20); s *= 2) sizes.push_back(s);
  SweepOptions options;
  options.timing = SweepTiming::kBulkSynchronous;
  for (auto _ : state) {
    std::size_t points = 0;
    for (const std::string& spec : specs) {
      TopologyPtr t = Build(spec);
      for (CollectiveAlgorithm a : {CollectiveAlgorithm::kRing,
                                    CollectiveAlgorithm::kHalvingDoubling,
                                    CollectiveAlgorithm::kDirect}) {
        absl::StatusOr<CollectiveSchedule> schedule =
            CollectiveSchedule::Build(Collective::kAllReduce, a, t->EndpointCount());
        absl::StatusOr<std::vector<double>> times =
            CollectiveSweep::Run(*t, *schedule, sizes, options);
        points += times->size();
      }
    }
    if (points != 5 * 3 * 11) std::abort();
  }
}
BENCHMARK(BM_Sweep)->Unit(benchmark::kMillisecond);

// 10,000 flows in flight between random endpoints (of the first `span`
// endpoints when span > 0), too big to finish while the benchmark runs;
// each iteration starts one more (64 KiB) and advances the model to its
// finish: two events, each an incremental solve.
void BM_FlowEvent(benchmark::State& state) {
  const char* spec = state.range(0) == 0 ? "slingshot-1k" : "slingshot";
  const bool cc = state.range(1) == 1;
  const auto span = static_cast<NodeId>(state.range(2));
  TopologyPtr t = Build(spec);
  state.SetLabel(FlowEventLabel(spec, cc, span));
  NetworkModelOptions options{RoutingKind::kMinimal, 1, Duration::Nanoseconds(10)};
  options.flow.congestion_control = cc;
  FlowNetworkModel model(*t, options);
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<NodeId> endpoint(0, (span > 0 ? span : t->EndpointCount()) - 1);
  auto pair = [&] {
    while (true) {
      const NodeId src = endpoint(rng), dst = endpoint(rng);
      if (src != dst) return std::make_pair(src, dst);
    }
  };
  std::vector<ModelCompletion> completed;
  std::uint64_t id = 0;
  // 10,000 connections (distinct pairs: a second message of a pair would
  // queue behind the first), started at 0; they join the solver together
  // once the clock moves past that instant.
  std::set<std::pair<NodeId, NodeId>> started;
  while (started.size() < 10000) {
    const auto [src, dst] = pair();
    if (!started.insert({src, dst}).second) continue;
    model.Submit(ModelMessage{id++, src, dst, std::uint64_t{1} << 50, 0, 0}, &completed);
  }
  model.AdvanceTo(model.NextEventNs(), &completed);
  std::vector<std::pair<NodeId, NodeId>> pairs(1 << 12);
  for (auto& p : pairs) {
    do p = pair();
    while (started.contains(p));  // not behind a background flow
  }
  const std::uint64_t evaluations = model.solver().total_evaluations();
  std::uint64_t changed = 0;
  for (auto _ : state) {
    const auto& [src, dst] = pairs[id & (pairs.size() - 1)];
    model.Submit(ModelMessage{id++, src, dst, 65536, 0, model.NowNs()}, &completed);
    model.AdvanceTo(model.NextEventNs(), &completed);  // its instant closes: it starts
    changed += model.solver().Changed().size();
    model.AdvanceTo(model.NextEventNs(), &completed);  // it finishes
    changed += model.solver().Changed().size();
    completed.clear();
  }
  if (model.ActiveFlows() != 10000) state.SkipWithError("a background flow finished");
  const double events = 2.0 * state.iterations();
  state.counters["links_per_event"] =
      static_cast<double>(model.solver().total_evaluations() - evaluations) / events;
  state.counters["rates_changed_per_event"] = static_cast<double>(changed) / events;
  state.SetItemsProcessed(static_cast<std::int64_t>(events));
}
BENCHMARK(BM_FlowEvent)
    ->Args({0, 1, 0})
    ->Args({0, 0, 0})
    ->Args({1, 1, 0})
    ->Args({1, 0, 0})
    ->Args({1, 1, 1024})
    ->Args({1, 0, 1024})
    ->Unit(benchmark::kMicrosecond);

void BM_FlowSweep(benchmark::State& state) {
  const std::vector<std::string> specs = {"torus:8x8x16", "fattree:k=16", "slingshot-1k"};
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t s = 16 << 10; s <= (16u << 20); s *= 2) sizes.push_back(s);
  SweepOptions options;
  options.model = NetworkModelKind::kFlow;
  options.timing = SweepTiming::kBulkSynchronous;
  for (auto _ : state) {
    for (const std::string& spec : specs) {
      TopologyPtr t = Build(spec);
      for (CollectiveAlgorithm a : {CollectiveAlgorithm::kRing,
                                    CollectiveAlgorithm::kHalvingDoubling,
                                    CollectiveAlgorithm::kDirect}) {
        absl::StatusOr<CollectiveSchedule> schedule =
            CollectiveSchedule::Build(Collective::kAllReduce, a, t->EndpointCount());
        absl::StatusOr<std::vector<double>> times =
            CollectiveSweep::Run(*t, *schedule, sizes, options);
        if (!times.ok()) std::abort();
      }
    }
  }
}
BENCHMARK(BM_FlowSweep)->Unit(benchmark::kSecond)->Iterations(1);

void BM_CongestionSweep(benchmark::State& state) {
  TopologyPtr t = Build("slingshot-1k");
  for (auto _ : state) {
    for (const char* victim : {"allreduce:8B", "ring-latency:8B", "ring-bw:128KiB",
                               "alltoall:4KiB"}) {
      for (const char* aggressor : {"incast", "alltoall"}) {
        for (AllocationKind allocation :
             {AllocationKind::kLinear, AllocationKind::kInterleaved, AllocationKind::kRandom}) {
          for (bool cc : {true, false}) {
            CongestionOptions options;
            options.victim = *VictimSpec::Parse(victim);
            options.aggressor = *AggressorSpec::Parse(aggressor);
            options.allocation = allocation;
            options.congestion_control = cc;
            if (!CongestionExperiment::Run(*t, options).ok()) std::abort();
          }
        }
      }
    }
  }
}
BENCHMARK(BM_CongestionSweep)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
}  // namespace trestle::fabric

BENCHMARK_MAIN();
