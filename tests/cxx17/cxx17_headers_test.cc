// Compiled as C++17: what the ns-3 adapter needs from our side works there.
// A topology from a spec string, its nodes and directed links with bandwidth
// and latency, which node each endpoint is; a network model; the SimClient
// facade. (all_public_headers.cc includes every public header besides.)
#if __cplusplus != 201703L
#error "this test must be compiled as C++17"
#endif

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "trestle/adapter/daemon_link.h"
#include "trestle/adapter/sim_adapter.h"
#include "trestle/event_loop.h"
#include "trestle/fabric/network_model_factory.h"
#include "trestle/fabric/topology.h"
#include "trestle/fabric/topology_builder.h"
#include "trestle/fabric/topology_spec.h"

namespace trestle {
namespace {

using fabric::LinkId;
using fabric::NodeId;

// Every directed link, found by walking each node's outgoing links.
struct Walk {
  std::uint32_t nodes = 0;
  std::vector<std::pair<NodeId, NodeId>> links;
  std::set<double> bytes_per_ns;
  std::set<double> latency_ns;
};

Walk WalkTopology(const fabric::Topology& topology) {
  Walk walk;
  walk.nodes = topology.NodeCount();
  std::vector<LinkId> out;
  for (NodeId node = 0; node < topology.NodeCount(); ++node) {
    out.clear();
    topology.AppendLinksFrom(node, &out);
    for (LinkId link : out) {
      const fabric::LinkEnds ends = topology.EndsOf(link);
      EXPECT_EQ(ends.from, node);
      walk.links.emplace_back(ends.from, ends.to);
      const fabric::LinkProperties p = topology.PropertiesOf(link);
      walk.bytes_per_ns.insert(p.bandwidth.bytes_per_ns());
      walk.latency_ns.insert(p.latency.ns());
    }
  }
  return walk;
}

fabric::TopologyPtr Build(const std::string& spec) {
  absl::StatusOr<fabric::TopologySpec> parsed = fabric::TopologySpec::Parse(spec);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  return fabric::TopologyBuilder::Build(*parsed);
}

TEST(Cxx17, ARingOfEightHasEightEndpointsAndSixteenDirectedLinksToItsNeighbours) {
  fabric::TopologyPtr ring = Build("ring:8,link_bw=400Gbps,link_latency=500ns");
  ASSERT_NE(ring, nullptr);
  EXPECT_EQ(ring->EndpointCount(), 8u);
  EXPECT_EQ(ring->SwitchCount(), 0u);
  const Walk walk = WalkTopology(*ring);
  EXPECT_EQ(walk.nodes, 8u);
  EXPECT_EQ(walk.links.size(), 16u);
  for (const auto& [from, to] : walk.links) {
    EXPECT_TRUE(to == (from + 1) % 8 || from == (to + 1) % 8) << from << " -> " << to;
  }
  EXPECT_EQ(walk.bytes_per_ns, (std::set<double>{50.0}));  // 400 Gbps
  EXPECT_EQ(walk.latency_ns, (std::set<double>{500.0}));
  for (NodeId e = 0; e < 8; ++e) EXPECT_EQ(ring->EndpointRouter(e), e) << "endpoints forward";
}

TEST(Cxx17, AFatTreeOfKFourHasSixteenEndpointsTwentySwitchesAndNinetySixDirectedLinks) {
  fabric::TopologyPtr tree = Build("fattree:k=4,link_bw=100Gbps,injection_bw=50Gbps");
  ASSERT_NE(tree, nullptr);
  EXPECT_EQ(tree->EndpointCount(), 16u);  // k^3/4
  EXPECT_EQ(tree->SwitchCount(), 20u);    // 5k^2/4
  const Walk walk = WalkTopology(*tree);
  EXPECT_EQ(walk.nodes, 36u);
  // 16 host cables, 16 edge-aggregation, 16 aggregation-core; both directions.
  EXPECT_EQ(walk.links.size(), 96u);
  EXPECT_EQ(walk.bytes_per_ns, (std::set<double>{6.25, 12.5}));  // injection, links
  EXPECT_EQ(walk.latency_ns, (std::set<double>{100.0}));         // the default
  // Endpoint e is node e, on an edge switch with one other endpoint.
  std::set<NodeId> edges;
  for (NodeId e = 0; e < 16; ++e) {
    const NodeId edge = tree->EndpointRouter(e);
    EXPECT_GE(edge, 16u);
    edges.insert(edge);
  }
  EXPECT_EQ(edges.size(), 8u);
}

TEST(Cxx17, ANetworkModelPricesAMessage) {
  fabric::TopologyPtr ring = Build("ring:8,link_bw=400Gbps,link_latency=500ns");
  fabric::NetworkModelPtr model =
      fabric::MakeNetworkModel(fabric::NetworkModelKind::kUnaware, *ring, {});
  std::vector<fabric::ModelCompletion> completed;
  model->Submit(fabric::ModelMessage{42, 0, 1, 64, 0, 1000}, &completed);
  ASSERT_EQ(completed.size(), 1u);
  EXPECT_EQ(completed[0].id, 42u);
  EXPECT_EQ(completed[0].t_deliver_ns(), 1000u + 501u);  // 500 ns + 64 B / 50 B/ns, rounded
  EXPECT_EQ(model->MinLatency().between_endpoints_ns, 500.0);
}

TEST(Cxx17, TheSimClientFacadeIsUsableBeforeItConnects) {
  EventLoop loop;
  ClientOptions options;
  options.client_id = "ns3";
  adapter::DaemonLink link(loop, options);
  EXPECT_FALSE(link.connected());
  EXPECT_EQ(link.daemon_time_mode(), "");
  EXPECT_EQ(link.options().client_id, "ns3");
  link.OnTransits([](const adapter::TransitBatch& batch) {
    for (const Transit& transit : batch) (void)transit;
  });
}

}  // namespace
}  // namespace trestle
