#include "trestle-wired-network-helper.h"

#include "ns3/data-rate.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-interface-address.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/ipv4-list-routing.h"
#include "ns3/ipv4.h"
#include "ns3/nix-vector-helper.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/uinteger.h"

#include "trestle-path-routing.h"
#include "trestle-path-table.h"

#include "trestle/fabric/network_model_factory.h"

#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace ns3
{

TrestleWiredNetworkHelper::TrestleWiredNetworkHelper()
    : m_mtu(1500),
      m_nixVector(false),
      m_pathRouting(false),
      m_pathSeed(1)
{
}

void
TrestleWiredNetworkHelper::SetQueue(const TrestleQueueHelper& queue)
{
    m_queue = queue;
}

void
TrestleWiredNetworkHelper::SetMtu(uint16_t mtu)
{
    m_mtu = mtu;
}

void
TrestleWiredNetworkHelper::SetNixVectorRouting(bool nixVector)
{
    m_nixVector = nixVector;
}

void
TrestleWiredNetworkHelper::SetPathRouting(bool pathRouting, uint64_t seed)
{
    m_pathRouting = pathRouting;
    m_pathSeed = seed;
}

TrestleNetwork
TrestleWiredNetworkHelper::Install(const trestle::fabric::Topology& topology) const
{
    using trestle::fabric::LinkId;
    using trestle::fabric::NodeId;

    TrestleNetwork network;
    network.nodes.Create(topology.NodeCount());
    for (NodeId e = 0; e < topology.EndpointCount(); ++e)
    {
        network.endpoints.Add(network.nodes.Get(e));
    }

    InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    if (m_nixVector)
    {
        stack.SetRoutingHelper(Ipv4NixVectorHelper());
    }
    stack.Install(network.nodes);
    // Fixed stream numbers: the same run after other simulations in the process.
    stack.AssignStreams(network.nodes, 0);

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(m_queue.GetDeviceQueueSize()));
    // Link i is 10.0.0.0/8's i-th /30: its ends are .1 and .2 of it.
    // Assigned directly, not through Ipv4AddressHelper, whose collision
    // bookkeeping costs O(links) per address (minutes at 10,000 links).
    const Ipv4Mask mask("255.255.255.252");
    const uint32_t base = Ipv4Address("10.0.0.0").Get();
    auto assign = [&](Ptr<NetDevice> device, uint32_t address) {
        Ptr<Ipv4> ipv4 = device->GetNode()->GetObject<Ipv4>();
        const int32_t interface = ipv4->AddInterface(device);
        ipv4->AddAddress(interface, Ipv4InterfaceAddress(Ipv4Address(address), mask));
        ipv4->SetMetric(interface, 1);
        ipv4->SetUp(interface);
        return static_cast<uint32_t>(interface);
    };
    // For path routing: where each directed link leaves its node. A cable
    // is built from its lower-numbered end; the links back over the cables
    // between two nodes take those cables' other ends, in order.
    std::vector<TrestlePathTable::LinkExit> exits(m_pathRouting ? topology.LinkIdCount() : 0);
    std::map<std::pair<NodeId, NodeId>, std::vector<TrestlePathTable::LinkExit>> backExits;
    std::map<std::pair<NodeId, NodeId>, size_t> backUsed;

    const double switchPs = topology.params().switch_latency.ns() * 1000.0;
    auto isRouter = [&topology](NodeId node) {
        return topology.IsDirect() || node >= topology.EndpointCount();
    };
    std::vector<LinkId> links;
    for (NodeId from = 0; from < topology.NodeCount(); ++from)
    {
        links.clear();
        topology.AppendLinksFrom(from, &links);
        for (LinkId link : links)
        {
            const NodeId to = topology.EndsOf(link).to;
            if (to < from)
            {
                // The cable was built from its other end.
                if (m_pathRouting)
                {
                    exits[link] = backExits[{to, from}].at(backUsed[{to, from}]++);
                }
                continue;
            }
            const trestle::fabric::LinkProperties properties = topology.PropertiesOf(link);
            const int routerEnds = (isRouter(from) ? 1 : 0) + (isRouter(to) ? 1 : 0);
            const double delayPs = properties.latency.ns() * 1000.0 + switchPs * routerEnds / 2;
            p2p.SetDeviceAttribute(
                "DataRate",
                DataRateValue(DataRate(static_cast<uint64_t>(
                    std::llround(properties.bandwidth.bytes_per_ns() * 8e9)))));
            p2p.SetChannelAttribute("Delay",
                                    TimeValue(PicoSeconds(static_cast<uint64_t>(std::llround(delayPs)))));
            NetDeviceContainer devices = p2p.Install(network.nodes.Get(from), network.nodes.Get(to));
            m_queue.Install(devices);
            const uint32_t near = base + 4 * network.links + 1;
            const uint32_t far = near + 1;
            const uint32_t nearInterface = assign(devices.Get(0), near);
            const uint32_t farInterface = assign(devices.Get(1), far);
            if (m_pathRouting)
            {
                exits[link] = {from, nearInterface, Ipv4Address(far)};
                backExits[{from, to}].push_back({to, farInterface, Ipv4Address(near)});
            }
            ++network.links;
        }
    }

    for (NodeId e = 0; e < topology.EndpointCount(); ++e)
    {
        Ptr<Ipv4> ipv4 = network.endpoints.Get(e)->GetObject<Ipv4>();
        // Interface 0 is the loopback; 1 is the endpoint's first link.
        network.endpointAddresses.push_back(ipv4->GetNInterfaces() > 1 ? ipv4->GetAddress(1, 0).GetLocal()
                                                                      : Ipv4Address::GetLoopback());
    }
    if (m_pathRouting)
    {
        auto table = std::make_shared<const TrestlePathTable>(topology,
                                                              std::move(exits),
                                                              network.endpointAddresses,
                                                              m_pathSeed);
        for (NodeId node = 0; node < topology.NodeCount(); ++node)
        {
            Ptr<Ipv4> ipv4 = network.nodes.Get(node)->GetObject<Ipv4>();
            Ptr<Ipv4ListRouting> list = DynamicCast<Ipv4ListRouting>(ipv4->GetRoutingProtocol());
            Ptr<TrestlePathRouting> paths = CreateObject<TrestlePathRouting>();
            paths->SetTable(table, node);
            list->AddRoutingProtocol(paths, 100);
        }
    }
    else if (!m_nixVector)
    {
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    }
    // The fabric model's bound: the link and switch latencies of the
    // shortest path, which every packet of a transfer pays here too.
    const double boundNs = trestle::fabric::MakeNetworkModel(trestle::fabric::NetworkModelKind::kUnaware,
                                                             topology,
                                                             {})
                               ->MinLatency()
                               .between_endpoints_ns;
    network.minTransferTime = std::isfinite(boundNs)
                                  ? PicoSeconds(static_cast<uint64_t>(std::floor(boundNs * 1000.0)))
                                  : Time::Max();
    return network;
}

} // namespace ns3
