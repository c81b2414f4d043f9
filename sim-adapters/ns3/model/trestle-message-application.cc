#include "trestle-message-application.h"

#include "trestle-message-header.h"
#include "trestle-message-tag.h"

#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(TrestleMessageApplication);

TypeId
TrestleMessageApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TrestleMessageApplication")
            .SetParent<Application>()
            .SetGroupName("Trestle")
            .AddConstructor<TrestleMessageApplication>()
            .AddAttribute("Protocol",
                          "Transport of the messages: reliable TCP or lossy UDP.",
                          EnumValue(TrestleMessageApplication::TCP),
                          MakeEnumAccessor(&TrestleMessageApplication::m_protocol),
                          MakeEnumChecker(TrestleMessageApplication::TCP,
                                          "Tcp",
                                          TrestleMessageApplication::UDP,
                                          "Udp"))
            .AddAttribute("Port",
                          "The port every endpoint listens on.",
                          UintegerValue(5000),
                          MakeUintegerAccessor(&TrestleMessageApplication::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("MaxDatagramPayload",
                          "UDP: message bytes per datagram, after the Trestle header.",
                          UintegerValue(1456),
                          MakeUintegerAccessor(&TrestleMessageApplication::m_maxDatagramPayload),
                          MakeUintegerChecker<uint32_t>(1, 65000))
            .AddTraceSource("MessageRx",
                            "TCP: the last byte of a message was read here.",
                            MakeTraceSourceAccessor(&TrestleMessageApplication::m_messageRxTrace),
                            "ns3::TrestleMessageApplication::MessageRxCallback")
            .AddTraceSource("DatagramRx",
                            "UDP: a datagram of a message arrived here.",
                            MakeTraceSourceAccessor(&TrestleMessageApplication::m_datagramRxTrace),
                            "ns3::TrestleMessageApplication::DatagramRxCallback")
            .AddTraceSource(
                "ConnectionFailed",
                "TCP: the connection to a peer failed; the messages it carried are lost.",
                MakeTraceSourceAccessor(&TrestleMessageApplication::m_connectionFailedTrace),
                "ns3::TrestleMessageApplication::ConnectionFailedCallback")
            .AddTraceSource(
                "DatagramSendFailed",
                "UDP: the socket refused a datagram of a message.",
                MakeTraceSourceAccessor(&TrestleMessageApplication::m_datagramSendFailedTrace),
                "ns3::TrestleMessageApplication::DatagramSendFailedCallback");
    return tid;
}

TrestleMessageApplication::TrestleMessageApplication()
    : m_protocol(TCP),
      m_port(5000),
      m_maxDatagramPayload(1456)
{
}

TrestleMessageApplication::~TrestleMessageApplication() = default;

TrestleMessageApplication::Protocol
TrestleMessageApplication::GetProtocol() const
{
    return m_protocol;
}

void
TrestleMessageApplication::DoDispose()
{
    StopApplication();
    Application::DoDispose();
}

void
TrestleMessageApplication::StartApplication()
{
    const InetSocketAddress local(Ipv4Address::GetAny(), m_port);
    if (m_protocol == TCP)
    {
        m_listener = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
        m_listener->Bind(local);
        m_listener->Listen();
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeCallback(&TrestleMessageApplication::Accepted, this));
    }
    else
    {
        m_udpSocket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
        m_udpSocket->Bind(local);
        m_udpSocket->SetRecvCallback(MakeCallback(&TrestleMessageApplication::ReceiveUdp, this));
    }
}

void
TrestleMessageApplication::StopApplication()
{
    for (auto& [peer, sender] : m_senders)
    {
        sender->Close();
    }
    m_senders.clear();
    for (auto& [socket, reader] : m_readers)
    {
        socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        socket->Close();
    }
    m_readers.clear();
    for (Ptr<Socket>* socket : {&m_listener, &m_udpSocket})
    {
        if (*socket)
        {
            (*socket)->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
            (*socket)->Close();
            *socket = nullptr;
        }
    }
}

