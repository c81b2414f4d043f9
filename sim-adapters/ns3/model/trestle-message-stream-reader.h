/*
 * TrestleMessageStreamReader: cuts the byte stream of one TCP connection
 * back into Trestle messages. The stream is a sequence of
 * TrestleMessageHeader + payload; the reader is fed whatever the socket
 * hands up (segments split and coalesce anywhere, a header may straddle two
 * reads) and reports each message when its last payload byte has been fed.
 *
 * Costs: O(packet size) per Feed for the bytes it copies out of headers; the
 * payload is skipped without copying. One reader per accepted socket, used
 * from the simulator thread only.
 */
#ifndef TRESTLE_MESSAGE_STREAM_READER_H
#define TRESTLE_MESSAGE_STREAM_READER_H

#include "trestle-message-header.h"

#include "ns3/callback.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class TrestleMessageStreamReader
{
  public:
    /** (message id, message size): the message's last byte has been read. */
    typedef Callback<void, uint64_t, uint64_t> MessageCallback;

    explicit TrestleMessageStreamReader(MessageCallback onMessage);

    /**
     * Consumes the next bytes of the stream, calling the callback for every
     * message they complete, in stream order. \p packet is not modified.
     */
    void Feed(Ptr<const Packet> packet);

  private:
    MessageCallback m_onMessage;
    uint8_t m_header[TrestleMessageHeader::SERIALIZED_SIZE]; //!< header bytes so far
    uint32_t m_headerBytes;  //!< how many of m_header are filled
    bool m_inPayload;        //!< between a header and its message's last byte
    uint64_t m_messageId;    //!< the current message (m_inPayload)
    uint64_t m_messageSize;  //!< its size
    uint64_t m_payloadLeft;  //!< its payload bytes still to come
};

} // namespace ns3

#endif /* TRESTLE_MESSAGE_STREAM_READER_H */
