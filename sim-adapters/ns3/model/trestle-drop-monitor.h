/*
 * TrestleDropMonitor: finds where the network loses a datagram of a Trestle
 * message. It listens to the drop trace sources of the nodes it is given
 * (each device's root queue disc and transmit queue, IPv4 and ARP, the Wi-Fi
 * MAC), reads the TrestleMessageTag of every dropped packet and fires its
 * own trace source, MessageDrop (message id), once per dropped datagram.
 * Packets without the tag (TCP segments, routing protocol traffic) are
 * ignored: TCP recovers its own losses.
 *
 * Monitor a node once its devices, IPv4 stack and queue discs exist (the
 * network helpers install them all). Simulator thread only.
 *
 * Lifetime: the trace sources hold plain callbacks to the monitor, not
 * references, and outlive it (the nodes are disposed only when the
 * simulator is destroyed, and closing their sockets then still fires drop
 * traces). So the monitor holds a reference to every source it listens to
 * and disconnects from all of them when it is disposed; ns-3 disposes an
 * object before deleting it, so releasing the last Ptr does it too.
 */
#ifndef TRESTLE_DROP_MONITOR_H
#define TRESTLE_DROP_MONITOR_H

#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/queue-item.h"
#include "ns3/traced-callback.h"
#include "ns3/wifi-mac.h"
#include "ns3/wifi-mpdu.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class TrestleDropMonitor : public Object
{
  public:
    static TypeId GetTypeId();

    TrestleDropMonitor();

    /** Listens to every drop trace source of \p node's stack and devices. */
    void Monitor(Ptr<Node> node);

    typedef void (*MessageDropCallback)(uint64_t messageId);

  protected:
    /** Disconnects from every trace source Monitor connected to. */
    void DoDispose() override;

  private:
    /** A trace source this monitor listens to. */
    struct Connection
    {
        Ptr<Object> source;
        std::string name;
        CallbackBase sink;
    };

    void Listen(Ptr<Object> source, const std::string& name, const CallbackBase& sink);
    void PacketDropped(Ptr<const Packet> packet);
    void QueueDiscDropped(Ptr<const QueueDiscItem> item);
    void IpDropped(const Ipv4Header& header,
                   Ptr<const Packet> packet,
                   Ipv4L3Protocol::DropReason reason,
                   Ptr<Ipv4> ipv4,
                   uint32_t interface);
    void MpduDropped(WifiMacDropReason reason, Ptr<const WifiMpdu> mpdu);

    TracedCallback<uint64_t> m_messageDropTrace;
    std::vector<Connection> m_connections;
};

} // namespace ns3

#endif /* TRESTLE_DROP_MONITOR_H */
