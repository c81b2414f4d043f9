// MessageTimeModel: hand-computed times, one case per topology.
//
// Parameters throughout: links 400Gbps (50 B/ns) with 500 ns latency,
// injection (host links) 200Gbps (25 B/ns), 100 ns per switch passed
// through, 10 ns endpoint overhead, 50,000-byte messages.
#include <gtest/gtest.h>

#include "path_check.h"
#include "trestle/fabric/message_time_model.h"
#include "trestle/fabric/minimal_routing.h"

namespace trestle::fabric {
namespace {

constexpr std::uint64_t kBytes = 50000;

double Time(const std::string& spec, NodeId src, NodeId dst) {
  absl::StatusOr<TopologyPtr> t = TopologyBuilder::FromText(
      spec + ",link_bw=400Gbps,injection_bw=200Gbps,link_latency=500ns,switch_latency=100ns");
  EXPECT_TRUE(t.ok()) << t.status();
  MessageTimeModel model(**t, {Duration::Nanoseconds(10)});
  MinimalRouting routing(**t, 1);
  return model.TimeNs(src, dst, kBytes, 0, routing);
}

TEST(MessageTimeModelTest, SwitchIsTwoHostLinksAndOneSwitch) {
  // 10 + 2×500 + 1×100 + 50000/25.
  EXPECT_DOUBLE_EQ(Time("switch:8", 0, 1), 10 + 1000 + 100 + 2000);
}

TEST(MessageTimeModelTest, RingTakesTheShorterWayAtLinkBandwidth) {
  // 0 -> 5 on ring:8 is 3 hops backwards: 10 + 3×500 + 2×100 + 50000/50.
  EXPECT_DOUBLE_EQ(Time("ring:8", 0, 5), 10 + 1500 + 200 + 1000);
}

TEST(MessageTimeModelTest, TorusAddsDimensionHops) {
  // torus:4x4, node 0 -> (2, 3) = node 14: 2 + 1 hops.
  EXPECT_DOUBLE_EQ(Time("torus:4x4", 0, 14), 10 + 1500 + 200 + 1000);
}

TEST(MessageTimeModelTest, MeshHasNoWrapAround) {
  // mesh:4x4, node 0 -> (3, 3) = node 15: 6 hops.
  EXPECT_DOUBLE_EQ(Time("mesh:4x4", 0, 15), 10 + 3000 + 500 + 1000);
}

TEST(MessageTimeModelTest, FullMeshIsOneLink) {
  EXPECT_DOUBLE_EQ(Time("fullmesh:5", 0, 4), 10 + 500 + 1000);
}

TEST(MessageTimeModelTest, FatTreeAcrossPodsIsSixLinksFiveSwitches) {
  EXPECT_DOUBLE_EQ(Time("fattree:k=4", 0, 15), 10 + 3000 + 500 + 2000);
  // Same edge switch: two host links, one switch.
  EXPECT_DOUBLE_EQ(Time("fattree:k=4", 0, 1), 10 + 1000 + 100 + 2000);
}

TEST(MessageTimeModelTest, DragonflyLocalAndGlobal) {
  const std::string spec = "dragonfly:p=2,a=4,h=2,g=9";
  // Same group, routers 0 and 1: host, local, host.
  EXPECT_DOUBLE_EQ(Time(spec, 0, 2), 10 + 1500 + 200 + 2000);
  // Router 0 owns global ports 0 and 1 (relative: groups 1 and 2), landing
  // on ports 7 and 6 of the peer, i.e. router 3 there. Endpoint 0 -> group
  // 1's router 3 (endpoint 2*(4+3) = 14): host, global, host.
  EXPECT_DOUBLE_EQ(Time(spec, 0, 14), 10 + 1500 + 200 + 2000);
  // To group 1's router 0 (endpoint 8): host, global, local, host.
  EXPECT_DOUBLE_EQ(Time(spec, 0, 8), 10 + 2000 + 300 + 2000);
}

TEST(MessageTimeModelTest, SelfMessageCostsOnlyTheOverhead) {
  EXPECT_DOUBLE_EQ(Time("ring:8", 3, 3), 10);
}

TEST(MessageTimeModelTest, ProfileSeparatesFixedAndBandwidthTerms) {
  TopologyPtr t = MustBuild("switch:4,link_bw=400Gbps,link_latency=500ns");
  MessageTimeModel model(*t);
  MinimalRouting routing(*t, 1);
  Path path;
  routing.Route(0, 3, 0, &path);
  PathProfile profile = model.Profile(path);
  EXPECT_EQ(profile.hops, 2u);
  EXPECT_DOUBLE_EQ(profile.fixed_ns, 1000);
  EXPECT_DOUBLE_EQ(profile.bottleneck_bytes_per_ns, 50);
  EXPECT_DOUBLE_EQ(MessageTimeModel::TimeNs(profile, 5000), 1100);
}

}  // namespace
}  // namespace trestle::fabric
