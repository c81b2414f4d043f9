#include "trestle-drop-monitor.h"

#include "trestle-message-tag.h"

#include "ns3/arp-l3-protocol.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/queue.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/wifi-net-device.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(TrestleDropMonitor);

TypeId
TrestleDropMonitor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TrestleDropMonitor")
            .SetParent<Object>()
            .SetGroupName("Trestle")
            .AddConstructor<TrestleDropMonitor>()
            .AddTraceSource("MessageDrop",
                            "A datagram of a Trestle message was dropped in the network.",
                            MakeTraceSourceAccessor(&TrestleDropMonitor::m_messageDropTrace),
                            "ns3::TrestleDropMonitor::MessageDropCallback");
    return tid;
}

TrestleDropMonitor::TrestleDropMonitor() = default;

void
TrestleDropMonitor::Monitor(Ptr<Node> node)
{
    if (Ptr<Ipv4L3Protocol> ip = node->GetObject<Ipv4L3Protocol>())
    {
        Listen(ip, "Drop", MakeCallback(&TrestleDropMonitor::IpDropped, this));
    }
    if (Ptr<ArpL3Protocol> arp = node->GetObject<ArpL3Protocol>())
    {
        Listen(arp, "Drop", MakeCallback(&TrestleDropMonitor::PacketDropped, this));
    }
    Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        Ptr<NetDevice> device = node->GetDevice(i);
        if (tc)
        {
            if (Ptr<QueueDisc> root = tc->GetRootQueueDiscOnDevice(device))
            {
                Listen(root, "Drop", MakeCallback(&TrestleDropMonitor::QueueDiscDropped, this));
            }
        }
        if (Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(device))
        {
            Listen(p2p->GetQueue(),
                   "Drop",
                   MakeCallback(&TrestleDropMonitor::PacketDropped, this));
        }
        if (Ptr<WifiNetDevice> wifi = DynamicCast<WifiNetDevice>(device))
        {
            Listen(wifi->GetMac(),
                   "MacTxDrop",
                   MakeCallback(&TrestleDropMonitor::PacketDropped, this));
            Listen(wifi->GetMac(),
                   "DroppedMpdu",
                   MakeCallback(&TrestleDropMonitor::MpduDropped, this));
        }
    }
}

void
TrestleDropMonitor::Listen(Ptr<Object> source, const std::string& name, const CallbackBase& sink)
{
    if (source->TraceConnectWithoutContext(name, sink))
    {
        m_connections.push_back(Connection{source, name, sink});
    }
}

void
TrestleDropMonitor::DoDispose()
{
    for (const Connection& connection : m_connections)
    {
        connection.source->TraceDisconnectWithoutContext(connection.name, connection.sink);
    }
    m_connections.clear();
    Object::DoDispose();
}

void
TrestleDropMonitor::PacketDropped(Ptr<const Packet> packet)
{
    TrestleMessageTag tag;
    if (packet->PeekPacketTag(tag))
    {
        m_messageDropTrace(tag.GetMessageId());
    }
}

void
TrestleDropMonitor::QueueDiscDropped(Ptr<const QueueDiscItem> item)
{
    PacketDropped(item->GetPacket());
}

void
TrestleDropMonitor::IpDropped(const Ipv4Header&,
                              Ptr<const Packet> packet,
                              Ipv4L3Protocol::DropReason,
                              Ptr<Ipv4>,
                              uint32_t)
{
    PacketDropped(packet);
}

void
TrestleDropMonitor::MpduDropped(WifiMacDropReason, Ptr<const WifiMpdu> mpdu)
{
    PacketDropped(mpdu->GetPacket());
}

} // namespace ns3
