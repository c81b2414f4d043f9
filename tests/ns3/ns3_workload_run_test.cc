// Ns3WorkloadRun, and the two ns-3 options it leans on: with fabric
// routing, ns-3's packets load the links the flow model's flows load, so a
// permutation's message times agree message by message (ns-3's own
// shortest-path routing collides elsewhere); DCTCP's ECN marking keeps the
// queues a small victim waits behind shorter than NewReno's full FIFOs;
// chained messages leave when their predecessor arrives.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "trestle/fabric/model_workload_run.h"
#include "trestle/fabric/network_model_factory.h"
#include "trestle/fabric/sample_statistics.h"
#include "trestle/fabric/topology_builder.h"
#include "trestle/fabric/validation_workload.h"
#include "trestle/ns3/ns3_workload_run.h"

namespace trestle::ns3_adapter {
namespace {

using fabric::ValidationWorkload;

fabric::TopologyPtr Build(const std::string& spec) {
  auto topology = fabric::TopologyBuilder::FromText(spec);
  EXPECT_TRUE(topology.ok()) << topology.status();
  return topology.ok() ? std::move(*topology) : nullptr;
}

ValidationWorkload Make(const std::string& spec, std::uint32_t endpoints) {
  auto parsed = ValidationWorkload::Spec::Parse(spec);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  auto workload = ValidationWorkload::Make(*parsed, endpoints, 1);
  EXPECT_TRUE(workload.ok()) << workload.status();
  return *std::move(workload);
}

std::vector<double> Ns3Times(const fabric::Topology& topology, const ValidationWorkload& workload,
                             const Ns3NetworkOptions& options) {
  auto times = Ns3WorkloadRun::Run(topology, workload, options);
  EXPECT_TRUE(times.ok()) << times.status();
  return times.ok() ? times->latency_ns : std::vector<double>{};
}

std::vector<double> FlowTimes(const fabric::Topology& topology,
                              const ValidationWorkload& workload) {
  fabric::NetworkModelPtr model =
      fabric::MakeNetworkModel(fabric::NetworkModelKind::kFlow, topology, {});
  auto times = fabric::ModelWorkloadRun::Run(*model, topology.EndpointCount(), workload);
  EXPECT_TRUE(times.ok()) << times.status();
  return times.ok() ? times->latency_ns : std::vector<double>{};
}

// How many messages ns-3 delivers within 10 % of the flow model's time.
int WithinTenPercent(const std::vector<double>& ns3, const std::vector<double>& flow) {
  int close = 0;
  for (std::size_t i = 0; i < flow.size(); ++i) close += std::abs(ns3[i] / flow[i] - 1) < 0.1;
  return close;
}

TEST(Ns3WorkloadRun, WithFabricRoutingAPermutationCollidesWhereTheFlowModelSaysItDoes) {
  fabric::TopologyPtr topology = Build("fattree:k=4");
  const ValidationWorkload permutation = Make("permutation:512KiB", topology->EndpointCount());
  const std::vector<double> flow = FlowTimes(*topology, permutation);
  ASSERT_EQ(flow.size(), 16u);
  // ECMP puts some flows on a shared link (twice the time alone) and leaves
  // others alone: both kinds are here.
  EXPECT_GT(*std::max_element(flow.begin(), flow.end()),
            1.8 * *std::min_element(flow.begin(), flow.end()));
  // UDP: datagrams back to back at the link rate, no congestion control to
  // blur the sharing (a FIFO fed by two such flows serves them alike).
  Ns3NetworkOptions options;
  options.transport = Transport::kUdp;
  options.ip_routing = IpRouting::kFabric;
  const std::vector<double> fabric_routed = Ns3Times(*topology, permutation, options);
  ASSERT_EQ(fabric_routed.size(), 16u);
  // The same links shared: most messages within their headers (3.7 %) of
  // the flow model (a FIFO shares a link in proportion to what arrives, not
  // max-min, so a few differ).
  EXPECT_GE(WithinTenPercent(fabric_routed, flow), 12);
  options.ip_routing = IpRouting::kGlobal;
  const std::vector<double> shortest = Ns3Times(*topology, permutation, options);
  ASSERT_EQ(shortest.size(), 16u);
  // ns-3's own tables send all traffic to a destination one way: few
  // messages fare as the flow model's ECMP paths say.
  EXPECT_LE(WithinTenPercent(shortest, flow), 4);
}

std::vector<double> Ns3Samples(const fabric::Topology& topology, const ValidationWorkload& workload,
                               const Ns3NetworkOptions& options) {
  auto times = Ns3WorkloadRun::Run(topology, workload, options);
  EXPECT_TRUE(times.ok()) << times.status();
  return times.ok() ? times->Samples(workload) : std::vector<double>{};
}

TEST(Ns3WorkloadRun, DctcpKeepsTheQueuesASmallVictimWaitsBehindShorterThanNewReno) {
  fabric::TopologyPtr topology = Build("fattree:k=4");
  const ValidationWorkload victim = Make("victim:64B+alltoall:256KiB", topology->EndpointCount());
  Ns3NetworkOptions options;
  options.ip_routing = IpRouting::kFabric;
  options.delayed_acks = false;
  options.tcp = TcpVariant::kNewReno;
  const double newreno = fabric::Percentile(Ns3Samples(*topology, victim, options), 99);
  options.tcp = TcpVariant::kDctcp;
  options.queue = QueueDiscipline::kCoDel;
  const double dctcp = fabric::Percentile(Ns3Samples(*topology, victim, options), 99);
  // NewReno fills the 1000-packet FIFOs its flows cross; DCTCP's marks hold
  // them near 10 packets.
  EXPECT_LT(dctcp * 1.5, newreno) << "DCTCP " << dctcp << " ns, NewReno " << newreno << " ns";
}

TEST(Ns3WorkloadRun, AChainedMessageLeavesWhenItsPredecessorArrives) {
  fabric::TopologyPtr topology = Build("switch:3");
  const ValidationWorkload alltoall = Make("alltoall:64KiB", topology->EndpointCount());
  Ns3NetworkOptions options;
  options.ip_routing = IpRouting::kFabric;
  const std::vector<double> times = Ns3Times(*topology, alltoall, options);
  ASSERT_EQ(times.size(), 6u);
  // Each step of three is a permutation: rank r's second message leaves as
  // its first arrives, so no two messages ever share a link and each takes
  // about its time alone (sent at once, two would share each uplink).
  const std::vector<double> flow = FlowTimes(*topology, alltoall);
  for (std::size_t i = 0; i < times.size(); ++i) {
    EXPECT_GE(times[i], flow[i]) << "message " << i;
    EXPECT_LT(times[i], 1.5 * flow[i]) << "message " << i;
  }
}

TEST(Ns3WorkloadRun, FabricRoutingRefusesTooManyEndpoints) {
  fabric::TopologyPtr topology = Build("switch:1025");
  const ValidationWorkload permutation = Make("permutation:1KiB", topology->EndpointCount());
  Ns3NetworkOptions options;
  options.ip_routing = IpRouting::kFabric;
  auto times = Ns3WorkloadRun::Run(*topology, permutation, options);
  ASSERT_FALSE(times.ok());
  EXPECT_NE(times.status().message().find("--ip-routing fabric"), std::string::npos)
      << times.status();
}

}  // namespace
}  // namespace trestle::ns3_adapter
