// Ns3CollectiveSweep against the fabric model on the same experiments: ns-3
// is never faster than the congestion-unaware model (it adds headers,
// acknowledgements, store-and-forward hops and TCP's ramp-up), options it
// cannot honour are errors naming the flag, and lost messages are an error.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "trestle/fabric/collective_schedule.h"
#include "trestle/fabric/collective_sweep.h"
#include "trestle/fabric/topology_builder.h"
#include "trestle/ns3/ns3_collective_sweep.h"

namespace trestle::ns3_adapter {
namespace {

using fabric::Collective;
using fabric::CollectiveAlgorithm;

void ExpectNs3NeverBelowTheUnawareModel(const std::string& spec, Collective collective,
                                        CollectiveAlgorithm algorithm,
                                        const fabric::SweepOptions& options) {
  SCOPED_TRACE(spec);
  auto topology = fabric::TopologyBuilder::FromText(spec);
  ASSERT_TRUE(topology.ok()) << topology.status();
  auto schedule =
      fabric::CollectiveSchedule::Build(collective, algorithm, (*topology)->EndpointCount());
  ASSERT_TRUE(schedule.ok());
  const std::vector<std::uint64_t> sizes = {16 << 10, 256 << 10, 1 << 20};
  auto fabric_times = fabric::CollectiveSweep::Run(**topology, *schedule, sizes, options);
  ASSERT_TRUE(fabric_times.ok());
  Ns3SweepStats stats;
  auto ns3_times = Ns3CollectiveSweep::Run(**topology, *schedule, sizes, options, {}, &stats);
  ASSERT_TRUE(ns3_times.ok()) << ns3_times.status();
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    EXPECT_GE((*ns3_times)[i], (*fabric_times)[i]) << sizes[i] << " bytes";
    EXPECT_LT((*ns3_times)[i], 20 * (*fabric_times)[i]) << sizes[i] << " bytes: not absurd";
  }
  EXPECT_GT(stats.packets, 0u);
  EXPECT_GT(stats.events, stats.packets);
}

TEST(Ns3CollectiveSweep, RingAllReduceOnASwitchAndARingIsNeverBelowTheUnawareModel) {
  fabric::SweepOptions options;
  options.endpoint_delay = fabric::Duration::Nanoseconds(10);
  for (const char* spec : {"switch:8,link_bw=400Gbps,link_latency=500ns",
                           "ring:8,link_bw=400Gbps,link_latency=500ns"}) {
    ExpectNs3NeverBelowTheUnawareModel(spec, Collective::kAllReduce, CollectiveAlgorithm::kRing,
                                       options);
  }
}

TEST(Ns3CollectiveSweep, HalvingDoublingOnATorusWithReductionsIsNeverBelowTheUnawareModel) {
  fabric::SweepOptions options;
  options.reduce_bandwidth = fabric::Bandwidth::Gbps(800);
  options.chunks = 2;
  ExpectNs3NeverBelowTheUnawareModel("torus:2x4,link_bw=100Gbps,switch_latency=100ns",
                                     Collective::kAllReduce,
                                     CollectiveAlgorithm::kHalvingDoubling, options);
}

TEST(Ns3CollectiveSweep, OptionsTheBackendCannotHonourAreErrorsNamingTheFlag) {
  auto topology = fabric::TopologyBuilder::FromText("ring:4");
  ASSERT_TRUE(topology.ok());
  auto schedule = fabric::CollectiveSchedule::Build(Collective::kAllReduce,
                                                    CollectiveAlgorithm::kRing, 4);
  ASSERT_TRUE(schedule.ok());
  fabric::SweepOptions valiant;
  valiant.routing = fabric::RoutingKind::kValiant;
  auto refused = Ns3CollectiveSweep::Run(**topology, *schedule, {1024}, valiant, {});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("--routing"), std::string::npos) << refused.status();

  auto too_many = fabric::CollectiveSchedule::Build(Collective::kAllReduce,
                                                    CollectiveAlgorithm::kRing, 5);
  ASSERT_TRUE(too_many.ok());
  auto no_room = Ns3CollectiveSweep::Run(**topology, *too_many, {1024}, {}, {});
  ASSERT_FALSE(no_room.ok());
  EXPECT_NE(no_room.status().message().find("5 ranks"), std::string::npos) << no_room.status();
}

TEST(Ns3CollectiveSweep, ACollectiveThatLosesMessagesIsAnErrorNotATime) {
  auto topology = fabric::TopologyBuilder::FromText("switch:4,link_bw=10Gbps");
  ASSERT_TRUE(topology.ok());
  auto schedule = fabric::CollectiveSchedule::Build(Collective::kAllReduce,
                                                    CollectiveAlgorithm::kRing, 4);
  ASSERT_TRUE(schedule.ok());
  // Each step's 256 KiB (180 datagrams, written at once) fits in a sender's
  // queue of 1000 packets, and overflows one of 4.
  Ns3NetworkOptions udp;
  udp.transport = Transport::kUdp;
  auto fits = Ns3CollectiveSweep::Run(**topology, *schedule, {1 << 20}, {}, udp);
  ASSERT_TRUE(fits.ok()) << fits.status();
  udp.queue_size = QueueLimit{4, true};
  auto lossy = Ns3CollectiveSweep::Run(**topology, *schedule, {1 << 20}, {}, udp);
  ASSERT_FALSE(lossy.ok());
  EXPECT_EQ(lossy.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(lossy.status().message().find("lost at 1048576 bytes on switch:4"), std::string::npos)
      << lossy.status();
  EXPECT_NE(lossy.status().message().find("--transport udp"), std::string::npos) << lossy.status();
}

}  // namespace
}  // namespace trestle::ns3_adapter
