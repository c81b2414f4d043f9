/*
 * TrestleMessageApplication: the Trestle endpoint inside an ns-3 node. One is
 * installed on every endpoint node; it sends the bridge's messages to other
 * endpoints and receives theirs, over TCP (reliable, one connection per
 * destination, messages in order) or UDP (datagrams that may be lost).
 *
 * Every message travels as TrestleMessageHeader + payload: over TCP one
 * header in front of the message's bytes in the stream; over UDP a header in
 * every datagram, plus a TrestleMessageTag so that drop traces can name the
 * message. The payload is ns-3 virtual bytes; the message id is never in it.
 *
 * What happens to a message is observed through trace sources, not logs:
 *   MessageRx           (id, size)         TCP: the message's last byte was
 *                                          read by this (the receiving) node
 *   DatagramRx          (id, size, bytes)  UDP: one datagram of message `id`
 *                                          (of `size` bytes) carrying `bytes`
 *                                          of its payload arrived
 *   ConnectionFailed    (peer)             TCP: the connection to `peer`
 *                                          could not be set up or broke; the
 *                                          messages it carried are lost
 *   DatagramSendFailed  (id)               UDP: the socket refused a datagram
 *                                          of message `id` (no route)
 * Assembling UDP datagrams into messages is the observer's job: it knows
 * which messages are still in flight.
 *
 * Attributes: Protocol (Tcp|Udp), Port, MaxDatagramPayload (UDP payload
 * bytes per datagram, after the Trestle header). TCP's own settings come
 * from the TcpSocket defaults.
 */
#ifndef TRESTLE_MESSAGE_APPLICATION_H
#define TRESTLE_MESSAGE_APPLICATION_H

#include "trestle-message-stream-reader.h"
#include "trestle-tcp-message-sender.h"

#include "ns3/application.h"
#include "ns3/ipv4-address.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <memory>

namespace ns3
{

class TrestleMessageApplication : public Application
{
  public:
    enum Protocol
    {
        TCP,
        UDP,
    };

    static TypeId GetTypeId();

    TrestleMessageApplication();
    ~TrestleMessageApplication() override;

    /**
     * Sends a message of \p size payload bytes to the TrestleMessageApplication
     * at \p peer, now. The application must have started.
     */
    void SendMessage(uint64_t messageId, Ipv4Address peer, uint64_t size);

    Protocol GetProtocol() const;

    typedef void (*MessageRxCallback)(uint64_t messageId, uint64_t size);
    typedef void (*DatagramRxCallback)(uint64_t messageId, uint64_t size, uint32_t bytes);
    typedef void (*ConnectionFailedCallback)(Ipv4Address peer);
    typedef void (*DatagramSendFailedCallback)(uint64_t messageId);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    void SendTcp(uint64_t messageId, Ipv4Address peer, uint64_t size);
    void SendUdp(uint64_t messageId, Ipv4Address peer, uint64_t size);
    void Accepted(Ptr<Socket> socket, const Address& from);
    void ReceiveTcp(Ptr<Socket> socket);
    void PeerClosed(Ptr<Socket> socket);
    void ReceiveUdp(Ptr<Socket> socket);
    void MessageRead(uint64_t messageId, uint64_t size);
    void SenderFailed(Ipv4Address peer);

    Protocol m_protocol;
    uint16_t m_port;
    uint32_t m_maxDatagramPayload;

    Ptr<Socket> m_listener;  //!< TCP: accepts connections from peers
    Ptr<Socket> m_udpSocket; //!< UDP: sends and receives datagrams
    std::map<Ipv4Address, Ptr<TrestleTcpMessageSender>> m_senders;
    std::map<Ptr<Socket>, std::unique_ptr<TrestleMessageStreamReader>> m_readers;

    TracedCallback<uint64_t, uint64_t> m_messageRxTrace;
    TracedCallback<uint64_t, uint64_t, uint32_t> m_datagramRxTrace;
    TracedCallback<Ipv4Address> m_connectionFailedTrace;
    TracedCallback<uint64_t> m_datagramSendFailedTrace;
};

} // namespace ns3

#endif /* TRESTLE_MESSAGE_APPLICATION_H */
