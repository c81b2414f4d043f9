// What the drop monitor and the transfer engine leave behind when they go
// before their network: ns-3's trace sources and event queue hold plain
// callbacks to them, and the nodes run on (Simulator::Destroy closes every
// socket, which fires IPv4 drop traces). Nothing may call them after that.
// Under `make test-sanitize` a call into a freed monitor or engine is a
// heap-use-after-free report; in any build the counts below must not move.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "adapter/ns3_network_impl.h"
#include "adapter/transfer_engine.h"
#include "ns3/callback.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "trestle-drop-monitor.h"
#include "trestle-message-tag.h"
#include "trestle/ns3/ns3_network.h"
#include "wired_network.h"

namespace trestle::ns3_adapter {
namespace {

std::uint64_t g_drops = 0;  // MessageDrop sink (simulator thread)
std::uint64_t g_last_dropped = 0;

void CountDrop(std::uint64_t message_id) {
  ++g_drops;
  g_last_dropped = message_id;
}

// A monitor of every node of `network`, its drops counted by CountDrop.
ns3::Ptr<ns3::TrestleDropMonitor> MonitorEveryNode(Ns3Network& network) {
  ns3::Ptr<ns3::TrestleDropMonitor> monitor = ns3::CreateObject<ns3::TrestleDropMonitor>();
  for (std::uint32_t n = 0; n < network.impl().network.nodes.GetN(); ++n) {
    monitor->Monitor(network.impl().network.nodes.Get(n));
  }
  monitor->TraceConnectWithoutContext("MessageDrop", ns3::MakeCallback(&CountDrop));
  return monitor;
}

// Has endpoint 0 send a datagram of `message_id` to a documentation address
// no node routes (IPv4 drops it, firing its Drop trace source, at the first
// node without a route), and runs the network until it is gone.
void DropFromEndpointZero(Ns3Network& network, std::uint64_t message_id) {
  ns3::Ptr<ns3::Ipv4L3Protocol> ip =
      network.impl().network.endpoints.Get(0)->GetObject<ns3::Ipv4L3Protocol>();
  const ns3::Ipv4Address from = network.impl().network.endpointAddresses[0];
  ns3::Simulator::ScheduleNow([ip, from, message_id] {
    ns3::Ptr<ns3::Packet> datagram = ns3::Create<ns3::Packet>(100);
    datagram->AddPacketTag(ns3::TrestleMessageTag(message_id));
    ip->Send(datagram, from, ns3::Ipv4Address("192.0.2.1"), 17, nullptr);
  });
  EXPECT_TRUE(network.impl().simulation.RunSlice(Simulation::kNoHorizon, Simulation::kNoHorizon));
}

TEST(TrestleDropMonitor, ReportsATaggedDropUntilDisposedAndNothingAfter) {
  std::unique_ptr<Ns3Network> network = Wired("switch:2");
  ASSERT_NE(network, nullptr);
  g_drops = 0;
  ns3::Ptr<ns3::TrestleDropMonitor> monitor = MonitorEveryNode(*network);
  DropFromEndpointZero(*network, 41);
  ASSERT_EQ(g_drops, 1u) << "the IPv4 Drop trace reaches the monitor";
  EXPECT_EQ(g_last_dropped, 41u);
  monitor->Dispose();
  DropFromEndpointZero(*network, 42);
  EXPECT_EQ(g_drops, 1u) << "a disposed monitor listens to nothing";
}

TEST(TrestleDropMonitor, ReleasingTheLastPtrDisconnectsItFromEverySource) {
  std::unique_ptr<Ns3Network> network = Wired("switch:2");
  ASSERT_NE(network, nullptr);
  g_drops = 0;
  MonitorEveryNode(*network);  // and release it at once
  DropFromEndpointZero(*network, 43);  // into a freed monitor, were it still connected
  EXPECT_EQ(g_drops, 0u);
}

// An engine destroyed with transfers scheduled and in flight, on TCP or
// UDP: the network runs on to its end and is destroyed (closing every
// socket) without a result or a call into the engine.
void ExpectNothingCallsAGoneEngine(Transport transport) {
  Ns3NetworkOptions options;
  options.transport = transport;
  std::unique_ptr<Ns3Network> network = Wired("ring:3", options);
  ASSERT_NE(network, nullptr);
  Simulation& simulation = network->impl().simulation;
  int results = 0;
  {
    TransferEngine engine(simulation, network->impl().network, network->options(),
                          [&results](const TransferResult&) { ++results; });
    engine.StartAt(0, TransferRequest{1, 0, 1, 1 << 20, 0});          // sent, then in flight
    engine.StartAt(0, TransferRequest{2, 1, 1, 10, 0});               // to itself
    engine.StartAt(1'000'000'000, TransferRequest{3, 2, 0, 1000, 0});  // not yet sent
    simulation.RunSlice(2'000'000, Simulation::kNoHorizon);           // 2 us
    EXPECT_EQ(results, 1) << "only the transfer to itself is done";
    EXPECT_EQ(engine.in_flight(), 2u);
  }
  EXPECT_TRUE(simulation.RunSlice(Simulation::kNoHorizon, Simulation::kNoHorizon));
  EXPECT_EQ(results, 1);
  network.reset();  // Simulator::Destroy: the applications close their sockets
  EXPECT_EQ(results, 1);
}

TEST(TransferEngine, NothingCallsAnEngineThatWentBeforeItsTcpNetwork) {
  ExpectNothingCallsAGoneEngine(Transport::kTcp);
}

TEST(TransferEngine, NothingCallsAnEngineThatWentBeforeItsUdpNetwork) {
  ExpectNothingCallsAGoneEngine(Transport::kUdp);
}

}  // namespace
}  // namespace trestle::ns3_adapter
