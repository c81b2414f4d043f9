#include "trestle-tcp-message-sender.h"

#include "trestle-message-header.h"

#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-socket-factory.h"

#include <algorithm>

namespace ns3
{

namespace
{
// The largest packet handed to the socket at once. TCP cuts its own
// segments from the stream, so this only bounds one virtual buffer.
constexpr uint64_t MAX_WRITE = 1 << 20;
} // namespace

TrestleTcpMessageSender::TrestleTcpMessageSender(Ptr<Node> node,
                                                 InetSocketAddress peer,
                                                 FailureCallback onFailure)
    : m_peer(peer),
      m_onFailure(onFailure),
      m_connected(false),
      m_failed(false)
{
    m_socket = Socket::CreateSocket(node, TcpSocketFactory::GetTypeId());
    m_socket->SetConnectCallback(
        MakeCallback(&TrestleTcpMessageSender::ConnectionSucceeded, this),
        MakeCallback(&TrestleTcpMessageSender::ConnectionFailed, this));
    m_socket->SetSendCallback(MakeCallback(&TrestleTcpMessageSender::SendSpace, this));
    m_socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                MakeCallback(&TrestleTcpMessageSender::ErrorClose, this));
    if (m_socket->Bind() != 0 || m_socket->Connect(m_peer) != 0)
    {
        // Reported from an event of its own, as a failed handshake would be:
        // the caller is still setting this sender up.
        m_failEvent = Simulator::ScheduleNow(&TrestleTcpMessageSender::Fail, this);
    }
}

TrestleTcpMessageSender::~TrestleTcpMessageSender()
{
    Close();
}

void
TrestleTcpMessageSender::Enqueue(uint64_t messageId, uint64_t size)
{
    if (m_failed)
    {
        return;
    }
    m_queue.push_back(Pending{messageId, size, false, size});
    Fill();
}

void
TrestleTcpMessageSender::Close()
{
    m_queue.clear();
    m_failEvent.Cancel();
    if (m_socket)
    {
        m_socket->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                     MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
        m_socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                    MakeNullCallback<void, Ptr<Socket>>());
        m_socket->Close();
        m_socket = nullptr;
    }
}

std::size_t
TrestleTcpMessageSender::GetQueuedMessages() const
{
    return m_queue.size();
}

void
TrestleTcpMessageSender::ConnectionSucceeded(Ptr<Socket>)
{
    m_connected = true;
    Fill();
}

void
TrestleTcpMessageSender::ConnectionFailed(Ptr<Socket>)
{
    Fail();
}

void
TrestleTcpMessageSender::SendSpace(Ptr<Socket>, uint32_t)
{
    Fill();
}

void
TrestleTcpMessageSender::ErrorClose(Ptr<Socket>)
{
    Fail();
}

void
TrestleTcpMessageSender::Fill()
{
    if (!m_connected || m_failed || !m_socket)
    {
        return;
    }
    while (!m_queue.empty())
    {
        Pending& message = m_queue.front();
        if (!message.headerWritten)
        {
            if (m_socket->GetTxAvailable() < TrestleMessageHeader::SERIALIZED_SIZE)
            {
                return;
            }
            Ptr<Packet> header = Create<Packet>();
            header->AddHeader(TrestleMessageHeader(message.messageId, message.size));
            if (m_socket->Send(header) < 0)
            {
                return;
            }
            message.headerWritten = true;
        }
        if (message.payloadLeft > 0)
        {
            const uint64_t room = m_socket->GetTxAvailable();
            const uint64_t take = std::min({room, message.payloadLeft, MAX_WRITE});
            if (take == 0)
            {
                return;
            }
            const int sent = m_socket->Send(Create<Packet>(static_cast<uint32_t>(take)));
            if (sent <= 0)
            {
                return;
            }
            message.payloadLeft -= static_cast<uint64_t>(sent);
            if (message.payloadLeft > 0)
            {
                continue;
            }
        }
        m_queue.pop_front();
    }
}

void
TrestleTcpMessageSender::Fail()
{
    if (m_failed)
    {
        return;
    }
    m_failed = true;
    const Ipv4Address peer = m_peer.GetIpv4();
    Close();
    m_onFailure(peer);
}

} // namespace ns3
