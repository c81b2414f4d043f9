// Fabric model benchmarks (issue 3, part 8):
//   BM_BuildSlingshot     building the full slingshot preset (279,040 endpoints)
//   BM_DescribeSlingshot  build + link counts + exact hop statistics, as
//                         `trestle-sim fabric describe --topology slingshot`
//   BM_MessageTime        congestion-unaware message-time queries on one core
//                         (route + price), random endpoint pairs
//   BM_ModelSubmit        the same queries through the NetworkModel interface
//                         (UnawareNetworkModel::Submit), as the live adapter
//                         makes them
//   BM_Sweep              5 topologies x 3 algorithms x 11 sizes, allreduce
//
// Run: fabric_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "trestle/fabric/collective_schedule.h"
#include "trestle/fabric/collective_sweep.h"
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

// The sweep of part 8: 5 topologies x 3 algorithms x 11 sizes (16KiB..16MiB).
void BM_Sweep(benchmark::State& state) {
  const std::vector<std::string> specs = {"switch:64", "ring:64", "torus:4x4x4", "fattree:k=8",
                                          "slingshot-1k"};
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t s = 16 << 10; s <= (16u << 20); s *= 2) sizes.push_back(s);
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
            CollectiveSweep::Run(*t, *schedule, sizes, {});
        points += times->size();
      }
    }
    if (points != 5 * 3 * 11) std::abort();
  }
}
BENCHMARK(BM_Sweep)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace trestle::fabric

BENCHMARK_MAIN();
