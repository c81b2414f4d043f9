// CollectiveSchedule and CollectiveSweep: step structure and exact message
// sizes, the regime the walkthrough shows (ring ~2x faster than a
// switch when latency-bound, ~1x when bandwidth-bound), and dataflow timing
// (each rank at its own pace) against bulk-synchronous steps, by hand.
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
  // 2(N-1) steps of S/N, one 500 ns hop each: 14 × (500 + S/8/50); live
  // ranks (dataflow) see each delivery at a whole ns: 14 × 541.
  SweepOptions bulk;
  bulk.timing = SweepTiming::kBulkSynchronous;
  EXPECT_DOUBLE_EQ(Sweep("ring:8,link_bw=400Gbps,link_latency=500ns", Collective::kAllReduce,
                         CollectiveAlgorithm::kRing, {16384}, bulk)[0],
                   14 * (500 + 2048 / 50.0));
  EXPECT_DOUBLE_EQ(Sweep("ring:8,link_bw=400Gbps,link_latency=500ns", Collective::kAllReduce,
                         CollectiveAlgorithm::kRing, {16384})[0],
                   14 * 541);
}

TEST(CollectiveSweepTest, InDataflowEachRankGoesAtItsOwnPace) {
  // 3 ranks on ring:4 (no switch latency): 0 -> 1 and 1 -> 2 are one 500 ns
  // link, 2 -> 0 two (through endpoint 3). 1,000 B messages: 520 and 1,020
  // ns. Bulk-synchronous, each of the 4 steps waits for the slow hop:
  // 4 × 1,020. Dataflow (by hand, rank 0 is last): its chunks come from
  // rank 2 at 1,020, 1,540, 2,060 and 3,080.
  for (NetworkModelKind model : {NetworkModelKind::kUnaware, NetworkModelKind::kFlow}) {
    SCOPED_TRACE(std::string(NetworkModelKindName(model)));
    TopologyPtr t = MustBuild("ring:4,link_bw=400Gbps,link_latency=500ns");
    absl::StatusOr<CollectiveSchedule> schedule =
        CollectiveSchedule::Build(Collective::kAllReduce, CollectiveAlgorithm::kRing, 3);
    ASSERT_TRUE(schedule.ok());
    SweepOptions options;
    options.model = model;
    EXPECT_EQ(*CollectiveSweep::Run(*t, *schedule, {3000}, options), std::vector<double>{3080});
    options.timing = SweepTiming::kBulkSynchronous;
    EXPECT_EQ(*CollectiveSweep::Run(*t, *schedule, {3000}, options), std::vector<double>{4080});
  }
}

TEST(CollectiveSweepTest, MessageSizesAreExactFractionsRoundedUp) {
  absl::StatusOr<CollectiveSchedule> ring =
      CollectiveSchedule::Build(Collective::kAllReduce, CollectiveAlgorithm::kRing, 3);
  EXPECT_EQ(ring->steps()[0].BytesFor(3000), 1000u) << "not 1001: no floating point";
  EXPECT_EQ(ring->steps()[0].BytesFor(3001), 1001u);
  absl::StatusOr<CollectiveSchedule> hd = CollectiveSchedule::Build(
      Collective::kAllReduce, CollectiveAlgorithm::kHalvingDoubling, 8);
  EXPECT_EQ(hd->steps()[0].BytesFor(1 << 20), 512u << 10) << "half the vector first";
  EXPECT_EQ(hd->steps()[2].BytesFor(1 << 20), 128u << 10);
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
      SweepOptions bulk;  // dataflow runs every message: this is about the schedules
      bulk.timing = SweepTiming::kBulkSynchronous;
      std::vector<double> t = Sweep("slingshot-1k", c, a, {1 << 10, 1 << 20}, bulk);
      EXPECT_GT(t[0], 0);
      EXPECT_GT(t[1], t[0]);
    }
  }
}

TEST(CollectiveSweepTest, EveryAlgorithmAndCollectiveRunsInDataflow) {
  for (Collective c : {Collective::kAllReduce, Collective::kAllGather, Collective::kReduceScatter,
                       Collective::kAllToAll}) {
    for (CollectiveAlgorithm a : {CollectiveAlgorithm::kRing, CollectiveAlgorithm::kHalvingDoubling,
                                  CollectiveAlgorithm::kDirect}) {
      for (NetworkModelKind model : {NetworkModelKind::kUnaware, NetworkModelKind::kFlow}) {
        SweepOptions options;
        options.model = model;
        options.reduce_bandwidth = Bandwidth::BytesPerNs(100);
        std::vector<double> t =
            Sweep("dragonfly:p=2,a=4,h=2,g=4", c, a, {1 << 10, 1 << 20}, options);
        EXPECT_GT(t[0], 0);
        EXPECT_GT(t[1], t[0]);
      }
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