void
TrestleMessageApplication::SendMessage(uint64_t messageId, Ipv4Address peer, uint64_t size)
{
    if (m_protocol == TCP)
    {
        SendTcp(messageId, peer, size);
    }
    else
    {
        SendUdp(messageId, peer, size);
    }
}

void
TrestleMessageApplication::SendTcp(uint64_t messageId, Ipv4Address peer, uint64_t size)
{
    auto it = m_senders.find(peer);
    if (it == m_senders.end())
    {
        it = m_senders
                 .emplace(peer,
                          Create<TrestleTcpMessageSender>(
                              GetNode(),
                              InetSocketAddress(peer, m_port),
                              MakeCallback(&TrestleMessageApplication::SenderFailed, this)))
                 .first;
    }
    it->second->Enqueue(messageId, size);
}

void
TrestleMessageApplication::SendUdp(uint64_t messageId, Ipv4Address peer, uint64_t size)
{
    const InetSocketAddress to(peer, m_port);
    uint64_t left = size;
    // A message of 0 bytes is still one datagram: its header says it arrived.
    do
    {
        const uint32_t take = static_cast<uint32_t>(std::min<uint64_t>(left, m_maxDatagramPayload));
        Ptr<Packet> datagram = Create<Packet>(take);
        datagram->AddHeader(TrestleMessageHeader(messageId, size));
        datagram->AddPacketTag(TrestleMessageTag(messageId));
        if (m_udpSocket->SendTo(datagram, 0, to) < 0)
        {
            m_datagramSendFailedTrace(messageId);
            return;
        }
        left -= take;
    } while (left > 0);
}

void
TrestleMessageApplication::Accepted(Ptr<Socket> socket, const Address&)
{
    socket->SetRecvCallback(MakeCallback(&TrestleMessageApplication::ReceiveTcp, this));
    socket->SetCloseCallbacks(MakeCallback(&TrestleMessageApplication::PeerClosed, this),
                              MakeCallback(&TrestleMessageApplication::PeerClosed, this));
    m_readers.emplace(socket,
                      std::make_unique<TrestleMessageStreamReader>(
                          MakeCallback(&TrestleMessageApplication::MessageRead, this)));
}

void
TrestleMessageApplication::ReceiveTcp(Ptr<Socket> socket)
{
    auto it = m_readers.find(socket);
    if (it == m_readers.end())
    {
        return;
    }
    while (Ptr<Packet> packet = socket->Recv())
    {
        if (packet->GetSize() == 0)
        {
            break;
        }
        it->second->Feed(packet);
    }
}

void
TrestleMessageApplication::PeerClosed(Ptr<Socket> socket)
{
    // The reader goes in an event of its own: the socket is still running
    // the callback that got here.
    Simulator::ScheduleNow(
        [this, socket]() {
            m_readers.erase(socket);
        });
}

void
TrestleMessageApplication::ReceiveUdp(Ptr<Socket> socket)
{
    while (Ptr<Packet> datagram = socket->Recv())
    {
        TrestleMessageHeader header;
        if (datagram->GetSize() < TrestleMessageHeader::SERIALIZED_SIZE)
        {
            continue;
        }
        datagram->RemoveHeader(header);
        m_datagramRxTrace(header.GetMessageId(), header.GetMessageSize(), datagram->GetSize());
    }
}

void
TrestleMessageApplication::MessageRead(uint64_t messageId, uint64_t size)
{
    m_messageRxTrace(messageId, size);
}

void
TrestleMessageApplication::SenderFailed(Ipv4Address peer)
{
    // The next message to this peer opens a new connection. The failed
    // sender is still on the stack (it called us): it is released from an
    // event of its own.
    auto it = m_senders.find(peer);
    if (it != m_senders.end())
    {
        Ptr<TrestleTcpMessageSender> failed = it->second;
        m_senders.erase(it);
        Simulator::ScheduleNow([failed]() {});
    }
    m_connectionFailedTrace(peer);
}

} // namespace ns3
