// TrestlePathRouting through ns-3's own IPv4 routing calls: with
// --ip-routing fabric, a packet from every endpoint to every other, asked of
// each node's routing in turn (RouteOutput at the source, RouteInput at every
// node after), crosses exactly the nodes of the fabric model's minimal path,
// on indirect networks with ECMP (fat tree), with parallel links (dragonfly)
// and where endpoints forward (torus), each fabric link on its own device.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <memory>
#include <string>

#include "adapter/ns3_network_impl.h"
#include "ns3/channel.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4.h"
#include "ns3/packet.h"
#include "trestle/fabric/routing.h"
#include "trestle/fabric/topology_builder.h"
#include "trestle/ns3/ns3_network.h"

namespace trestle::ns3_adapter {
namespace {

// The device at the other end of `device`'s point-to-point channel.
ns3::Ptr<ns3::NetDevice> FarEnd(ns3::Ptr<ns3::NetDevice> device) {
  ns3::Ptr<ns3::Channel> channel = device->GetChannel();
  for (std::size_t i = 0; i < channel->GetNDevices(); ++i) {
    if (channel->GetDevice(i) != device) return channel->GetDevice(i);
  }
  return nullptr;
}

void KeepRoute(ns3::Ptr<ns3::Ipv4Route>* out, ns3::Ptr<ns3::Ipv4Route> route,
               ns3::Ptr<const ns3::Packet>, const ns3::Ipv4Header&) {
  *out = route;
}

void ExpectPacketsFollowTheFabricPaths(const std::string& spec) {
  SCOPED_TRACE(spec);
  auto topology = fabric::TopologyBuilder::FromText(spec);
  ASSERT_TRUE(topology.ok()) << topology.status();
  Ns3NetworkOptions options;
  options.ip_routing = IpRouting::kFabric;
  options.seed = 7;
  auto network = Ns3Network::BuildWired(**topology, options);
  ASSERT_TRUE(network.ok()) << network.status();
  const ns3::TrestleNetwork& built = (*network)->impl().network;
  fabric::RoutingPtr routing =
      fabric::MakeRouting(fabric::RoutingKind::kMinimal, **topology, options.seed);
  fabric::Path path;
  // Each directed link of the fabric model is one ns-3 device, and no two
  // links share one (parallel cables stay apart).
  std::map<fabric::LinkId, ns3::Ptr<ns3::NetDevice>> device_of;
  std::set<ns3::Ptr<ns3::NetDevice>> devices;
  const std::uint32_t n = (*topology)->EndpointCount();
  for (fabric::NodeId src = 0; src < n; ++src) {
    for (fabric::NodeId dst = 0; dst < n; ++dst) {
      if (src == dst) continue;
      routing->Route(src, dst, 0, &path);
      ns3::Ipv4Header header;
      header.SetSource(built.endpointAddresses[src]);
      header.SetDestination(built.endpointAddresses[dst]);
      ns3::Ptr<ns3::Packet> packet = ns3::Create<ns3::Packet>(100);
      ns3::Ptr<ns3::NetDevice> arrived_on;
      for (std::size_t hop = 0; hop < path.HopCount(); ++hop) {
        const fabric::LinkEnds ends = (*topology)->EndsOf(path[hop]);
        ns3::Ptr<ns3::Ipv4> ipv4 = built.nodes.Get(ends.from)->GetObject<ns3::Ipv4>();
        ns3::Ptr<ns3::Ipv4Route> route;
        if (hop == 0) {
          ns3::Socket::SocketErrno error;
          route = ipv4->GetRoutingProtocol()->RouteOutput(packet, header, nullptr, error);
        } else {
          ipv4->GetRoutingProtocol()->RouteInput(
              packet, header, arrived_on,
              ns3::MakeBoundCallback(&KeepRoute, &route),
              ns3::Ipv4RoutingProtocol::MulticastForwardCallback(),
              ns3::Ipv4RoutingProtocol::LocalDeliverCallback(),
              ns3::Ipv4RoutingProtocol::ErrorCallback());
        }
        ASSERT_NE(route, nullptr) << src << " -> " << dst << ", hop " << hop;
        if (hop == 0) EXPECT_EQ(route->GetSource(), built.endpointAddresses[src]);
        auto [known, added] = device_of.emplace(path[hop], route->GetOutputDevice());
        EXPECT_EQ(known->second, route->GetOutputDevice()) << "link " << path[hop];
        if (added) EXPECT_TRUE(devices.insert(route->GetOutputDevice()).second) << "link " << path[hop];
        arrived_on = FarEnd(route->GetOutputDevice());
        ASSERT_NE(arrived_on, nullptr);
        ASSERT_EQ(arrived_on->GetNode(), built.nodes.Get(ends.to))
            << src << " -> " << dst << ", hop " << hop << " should reach node " << ends.to;
      }
    }
  }
}

TEST(TrestlePathRouting, PacketsFollowTheFabricPathsOnAFatTree) {
  ExpectPacketsFollowTheFabricPaths("fattree:k=4");
}
TEST(TrestlePathRouting, PacketsFollowTheFabricPathsOnADragonflyWithParallelGlobalLinks) {
  ExpectPacketsFollowTheFabricPaths("dragonfly:p=2,a=4,h=2,g=3");
}
TEST(TrestlePathRouting, PacketsFollowTheFabricPathsOnATorusWhereEndpointsForward) {
  ExpectPacketsFollowTheFabricPaths("torus:3x4");
}

}  // namespace
}  // namespace trestle::ns3_adapter
