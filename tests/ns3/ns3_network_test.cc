// Ns3Network through the transit handler in virtual time: the wired
// networks of the fabric model's specs carry messages between every pair of
// endpoints; a TCP transfer over one link takes what its bytes on the wire
// say; UDP through a small queue loses messages and says so; the
// wifi-adhoc scenario delivers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>

#include "handler_run.h"
#include "trestle/fabric/topology_builder.h"
#include "trestle/ns3/ns3_network.h"
#include "trestle/ns3/ns3_transit_handler.h"
#include "wired_network.h"

namespace trestle::ns3_adapter {
namespace {

// Sends `size` bytes from every endpoint to every other at t = 1 us and
// checks that all arrive, after at least the network's bound.
void ExpectEveryPairReachable(const std::string& spec, const Ns3NetworkOptions& options = {}) {
  SCOPED_TRACE(spec);
  std::unique_ptr<Ns3Network> network = Wired(spec, options);
  ASSERT_NE(network, nullptr);
  HandlerRun run(*network, wire::TIME_MODE_VIRTUAL);
  const std::uint32_t n = network->endpoint_count();
  std::uint64_t id = 1;
  for (std::uint32_t src = 0; src < n; ++src) {
    for (std::uint32_t dst = 0; dst < n; ++dst) {
      if (src != dst) run.handler.HandleTransit(MakeTransit(id++, 1000, 1000), {src, dst});
    }
  }
  ASSERT_TRUE(run.RunUntilIdle());
  EXPECT_EQ(run.sink.delivered(), std::size_t{n} * (n - 1));
  EXPECT_EQ(run.sink.dropped(), 0u);
  for (const auto& [message, posted] : run.sink.outcomes()) {
    EXPECT_GE(posted.t_ns, 1000 + network->min_transfer_ns()) << "message " << message;
  }
  EXPECT_EQ(run.handler.stats().late_transits, 0u);
}

TEST(Ns3Network, EveryPairOfEndpointsOfASwitchCanReachEachOther) {
  ExpectEveryPairReachable("switch:5");
}
TEST(Ns3Network, EveryPairOfEndpointsOfARingCanReachEachOther) {
  ExpectEveryPairReachable("ring:6");
}
TEST(Ns3Network, EveryPairOfEndpointsOfATorusCanReachEachOther) {
  ExpectEveryPairReachable("torus:3x3");
}
TEST(Ns3Network, EveryPairOfEndpointsOfAFatTreeCanReachEachOther) {
  ExpectEveryPairReachable("fattree:k=4");
}
TEST(Ns3Network, EveryPairOfEndpointsOfADragonflyCanReachEachOther) {
  ExpectEveryPairReachable("dragonfly:p=2,a=2,h=1,g=3");
}
TEST(Ns3Network, NixVectorRoutingReachesEveryPairToo) {
  Ns3NetworkOptions options;
  options.ip_routing = IpRouting::kNixVector;
  ExpectEveryPairReachable("torus:2x3", options);
}

TEST(Ns3Network, AutoRoutingIsGlobalForSmallNetworksAndNixVectorForLargeOnes) {
  std::unique_ptr<Ns3Network> small = Wired("switch:255");  // 256 nodes
  ASSERT_NE(small, nullptr);
  EXPECT_NE(small->description().find("global routing"), std::string::npos)
      << small->description();
  small.reset();
  std::unique_ptr<Ns3Network> large = Wired("switch:256");  // 257 nodes
  ASSERT_NE(large, nullptr);
  EXPECT_NE(large->description().find("nix-vector routing"), std::string::npos)
      << large->description();
}

TEST(Ns3Network, OneMebibyteOverOneLinkTakesItsBytesOnTheWireOverTheRatePlusTheDelay) {
  // Two endpoints, one 1 Gbit/s link of 1 us: the bandwidth-delay product
  // (250 B) is far below TCP's first window, so the link is never idle.
  std::unique_ptr<Ns3Network> network = Wired("fullmesh:2,link_bw=1Gbps,link_latency=1us");
  ASSERT_NE(network, nullptr);
  ASSERT_EQ(network->link_count(), 1u);
  HandlerRun run(*network, wire::TIME_MODE_VIRTUAL);
  const std::uint64_t size = 1 << 20;
  run.handler.HandleTransit(MakeTransit(7, size, 0), {0, 1});
  ASSERT_TRUE(run.RunUntilIdle());
  ASSERT_EQ(run.sink.delivered(), 1u);

  // The stream carries a 16-byte Trestle header; every 1448-byte segment
  // adds TCP (20), its timestamp option (12), IPv4 (20) and PPP (2) bytes.
  // Connecting costs a SYN and SYN-ACK (58 B each way) before the data.
  const double stream = size + 16;
  const double segments = std::ceil(stream / 1448);
  const double wire_bytes = stream + segments * (20 + 12 + 20 + 2);
  const double bits_per_ns = 1.0;
  const double expected_ns = wire_bytes * 8 / bits_per_ns + 1000;
  const double measured_ns = static_cast<double>(run.sink.outcomes().at(7).t_ns);
  EXPECT_NEAR(measured_ns, expected_ns, 0.05 * expected_ns)
      << "expected " << expected_ns << " ns, measured " << measured_ns << " ns";
  EXPECT_GT(measured_ns, expected_ns) << "nothing is faster than the wire";
}

TEST(Ns3Network, UdpThroughASmallQueueReportsItsLossesAsDroppedAndCountsThem) {
  // Two senders into one receiver through a switch whose queues hold 4
  // packets (+1 in each device): every 20 us both send a 6-datagram message
  // at once. Each sender's own queue holds its burst; the switch's port to
  // the receiver gets 12 datagrams while it sends 6, and drops.
  Ns3NetworkOptions options;
  options.transport = Transport::kUdp;
  options.queue_size = QueueLimit{4, true};
  std::unique_ptr<Ns3Network> network = Wired("switch:3,link_bw=10Gbps", options);
  ASSERT_NE(network, nullptr);
  HandlerRun run(*network, wire::TIME_MODE_VIRTUAL);
  const int kMessages = 40;
  auto t_send = [](int i) { return static_cast<std::uint64_t>(20'000 * (i / 2)); };
  for (int i = 0; i < kMessages; ++i) {
    run.handler.HandleTransit(MakeTransit(100 + i, 8000, t_send(i)),
                          {static_cast<std::uint32_t>(i % 2), 2});
  }
  ASSERT_TRUE(run.RunUntilIdle());
  EXPECT_EQ(run.sink.delivered() + run.sink.dropped(), static_cast<std::size_t>(kMessages));
  EXPECT_GT(run.sink.dropped(), 0u) << "the switch's queue overflows";
  EXPECT_GT(run.sink.delivered(), 0u) << "and drains";
  EXPECT_EQ(run.handler.stats().dropped, run.sink.dropped());
  EXPECT_EQ(run.handler.stats().delivered, run.sink.delivered());
  for (const auto& [id, posted] : run.sink.outcomes()) {
    // A loss is found at the switch, one link (and a datagram) after the send.
    EXPECT_GT(posted.t_ns, t_send(static_cast<int>(id - 100)) + 100) << "message " << id;
  }
}

TEST(Ns3Network, EveryQueueDisciplineCarriesTcpInPacketsAndWhereItCountsThemInBytes) {
  struct Case {
    QueueDiscipline queue;
    const char* size;
  };
  for (const Case& c : {Case{QueueDiscipline::kFifo, "100p"}, Case{QueueDiscipline::kFifo, "150KB"},
                        Case{QueueDiscipline::kRed, "100p"}, Case{QueueDiscipline::kRed, "150KB"},
                        Case{QueueDiscipline::kCoDel, "100p"}, Case{QueueDiscipline::kCoDel, "150KB"},
                        Case{QueueDiscipline::kFqCoDel, "100p"},
                        Case{QueueDiscipline::kPfifoFast, "100p"},
                        Case{QueueDiscipline::kNone, "100p"}, Case{QueueDiscipline::kNone, "150KB"}}) {
    SCOPED_TRACE(std::string(QueueDisciplineName(c.queue)) + " " + c.size);
    Ns3NetworkOptions options;
    options.queue = c.queue;
    options.queue_size = *QueueLimit::Parse(c.size);
    std::unique_ptr<Ns3Network> network = Wired("switch:3,link_bw=10Gbps", options);
    ASSERT_NE(network, nullptr);
    EXPECT_NE(network->description().find(std::string("queue ") +
                                          std::string(QueueDisciplineName(c.queue))),
              std::string::npos)
        << network->description();
    HandlerRun run(*network, wire::TIME_MODE_VIRTUAL);
    // Two senders into one receiver: 64 KiB each, through the switch.
    run.handler.HandleTransit(MakeTransit(1, 64 << 10, 0), {0, 2});
    run.handler.HandleTransit(MakeTransit(2, 64 << 10, 0), {1, 2});
    ASSERT_TRUE(run.RunUntilIdle());
    EXPECT_EQ(run.sink.delivered(), 2u) << run.sink.dropped() << " dropped";
    // Each needs 52 us of the receiver's 10 Gbit/s link; both, 105 us.
    const std::uint64_t first = std::min(run.sink.outcomes().at(1).t_ns, run.sink.outcomes().at(2).t_ns);
    const std::uint64_t last = std::max(run.sink.outcomes().at(1).t_ns, run.sink.outcomes().at(2).t_ns);
    EXPECT_GT(first, (64u << 10) * 8 / 10);
    EXPECT_GT(last, 2 * (64u << 10) * 8 / 10);
  }
}

TEST(Ns3Network, UdpThroughAFreeNetworkDeliversEverything) {
  Ns3NetworkOptions options;
  options.transport = Transport::kUdp;
  std::unique_ptr<Ns3Network> network = Wired("ring:4", options);
  ASSERT_NE(network, nullptr);
  HandlerRun run(*network, wire::TIME_MODE_VIRTUAL);
  for (std::uint64_t size : {0, 1, 1456, 1457, 100000}) {
    run.handler.HandleTransit(MakeTransit(size + 1, size, 0), {0, 2});
  }
  ASSERT_TRUE(run.RunUntilIdle());
  EXPECT_EQ(run.sink.delivered(), 5u);
}

TEST(Ns3Network, AFourNodeWifiAdhocScenarioDeliversWithTDeliverAfterTSend) {
  WifiAdhocOptions scenario;
  scenario.nodes = 4;
  absl::StatusOr<std::unique_ptr<Ns3Network>> network =
      Ns3Network::BuildWifiAdhoc(scenario, Ns3NetworkOptions{});
  ASSERT_TRUE(network.ok()) << network.status();
  HandlerRun run(**network, wire::TIME_MODE_VIRTUAL);
  std::uint64_t id = 1;
  for (std::uint32_t src = 0; src < 4; ++src) {
    for (std::uint32_t dst = 0; dst < 4; ++dst) {
      if (src != dst) run.handler.HandleTransit(MakeTransit(id++, 2000, 1'000'000 * src), {src, dst});
    }
  }
  ASSERT_TRUE(run.RunUntilIdle());
  EXPECT_EQ(run.sink.delivered(), 12u);
  for (const auto& [message, posted] : run.sink.outcomes()) {
    const std::uint64_t t_send = 1'000'000 * ((message - 1) / 3);
    EXPECT_GT(posted.t_ns, t_send + (*network)->min_transfer_ns()) << "message " << message;
  }
}

TEST(Ns3Network, OlsrDeliversOnceItHasSettledDuringTheWarmup) {
  WifiAdhocOptions scenario;
  scenario.nodes = 4;
  scenario.routing = WifiRouting::kOlsr;
  Ns3NetworkOptions options;
  options.warmup_ns = 10'000'000'000;
  auto network = Ns3Network::BuildWifiAdhoc(scenario, options);
  ASSERT_TRUE(network.ok()) << network.status();
  HandlerRun run(**network, wire::TIME_MODE_VIRTUAL);
  run.handler.HandleTransit(MakeTransit(1, 1000, 0), {0, 3});
  run.handler.HandleTransit(MakeTransit(2, 1000, 0), {3, 0});
  ASSERT_TRUE(run.RunUntilIdle());
  EXPECT_EQ(run.sink.delivered(), 2u) << run.sink.dropped() << " dropped";
  for (const auto& [id, posted] : run.sink.outcomes()) {
    EXPECT_LT(posted.t_ns, 100'000'000u) << "routes were there at time zero";
  }
}

TEST(Ns3Network, ARandomWaypointScenarioRepeatsExactlyWithTheSameSeed) {
  auto run = [](std::uint64_t seed) {
    WifiAdhocOptions scenario;
    scenario.nodes = 4;
    scenario.mobility = Mobility::kRandomWaypoint;
    Ns3NetworkOptions options;
    options.seed = seed;
    auto network = Ns3Network::BuildWifiAdhoc(scenario, options);
    EXPECT_TRUE(network.ok());
    HandlerRun run(**network, wire::TIME_MODE_VIRTUAL);
    for (std::uint32_t i = 0; i < 6; ++i) {
      run.handler.HandleTransit(MakeTransit(i + 1, 3000, 200'000'000 * i), {i % 4, (i + 1) % 4});
    }
    EXPECT_TRUE(run.RunUntilIdle());
    return run.sink.log();
  };
  const auto first = run(7);
  EXPECT_EQ(first.size(), 6u);
  EXPECT_EQ(run(7), first);
}

TEST(Ns3Network, BadOptionsAndASecondNetworkAreErrorsThatSaySo) {
  absl::StatusOr<fabric::TopologyPtr> ring = fabric::TopologyBuilder::FromText("ring:4");
  ASSERT_TRUE(ring.ok());
  Ns3NetworkOptions bad_mtu;
  bad_mtu.mtu = 100;
  auto refused = Ns3Network::BuildWired(**ring, bad_mtu);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("--mtu"), std::string::npos) << refused.status();

  auto first = Ns3Network::BuildWired(**ring, {});
  ASSERT_TRUE(first.ok());
  auto second = Ns3Network::BuildWired(**ring, {});
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace trestle::ns3_adapter
