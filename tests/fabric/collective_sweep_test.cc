// CollectiveSchedule and CollectiveSweep: step structure, and the regime the
// issue's walkthrough shows (ring ~2x faster than a switch when latency-
// bound, ~1x when bandwidth-bound).
#include <gtest/gtest.h>

#include "path_check.h"
#include "trestle/fabric/collective_schedule.h"
#include "trestle/fabric/collective_sweep.h"

namespace trestle::fabric {
namespace {

std::vector<double> Sweep(const std::string& spec, Collective collective,
                          CollectiveAlgorithm algorithm, const std::vector<std::uint64_t>& sizes,
                          SweepOptions options = {}) {
  TopologyPtr t = MustBuild(spec);
  absl::StatusOr<CollectiveSchedule> schedule =
      CollectiveSchedule::Build(collective, algorithm, t->EndpointCount());
  EXPECT_TRUE(schedule.ok()) << schedule.status();
  absl::StatusOr<std::vector<double>> times = CollectiveSweep::Run(*t, *schedule, sizes, options);
  EXPECT_TRUE(times.ok()) << times.status();
  return *times;
}

TEST(CollectiveScheduleTest, StepCounts) {
  auto steps = [](Collective c, CollectiveAlgorithm a, std::uint32_t n) {
    absl::StatusOr<CollectiveSchedule> schedule = CollectiveSchedule::Build(c, a, n);
    std::uint32_t total = 0;
    for (const CollectiveStep& s : schedule->steps()) total += s.repeat;
    return total;
  };
  EXPECT_EQ(steps(Collective::kAllReduce, CollectiveAlgorithm::kRing, 8), 14u);
  EXPECT_EQ(steps(Collective::kAllReduce, CollectiveAlgorithm::kHalvingDoubling, 8), 6u);
  EXPECT_EQ(steps(Collective::kAllGather, CollectiveAlgorithm::kDirect, 8), 7u);
  EXPECT_EQ(steps(Collective::kAllToAll, CollectiveAlgorithm::kRing, 8), 7u);
  EXPECT_FALSE(
      CollectiveSchedule::Build(Collective::kAllReduce, CollectiveAlgorithm::kHalvingDoubling, 6)
          .ok());
}

TEST(CollectiveSweepTest, RingAllReduceOnRingMatchesTheClosedForm) {
  // 2(N-1) steps of S/N, one 500 ns hop each: 14 × (500 + S/8/50).
  std::vector<double> t = Sweep("ring:8,link_bw=400Gbps,link_latency=500ns",
                                Collective::kAllReduce, CollectiveAlgorithm::kRing, {16384});
  EXPECT_DOUBLE_EQ(t[0], 14 * (500 + 2048 / 50.0));
}

TEST(CollectiveSweepTest, RingBeatsSwitchTwofoldWhenLatencyBoundAndTiesWhenBandwidthBound) {
  const std::vector<std::uint64_t> sizes = {16 << 10, 16 << 20};
  std::vector<double> on_switch = Sweep("switch:8,link_bw=400Gbps,link_latency=500ns",
                                        Collective::kAllReduce, CollectiveAlgorithm::kRing, sizes);
  std::vector<double> on_ring = Sweep("ring:8,link_bw=400Gbps,link_latency=500ns",
                                      Collective::kAllReduce, CollectiveAlgorithm::kRing, sizes);
  double latency_bound = on_switch[0] / on_ring[0];
  double bandwidth_bound = on_switch[1] / on_ring[1];
  EXPECT_GT(latency_bound, 1.8);
  EXPECT_LT(latency_bound, 2.0);
  EXPECT_GT(bandwidth_bound, 1.0);
  EXPECT_LT(bandwidth_bound, 1.05);
}

TEST(CollectiveSweepTest, EndpointDelayReduceBandwidthAndChunksAddUp) {
  const std::string spec = "ring:4,link_bw=400Gbps,link_latency=500ns";
  SweepOptions options;
  options.endpoint_delay = Duration::Nanoseconds(10);
  options.reduce_bandwidth = Bandwidth::BytesPerNs(100);
  // Reduce-scatter: 3 steps of 1000 B: (10 + 500 + 1000/50 + 1000/100) each.
  EXPECT_DOUBLE_EQ(Sweep(spec, Collective::kReduceScatter, CollectiveAlgorithm::kRing, {4000},
                         options)[0],
                   3 * (10 + 500 + 20 + 10));
  options.chunks = 2;  // Twice the fixed costs, same bandwidth terms.
  EXPECT_DOUBLE_EQ(Sweep(spec, Collective::kReduceScatter, CollectiveAlgorithm::kRing, {4000},
                         options)[0],
                   2 * 3 * (10 + 500 + 10 + 5));
}

TEST(CollectiveSweepTest, TooManyRanksIsAnError) {
  TopologyPtr t = MustBuild("ring:4");
  absl::StatusOr<CollectiveSchedule> schedule =
      CollectiveSchedule::Build(Collective::kAllReduce, CollectiveAlgorithm::kRing, 8);
  EXPECT_FALSE(CollectiveSweep::Run(*t, *schedule, {1024}, {}).ok());
}

TEST(CollectiveSweepTest, EveryAlgorithmAndCollectiveRunsOnADragonfly) {
  for (Collective c : {Collective::kAllReduce, Collective::kAllGather, Collective::kReduceScatter,
                       Collective::kAllToAll}) {
    for (CollectiveAlgorithm a : {CollectiveAlgorithm::kRing, CollectiveAlgorithm::kHalvingDoubling,
                                  CollectiveAlgorithm::kDirect}) {
      std::vector<double> t = Sweep("slingshot-1k", c, a, {1 << 10, 1 << 20});
      EXPECT_GT(t[0], 0);
      EXPECT_GT(t[1], t[0]);
    }
  }
}

TEST(CollectiveSweepTest, TheFlowModelShowsTheCostOfAnAllToAllOnAnOversubscribedFatTree) {
  // fattree:k=4,oversub=2: 4 endpoints and 2 up links per edge switch. In
  // most direct all-to-all steps all 4 endpoints of an edge send off it, so
  // its 2 up links carry 2 flows each: bandwidth-bound, at least ~2x the
  // congestion-unaware time, which prices every message alone.
  const std::string spec = "fattree:k=4,oversub=2";
  const std::vector<std::uint64_t> sizes = {16u << 20};
  SweepOptions flow;
  flow.model = NetworkModelKind::kFlow;
  const double unaware_ns =
      Sweep(spec, Collective::kAllToAll, CollectiveAlgorithm::kDirect, sizes)[0];
  const double flow_ns =
      Sweep(spec, Collective::kAllToAll, CollectiveAlgorithm::kDirect, sizes, flow)[0];
  EXPECT_GT(flow_ns, 1.9 * unaware_ns) << unaware_ns << " ns unaware";
}

}  // namespace
}  // namespace trestle::fabric
