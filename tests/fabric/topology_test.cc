// Structural consistency of every Topology implementation: link ids, ends,
// adjacency and counts agree with one another.
#include <algorithm>

#include <gtest/gtest.h>

#include "path_check.h"
#include "trestle/fabric/dragonfly_topology.h"

namespace trestle::fabric {
namespace {

class TopologyStructureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TopologyStructureTest, LinksAdjacencyAndCountsAgree) {
  TopologyPtr t = MustBuild(GetParam());
  ASSERT_NE(t, nullptr);
  std::uint64_t existing = 0;
  std::uint64_t by_kind[kLinkKindCount] = {};
  for (LinkId link = 0; link < t->LinkIdCount(); ++link) {
    if (!t->LinkExists(link)) continue;
    ++existing;
    ++by_kind[static_cast<int>(t->KindOf(link))];
    LinkEnds ends = t->EndsOf(link);
    ASSERT_LT(ends.from, t->NodeCount());
    ASSERT_LT(ends.to, t->NodeCount());
    ASSERT_NE(ends.from, ends.to) << "link " << link;
    bool touches_endpoint = ends.from < t->EndpointCount() || ends.to < t->EndpointCount();
    EXPECT_EQ(t->KindOf(link) == LinkKind::kHost, touches_endpoint && !t->IsDirect())
        << "link " << link;
    std::vector<LinkId> out;
    t->AppendLinksFrom(ends.from, &out);
    EXPECT_NE(std::find(out.begin(), out.end(), link), out.end()) << "link " << link;
  }
  LinkCounts counts = t->CountLinks();
  EXPECT_EQ(existing, 2 * counts.Total());
  EXPECT_EQ(by_kind[0], 2 * counts.host);
  EXPECT_EQ(by_kind[1], 2 * counts.local);
  EXPECT_EQ(by_kind[2], 2 * counts.global);
  std::uint64_t adjacency = 0;
  for (NodeId node = 0; node < t->NodeCount(); ++node) {
    std::vector<LinkId> out;
    t->AppendLinksFrom(node, &out);
    adjacency += out.size();
    for (LinkId link : out) {
      ASSERT_TRUE(t->LinkExists(link));
      EXPECT_EQ(t->EndsOf(link).from, node);
    }
  }
  EXPECT_EQ(adjacency, existing);
}

INSTANTIATE_TEST_SUITE_P(AllKinds, TopologyStructureTest,
                         ::testing::ValuesIn(SmallTopologySpecs()));

TEST(DragonflyTopologyTest, GlobalPortsPairSymmetrically) {
  for (GlobalArrangement arrangement : {GlobalArrangement::kAbsolute, GlobalArrangement::kRelative,
                                        GlobalArrangement::kCirculant}) {
    for (std::uint32_t g : {2u, 5u, 8u, 9u}) {
      DragonflyTopology t({1, 4, 3, g, arrangement}, FabricParams());
      for (std::uint32_t group = 0; group < g; ++group) {
        for (std::uint32_t port = 0; port < 12; ++port) {
          std::uint32_t peer, peer_port, back, back_port;
          if (!t.PortPeer(group, port, &peer, &peer_port)) continue;
          EXPECT_NE(peer, group);
          ASSERT_TRUE(t.PortPeer(peer, peer_port, &back, &back_port));
          EXPECT_EQ(back, group);
          EXPECT_EQ(back_port, port);
        }
      }
    }
  }
}

TEST(DragonflyTopologyTest, SmallGroupCountsGetSeveralLinksPerPair) {
  TopologyPtr t = MustBuild("dragonfly:p=1,a=3,h=2,g=3");
  // 6 ports per group, 2 peers: 3 links to each peer, 3 pairs.
  EXPECT_EQ(t->CountLinks().global, 9u);
}

}  // namespace
}  // namespace trestle::fabric
