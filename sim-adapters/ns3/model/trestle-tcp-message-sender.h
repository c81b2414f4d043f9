/*
 * TrestleTcpMessageSender: one TCP connection from an endpoint to a peer,
 * carrying Trestle messages in the order they are enqueued, each as a
 * TrestleMessageHeader followed by its payload (virtual, zero-filled bytes).
 * It connects on construction and writes as fast as the socket's transmit
 * buffer takes the bytes, refilling from the socket's send callback.
 *
 * If the connection cannot be set up or breaks (TCP gave up retransmitting),
 * it stops, forgets its queue and calls the failure callback once with the
 * peer's address; the owner then drops it (not from inside the callback: the
 * socket is still on the stack) and decides what was lost.
 *
 * Lifetime: owned through Ptr by its TrestleMessageApplication; the node must
 * outlive it. Simulator thread only.
 */
#ifndef TRESTLE_TCP_MESSAGE_SENDER_H
#define TRESTLE_TCP_MESSAGE_SENDER_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"
#include "ns3/socket.h"

#include <cstdint>
#include <deque>

namespace ns3
{

class TrestleTcpMessageSender : public SimpleRefCount<TrestleTcpMessageSender>
{
  public:
    /** Called once when the connection failed; the argument is the peer. */
    typedef Callback<void, Ipv4Address> FailureCallback;

    TrestleTcpMessageSender(Ptr<Node> node, InetSocketAddress peer, FailureCallback onFailure);
    ~TrestleTcpMessageSender();

    /** Queues a message of \p size payload bytes behind those already queued. */
    void Enqueue(uint64_t messageId, uint64_t size);
    /** Closes the connection (queued bytes not yet written are discarded). */
    void Close();

    /** Messages not yet completely written into the socket. */
    std::size_t GetQueuedMessages() const;

  private:
    /** A message not yet completely handed to the socket. */
    struct Pending
    {
        uint64_t messageId;
        uint64_t size;
        bool headerWritten;
        uint64_t payloadLeft;
    };

    void ConnectionSucceeded(Ptr<Socket> socket);
    void ConnectionFailed(Ptr<Socket> socket);
    void SendSpace(Ptr<Socket> socket, uint32_t available);
    void ErrorClose(Ptr<Socket> socket);
    /** Writes queued bytes while the socket takes them. */
    void Fill();
    void Fail();

    Ptr<Socket> m_socket;
    InetSocketAddress m_peer;
    FailureCallback m_onFailure;
    bool m_connected;
    bool m_failed;
    std::deque<Pending> m_queue;
    EventId m_failEvent; //!< a failure found while connecting, reported from its own event
};

} // namespace ns3

#endif /* TRESTLE_TCP_MESSAGE_SENDER_H */
