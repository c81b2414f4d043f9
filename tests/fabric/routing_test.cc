// Routing policies: every pair reachable under every policy, the hop bounds
// of each topology, repeatability under a seed, and adaptive detours.
#include <set>
#include <tuple>

#include <gtest/gtest.h>

#include "path_check.h"
#include "trestle/fabric/adaptive_routing.h"
#include "trestle/fabric/minimal_routing.h"
#include "trestle/fabric/routing.h"

namespace trestle::fabric {
namespace {

// Router-to-router BFS distances from one router (for comparing minimal
// routes with true shortest paths).
std::vector<std::uint32_t> RouterDistances(const Topology& t, NodeId source) {
  std::vector<std::uint32_t> distance(t.NodeCount(), ~0u);
  std::vector<NodeId> frontier = {source}, next;
  distance[source] = 0;
  std::vector<LinkId> links;
  while (!frontier.empty()) {
    next.clear();
    for (NodeId n : frontier) {
      links.clear();
      t.AppendLinksFrom(n, &links);
      for (LinkId l : links) {
        if (!t.IsDirect() && t.KindOf(l) == LinkKind::kHost) continue;
        NodeId to = t.EndsOf(l).to;
        if (distance[to] != ~0u) continue;
        distance[to] = distance[n] + 1;
        next.push_back(to);
      }
    }
    frontier.swap(next);
  }
  return distance;
}

class AllPairsTest
    : public ::testing::TestWithParam<std::tuple<std::string, RoutingKind>> {};

TEST_P(AllPairsTest, EveryPairHasAValidPath) {
  const auto& [spec, kind] = GetParam();
  TopologyPtr t = MustBuild(spec);
  ASSERT_NE(t, nullptr);
  RoutingPtr routing = MakeRouting(kind, *t, /*seed=*/7);
  const bool is_dragonfly = spec.rfind("dragonfly", 0) == 0 || spec.rfind("slingshot", 0) == 0;
  const bool is_fat_tree = spec.rfind("fattree", 0) == 0;
  std::size_t bound = ~std::size_t{0};
  if (is_dragonfly) bound = kind == RoutingKind::kValiant || kind == RoutingKind::kAdaptive ? 5 : 3;
  if (is_fat_tree) bound = 4;
  // The 1,024-endpoint preset is checked from a stride of sources.
  const NodeId stride = t->EndpointCount() > 200 ? 37 : 1;
  Path path;
  for (NodeId src = 0; src < t->EndpointCount(); src += stride) {
    std::vector<std::uint32_t> distance = RouterDistances(*t, t->EndpointRouter(src));
    for (NodeId dst = 0; dst < t->EndpointCount(); ++dst) {
      routing->Route(src, dst, 0, &path);
      ASSERT_TRUE(IsWalk(*t, path, src, dst)) << spec << " " << src << "->" << dst;
      if (src == dst) continue;
      std::size_t hops = RouterHops(*t, path);
      EXPECT_LE(hops, bound) << spec << " " << src << "->" << dst;
      std::uint32_t shortest = distance[t->EndpointRouter(dst)];
      EXPECT_GE(hops, shortest);
      bool minimal = kind == RoutingKind::kMinimal || kind == RoutingKind::kMinimalDestModK;
      if (minimal && !is_dragonfly) {
        EXPECT_EQ(hops, shortest) << spec << " " << src << "->" << dst;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    SmallInstances, AllPairsTest,
    ::testing::Combine(::testing::ValuesIn(SmallTopologySpecs()),
                       ::testing::Values(RoutingKind::kMinimal, RoutingKind::kMinimalDestModK,
                                         RoutingKind::kValiant, RoutingKind::kAdaptive)),
    [](const auto& info) {
      std::string name = std::get<0>(info.param) + "_" +
                         std::string(RoutingKindName(std::get<1>(info.param)));
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

TEST(RoutingTest, SlingshotMinimalAtMostThreeValiantAtMostFiveSwitchHops) {
  TopologyPtr t = MustBuild("slingshot");
  RoutingPtr minimal = MakeRouting(RoutingKind::kMinimal, *t, 1);
  RoutingPtr valiant = MakeRouting(RoutingKind::kValiant, *t, 1);
  Path path;
  std::size_t longest_minimal = 0, longest_valiant = 0;
  for (NodeId src = 0; src < t->EndpointCount(); src += 9973) {
    for (NodeId dst = 5; dst < t->EndpointCount(); dst += 7919) {
      minimal->Route(src, dst, 0, &path);
      ASSERT_TRUE(IsWalk(*t, path, src, dst));
      longest_minimal = std::max(longest_minimal, RouterHops(*t, path));
      valiant->Route(src, dst, 0, &path);
      ASSERT_TRUE(IsWalk(*t, path, src, dst));
      longest_valiant = std::max(longest_valiant, RouterHops(*t, path));
    }
  }
  EXPECT_EQ(longest_minimal, 3u);
  EXPECT_EQ(longest_valiant, 5u);
}

TEST(RoutingTest, SameSeedSamePathsDifferentSeedDifferentPaths) {
  TopologyPtr t = MustBuild("dragonfly:p=2,a=4,h=2,g=9");
  RoutingPtr a = MakeRouting(RoutingKind::kValiant, *t, 42);
  RoutingPtr b = MakeRouting(RoutingKind::kValiant, *t, 42);
  RoutingPtr c = MakeRouting(RoutingKind::kValiant, *t, 43);
  Path pa, pb, pc;
  int differences = 0;
  for (NodeId dst = 8; dst < 72; ++dst) {
    a->Route(0, dst, 0, &pa);
    b->Route(0, dst, 0, &pb);
    c->Route(0, dst, 0, &pc);
    ASSERT_TRUE(std::ranges::equal(pa.Links(), pb.Links()));
    differences += std::ranges::equal(pa.Links(), pc.Links()) ? 0 : 1;
  }
  EXPECT_GT(differences, 0);
}

TEST(RoutingTest, FatTreeDestinationModKSendsEachDestinationThroughOneCore) {
  TopologyPtr t = MustBuild("fattree:k=4");
  RoutingPtr dmodk = MakeRouting(*ParseRoutingKind("minimal-dmodk"), *t, 0);
  Routing& routing = *dmodk;
  Path path;
  for (NodeId dst = 0; dst < 16; ++dst) {
    std::set<NodeId> cores;
    for (NodeId src = 0; src < 16; ++src) {
      if (src / 4 == dst / 4) continue;  // Same pod: no core on the path.
      routing.Route(src, dst, 0, &path);
      ASSERT_EQ(path.HopCount(), 6u);
      cores.insert(t->EndsOf(path[2]).to);
    }
    EXPECT_EQ(cores.size(), 1u) << "dst " << dst;
  }
}

TEST(RoutingTest, AdaptiveIsMinimalWithoutLoadAndDetoursAroundIt) {
  TopologyPtr t = MustBuild("dragonfly:p=2,a=4,h=2,g=9");
  LinkLoadTable load(t->LinkIdCount());
  AdaptiveRouting adaptive(*t, &load, 3);
  MinimalRouting minimal(*t, 3);
  Path adaptive_path, minimal_path;
  const NodeId src = 0, dst = 70;
  adaptive.Route(src, dst, 0, &adaptive_path);
  minimal.Route(src, dst, 0, &minimal_path);
  EXPECT_EQ(adaptive_path.HopCount(), minimal_path.HopCount());
  // Congest every link of every minimal path between the two groups.
  for (LinkId link = 0; link < t->LinkIdCount(); ++link) {
    if (t->LinkExists(link) && t->KindOf(link) == LinkKind::kGlobal) {
      LinkEnds ends = t->EndsOf(link);
      bool joins = (ends.from - 72) / 4 == 0 && (ends.to - 72) / 4 == 35 / 4;
      if (joins) load.Set(link, 1e6);
    }
  }
  adaptive.Route(src, dst, 0, &adaptive_path);
  EXPECT_TRUE(IsWalk(*t, adaptive_path, src, dst));
  EXPECT_GT(adaptive_path.HopCount(), minimal_path.HopCount());
  for (LinkId link : adaptive_path.Links()) EXPECT_LT(load.QueueDelayNs(link), 1.0);
}

TEST(RoutingTest, ParsesRoutingNames) {
  EXPECT_EQ(*ParseRoutingKind("valiant"), RoutingKind::kValiant);
  EXPECT_FALSE(ParseRoutingKind("ospf").ok());
}

}  // namespace
}  // namespace trestle::fabric
