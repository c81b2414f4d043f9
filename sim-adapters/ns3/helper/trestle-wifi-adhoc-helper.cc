#include "trestle-wifi-adhoc-helper.h"

#include "ns3/aodv-helper.h"
#include "ns3/double.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4.h"
#include "ns3/mobility-helper.h"
#include "ns3/olsr-helper.h"
#include "ns3/pointer.h"
#include "ns3/position-allocator.h"
#include "ns3/random-variable-stream.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/wifi-helper.h"
#include "ns3/wifi-net-device.h"
#include "ns3/wifi-phy.h"
#include "ns3/yans-wifi-helper.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

namespace
{

// The shortest time any data frame occupies the radio: the smallest MPDU
// (MAC header and FCS, 28 bytes) at the fastest rate. Every transfer needs
// at least one such frame received, so no transfer is faster.
Time
ShortestFrame(Ptr<WifiNetDevice> device)
{
    Ptr<WifiPhy> phy = device->GetPhy();
    Time shortest = Time::Max();
    for (const WifiMode& mode : phy->GetModeList())
    {
        WifiTxVector vector(mode, 0, WIFI_PREAMBLE_LONG, 800, 1, 1, 0, 20, false);
        shortest = std::min(shortest, WifiPhy::CalculateTxDuration(28, vector, phy->GetPhyBand()));
    }
    return shortest;
}

std::string
Uniform(double min, double max)
{
    std::ostringstream text;
    text << "ns3::UniformRandomVariable[Min=" << min << "|Max=" << max << "]";
    return text.str();
}

} // namespace

TrestleWifiAdhocHelper::TrestleWifiAdhocHelper()
    : m_routing(AODV),
      m_mobility(CONSTANT),
      m_width(100),
      m_height(100),
      m_minSpeed(1),
      m_maxSpeed(5),
      m_pause(Seconds(0))
{
}

void
TrestleWifiAdhocHelper::SetRouting(Routing routing)
{
    m_routing = routing;
}

void
TrestleWifiAdhocHelper::SetMobility(Mobility mobility)
{
    m_mobility = mobility;
}

void
TrestleWifiAdhocHelper::SetArea(double width, double height)
{
    m_width = width;
    m_height = height;
}

void
TrestleWifiAdhocHelper::SetSpeed(double minSpeed, double maxSpeed)
{
    m_minSpeed = minSpeed;
    m_maxSpeed = maxSpeed;
}

void
TrestleWifiAdhocHelper::SetPause(Time pause)
{
    m_pause = pause;
}

void
TrestleWifiAdhocHelper::SetQueue(const TrestleQueueHelper& queue)
{
    m_queue = queue;
}

int64_t
TrestleWifiAdhocHelper::InstallMobility(NodeContainer nodes, int64_t stream) const
{
    MobilityHelper mobility;
    if (m_mobility == CONSTANT)
    {
        const uint32_t columns =
            static_cast<uint32_t>(std::ceil(std::sqrt(static_cast<double>(nodes.GetN()))));
        const uint32_t rows = (nodes.GetN() + columns - 1) / columns;
        const double dx = m_width / columns;
        const double dy = m_height / rows;
        mobility.SetPositionAllocator("ns3::GridPositionAllocator",
                                      "MinX", DoubleValue(dx / 2),
                                      "MinY", DoubleValue(dy / 2),
                                      "DeltaX", DoubleValue(dx),
                                      "DeltaY", DoubleValue(dy),
                                      "GridWidth", UintegerValue(columns),
                                      "LayoutType", StringValue("RowFirst"));
        mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
        mobility.Install(nodes);
        return 0;
    }
    ObjectFactory area;
    area.SetTypeId("ns3::RandomRectanglePositionAllocator");
    area.Set("X", StringValue(Uniform(0, m_width)));
    area.Set("Y", StringValue(Uniform(0, m_height)));
    Ptr<PositionAllocator> waypoints = area.Create()->GetObject<PositionAllocator>();
    // Numbered before Install draws the starting positions from it.
    const int64_t used = waypoints->AssignStreams(stream);
    std::ostringstream pause;
    pause << "ns3::ConstantRandomVariable[Constant=" << m_pause.GetSeconds() << "]";
    mobility.SetMobilityModel("ns3::RandomWaypointMobilityModel",
                              "Speed", StringValue(Uniform(m_minSpeed, m_maxSpeed)),
                              "Pause", StringValue(pause.str()),
                              "PositionAllocator", PointerValue(waypoints));
    mobility.SetPositionAllocator(waypoints);
    mobility.Install(nodes);
    return used + mobility.AssignStreams(nodes, stream + used);
}

TrestleNetwork
TrestleWifiAdhocHelper::Install(uint32_t nodes) const
{
    TrestleNetwork network;
    network.nodes.Create(nodes);
    network.endpoints = network.nodes;

    WifiHelper wifi;
    wifi.SetStandard(WIFI_STANDARD_80211a);
    YansWifiChannelHelper channel = YansWifiChannelHelper::Default();
    YansWifiPhyHelper phy;
    Ptr<YansWifiChannel> radio = channel.Create();
    phy.SetChannel(radio);
    WifiMacHelper mac;
    mac.SetType("ns3::AdhocWifiMac");
    NetDeviceContainer devices = wifi.Install(phy, mac, network.nodes);
    network.links = devices.GetN();

    // Every random stream gets a fixed number, so that the same seed gives
    // the same run even after other simulations in the same process (ns-3
    // numbers streams it was not told about from a process-wide counter).
    int64_t stream = 0;
    stream += InstallMobility(network.nodes, stream);
    stream += wifi.AssignStreams(devices, stream);
    stream += channel.AssignStreams(radio, stream);

    InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    AodvHelper aodv;
    OlsrHelper olsr;
    if (m_routing == AODV)
    {
        stack.SetRoutingHelper(aodv);
    }
    else
    {
        stack.SetRoutingHelper(olsr);
    }
    stack.Install(network.nodes);
    stream += stack.AssignStreams(network.nodes, stream);
    stream += m_routing == AODV ? aodv.AssignStreams(network.nodes, stream)
                                : olsr.AssignStreams(network.nodes, stream);

    m_queue.Install(devices);
    Ipv4AddressHelper addresses("10.1.0.0", "255.255.0.0");
    addresses.Assign(devices);
    m_queue.AfterAddresses(devices);
    for (uint32_t i = 0; i < nodes; ++i)
    {
        network.endpointAddresses.push_back(
            network.nodes.Get(i)->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal());
    }
    network.minTransferTime = ShortestFrame(DynamicCast<WifiNetDevice>(devices.Get(0)));
    return network;
}

} // namespace ns3
