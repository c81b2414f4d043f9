// The congestion experiment behind `trestle-sim congestion`: node
// allocations, victim and aggressor specs, and the effects it exists to show
// on a small dragonfly - endpoint congestion control keeps an incast from
// hurting a latency victim, and without it the victim is several times
// slower; traffic classes with 80 % / 20 % minimums hold a bandwidth victim
// to 80 % or 20 %. The flow model's debug checks run throughout.
#include "trestle/fabric/congestion_experiment.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "path_check.h"

namespace trestle::fabric {
namespace {

using ::testing::HasSubstr;

TEST(NodeAllocation, LinearInterleavedAndRandom) {
  NodeAllocation linear = *NodeAllocation::Make(20, {20, 80}, AllocationKind::kLinear, 1);
  EXPECT_EQ(linear.victims, (std::vector<NodeId>{0, 1, 2, 3}));
  EXPECT_EQ(linear.aggressors.size(), 16u);
  EXPECT_EQ(linear.aggressors.front(), 4u);
  NodeAllocation interleaved =
      *NodeAllocation::Make(20, {20, 80}, AllocationKind::kInterleaved, 1);
  EXPECT_EQ(interleaved.victims, (std::vector<NodeId>{4, 9, 14, 19})) << "every fifth";
  EXPECT_EQ(interleaved.aggressors.size(), 16u);
  NodeAllocation random = *NodeAllocation::Make(100, {10, 50}, AllocationKind::kRandom, 3);
  EXPECT_EQ(random.victims.size(), 10u);
  EXPECT_EQ(random.aggressors.size(), 50u);
  std::set<NodeId> all(random.victims.begin(), random.victims.end());
  all.insert(random.aggressors.begin(), random.aggressors.end());
  EXPECT_EQ(all.size(), 60u) << "disjoint";
  EXPECT_EQ(NodeAllocation::Make(100, {10, 50}, AllocationKind::kRandom, 3)->victims,
            random.victims)
      << "seeded";
  EXPECT_THAT(std::string(
                  NodeAllocation::Make(8, {20, 80}, AllocationKind::kLinear, 1).status().message()),
              HasSubstr("gives the victim 1 and the aggressor 6; each needs at least 2"));
}

TEST(NodeSplit, ParsesAndNamesItsErrors) {
  EXPECT_EQ(NodeSplit::Parse("10:90")->victim_percent, 10u);
  EXPECT_EQ(NodeSplit::Parse("10:90")->ToString(), "10:90");
  EXPECT_THAT(std::string(NodeSplit::Parse("60:50").status().message()),
              HasSubstr("split '60:50': the shares add up to more than 100"));
  EXPECT_THAT(std::string(NodeSplit::Parse("20").status().message()),
              HasSubstr("expected VICTIM:AGGRESSOR"));
  EXPECT_FALSE(NodeSplit::Parse("0:100").ok());
  EXPECT_FALSE(NodeSplit::Parse("a:b").ok());
}

TEST(CongestionWorkload, SpecsParseAndPrint) {
  VictimSpec victim = *VictimSpec::Parse("ring-bw:128KiB");
  EXPECT_EQ(victim.kind, VictimSpec::Kind::kRingBandwidth);
  EXPECT_EQ(victim.bytes, 131072u);
  EXPECT_EQ(victim.Name(), "ring-bw:128KiB");
  EXPECT_FALSE(victim.MeasuresLatency());
  EXPECT_TRUE(VictimSpec::Parse("allreduce:8B")->MeasuresLatency());
  EXPECT_THAT(std::string(VictimSpec::Parse("allreduce").status().message()),
              HasSubstr("needs a size, e.g. allreduce:8B"));
  EXPECT_THAT(std::string(VictimSpec::Parse("bcast:8B").status().message()),
              HasSubstr("unknown victim 'bcast' (allreduce, ring-latency, ring-bw, alltoall)"));
  EXPECT_THAT(std::string(VictimSpec::Parse("ring-bw:128").status().message()),
              HasSubstr("victim 'ring-bw:128'"));
  EXPECT_EQ(AggressorSpec::Parse("incast")->bytes, 256u * 1024);
  EXPECT_EQ(AggressorSpec::Parse("incast")->Name(), "incast");
  EXPECT_EQ(AggressorSpec::Parse("alltoall:1MiB")->Name(), "alltoall:1MiB");
  EXPECT_THAT(std::string(AggressorSpec::Parse("flood").status().message()),
              HasSubstr("unknown aggressor 'flood' (incast, alltoall)"));
}

constexpr char kDragonfly[] = "dragonfly:p=4,a=4,h=2,g=5";

CongestionOptions Options(const char* victim, const char* aggressor, bool cc) {
  CongestionOptions options;
  options.victim = *VictimSpec::Parse(victim);
  options.aggressor = *AggressorSpec::Parse(aggressor);
  options.allocation = AllocationKind::kInterleaved;
  options.congestion_control = cc;
  options.check_invariants = true;
  options.iterations = 10;
  return options;
}

TEST(CongestionExperiment, CongestionControlProtectsALatencyVictimFromAnIncast) {
  TopologyPtr t = MustBuild(kDragonfly);
  const CongestionResult on = *CongestionExperiment::Run(*t, Options("allreduce:8B", "incast", true));
  const CongestionResult off =
      *CongestionExperiment::Run(*t, Options("allreduce:8B", "incast", false));
  EXPECT_EQ(on.victim_endpoints, 16u);
  EXPECT_EQ(on.aggressor_endpoints, 64u);
  EXPECT_EQ(on.alone.size(), 10u);
  EXPECT_EQ(on.congested.size(), 10u);
  EXPECT_LT(on.impact_mean, 1.2);
  EXPECT_GE(on.impact_mean, 1.0);
  EXPECT_GT(off.impact_mean, 3 * on.impact_mean) << "tree saturation slows the victim";
  EXPECT_GT(off.impact_p99, 3 * on.impact_p99);
  EXPECT_EQ(on.alone, off.alone) << "alone, the victim creates no congestion of its own";
}

TEST(CongestionExperiment, TrafficClassesHoldABandwidthVictimToItsMinimum) {
  TopologyPtr t = MustBuild(kDragonfly);
  CongestionOptions options = Options("alltoall:64KiB", "alltoall", true);
  options.allocation = AllocationKind::kRandom;
  options.split = {50, 50};
  options.separate_classes = true;
  options.iterations = 2;
  options.classes = *TrafficClassTable::Make(
      {TrafficClassSpec{1, ClassShare{1, 0.8}}, TrafficClassSpec{2, ClassShare{1, 0.2}}});
  const CongestionResult eighty = *CongestionExperiment::Run(*t, options);
  // Where both classes want a link the victim gets 80 % of it: its slowest
  // steps run at 80 % of their speed alone.
  EXPECT_NEAR(eighty.impact_p99, 1 / 0.8, 0.03);
  options.classes = *TrafficClassTable::Make(
      {TrafficClassSpec{1, ClassShare{1, 0.2}}, TrafficClassSpec{2, ClassShare{1, 0.8}}});
  const CongestionResult twenty = *CongestionExperiment::Run(*t, options);
  EXPECT_GT(twenty.impact_mean, 2 * eighty.impact_mean);
  EXPECT_LT(eighty.approximate_solves + twenty.approximate_solves, eighty.events / 100)
      << "approximate solves stay rare";
}

// In its own class a victim waits for no queue of the aggressor's, only for
// the packet of theirs in transmission at each port (half a packet on
// average): nothing with tiny packets, and far less than the queues of a
// shared class with 4 KiB ones (100 ns links and no switch latency here, so
// 82 ns per port weigh).
TEST(CongestionExperiment, ASeparateClassSparesALatencyVictimTheAggressorsQueues) {
  TopologyPtr t = MustBuild(kDragonfly);
  CongestionOptions options = Options("allreduce:8B", "alltoall", true);
  const CongestionResult same = *CongestionExperiment::Run(*t, options);
  options.separate_classes = true;
  const CongestionResult separate = *CongestionExperiment::Run(*t, options);
  options.queues.packet_bytes = 64;
  const CongestionResult tiny_packets = *CongestionExperiment::Run(*t, options);
  EXPECT_GT(same.impact_mean, 2);
  EXPECT_LT(separate.impact_mean - 1, (same.impact_mean - 1) / 4);
  EXPECT_LT(tiny_packets.impact_mean, 1.01);
}

// The Slingshot study's measurements (shared/REFERENCE.md) on slingshot-1k
// with a random 20:80 allocation and congestion control on: an 8-byte
// all-reduce beside a 256 KiB all-to-all 2.85x slower in the same class and
// 1.15x in a separate one; at most about 1.3x otherwise. The model's queues
// put it within [2, 3.7] and at most 1.3; the ring-latency victim beside an
// incast stays at most 1.3x with congestion control, and at least three
// times that without.
TEST(CongestionExperiment, OnSlingshot1kTheImpactsAreTheMeasuredOnes) {
  TopologyPtr t = MustBuild("slingshot-1k");
  CongestionOptions options = Options("allreduce:8B", "alltoall", true);
  options.allocation = AllocationKind::kRandom;
  options.check_invariants = false;
  options.iterations = 0;
  const CongestionResult same = *CongestionExperiment::Run(*t, options);
  options.separate_classes = true;
  const CongestionResult separate = *CongestionExperiment::Run(*t, options);
  EXPECT_GE(same.impact_mean, 2);
  EXPECT_LE(same.impact_mean, 3.7);
  EXPECT_LE(separate.impact_mean, 1.3);
  options = Options("ring-latency:8B", "incast", true);
  options.allocation = AllocationKind::kRandom;
  options.check_invariants = false;
  options.iterations = 0;
  const CongestionResult on = *CongestionExperiment::Run(*t, options);
  options.congestion_control = false;
  const CongestionResult off = *CongestionExperiment::Run(*t, options);
  EXPECT_LE(on.impact_mean, 1.3);
  EXPECT_GE(off.impact_mean, 3 * on.impact_mean);
}

TEST(CongestionExperiment, RunsRepeatExactly) {
  TopologyPtr t = MustBuild(kDragonfly);
  CongestionOptions options = Options("ring-latency:8B", "alltoall", false);
  options.allocation = AllocationKind::kRandom;
  options.routing = RoutingKind::kAdaptive;
  const CongestionResult a = *CongestionExperiment::Run(*t, options);
  const CongestionResult b = *CongestionExperiment::Run(*t, options);
  EXPECT_EQ(a.congested, b.congested);
  EXPECT_EQ(a.events, b.events);
}

}  // namespace
}  // namespace trestle::fabric
