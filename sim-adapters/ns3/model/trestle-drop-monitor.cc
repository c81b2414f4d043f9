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
        ip->TraceConnectWithoutContext("Drop", MakeCallback(&TrestleDropMonitor::IpDropped, this));
    }
    if (Ptr<ArpL3Protocol> arp = node->GetObject<ArpL3Protocol>())
    {
        arp->TraceConnectWithoutContext("Drop",
                                        MakeCallback(&TrestleDropMonitor::PacketDropped, this));
    }
    Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        Ptr<NetDevice> device = node->GetDevice(i);
        if (tc)
        {
            if (Ptr<QueueDisc> root = tc->GetRootQueueDiscOnDevice(device))
            {
                root->TraceConnectWithoutContext(
                    "Drop",
                    MakeCallback(&TrestleDropMonitor::QueueDiscDropped, this));
            }
        }
        if (Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(device))
        {
            p2p->GetQueue()->TraceConnectWithoutContext(
                "Drop",
                MakeCallback(&TrestleDropMonitor::PacketDropped, this));
        }
        if (Ptr<WifiNetDevice> wifi = DynamicCast<WifiNetDevice>(device))
        {
            wifi->GetMac()->TraceConnectWithoutContext(
                "MacTxDrop",
                MakeCallback(&TrestleDropMonitor::PacketDropped, this));
            wifi->GetMac()->TraceConnectWithoutContext(
                "DroppedMpdu",
                MakeCallback(&TrestleDropMonitor::MpduDropped, this));
        }
    }
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
