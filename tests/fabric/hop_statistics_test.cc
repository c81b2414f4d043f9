// HopStatistics: diameters and averages against closed forms.
#include <gtest/gtest.h>

#include "path_check.h"
#include "trestle/fabric/hop_statistics.h"
#include "trestle/fabric/torus_topology.h"

namespace trestle::fabric {
namespace {

TEST(HopStatisticsTest, TorusDiameterIsDimensionsTimesHalfTheSide) {
  for (const char* spec : {"torus:4x4x4", "torus:5x5", "torus:8x8x8", "torus:6x6x6x6"}) {
    TopologyPtr t = MustBuild(spec);
    const auto& dims = static_cast<const TorusTopology&>(*t).dims();
    std::uint32_t expected = dims.size() * (dims[0] / 2);
    HopStatistics stats = HopStatistics::Compute(*t);
    EXPECT_EQ(stats.diameter, expected) << spec;
    EXPECT_TRUE(stats.exact);
  }
}

TEST(HopStatisticsTest, ClosedFormsForSimpleKinds) {
  EXPECT_EQ(HopStatistics::Compute(*MustBuild("switch:8")).diameter, 0u);
  EXPECT_EQ(HopStatistics::Compute(*MustBuild("ring:9")).diameter, 4u);
  EXPECT_EQ(HopStatistics::Compute(*MustBuild("mesh:3x4")).diameter, 5u);
  EXPECT_EQ(HopStatistics::Compute(*MustBuild("fullmesh:6")).diameter, 1u);
  HopStatistics ring = HopStatistics::Compute(*MustBuild("ring:8"));
  EXPECT_NEAR(ring.average_hops, 16.0 / 7.0, 1e-9);
}

TEST(HopStatisticsTest, FatTreeAndDragonflyBounds) {
  EXPECT_EQ(HopStatistics::Compute(*MustBuild("fattree:k=8")).diameter, 4u);
  EXPECT_EQ(HopStatistics::Compute(*MustBuild("dragonfly:p=2,a=4,h=2,g=9")).diameter, 3u);
  HopStatistics absolute =
      HopStatistics::Compute(*MustBuild("dragonfly:p=2,a=4,h=2,g=9,arrangement=absolute"));
  EXPECT_EQ(absolute.diameter, 3u);
  EXPECT_TRUE(absolute.exact);  // 36 routers: every one is a source.
}

TEST(HopStatisticsTest, SlingshotIsExactThroughGroupSymmetry) {
  HopStatistics stats = HopStatistics::Compute(*MustBuild("slingshot"));
  EXPECT_TRUE(stats.exact);
  EXPECT_EQ(stats.sources, 32u);
  EXPECT_EQ(stats.diameter, 3u);
  // One global link per group pair: 1 + 2 × 31/32 hops to other groups,
  // 1 hop inside the group, 0 on the same switch.
  EXPECT_GT(stats.average_hops, 2.9);
  EXPECT_LT(stats.average_hops, 2.95);
}

}  // namespace
}  // namespace trestle::fabric
