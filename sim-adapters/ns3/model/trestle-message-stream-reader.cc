#include "trestle-message-stream-reader.h"

#include <algorithm>

namespace ns3
{

TrestleMessageStreamReader::TrestleMessageStreamReader(MessageCallback onMessage)
    : m_onMessage(onMessage),
      m_header{},
      m_headerBytes(0),
      m_inPayload(false),
      m_messageId(0),
      m_messageSize(0),
      m_payloadLeft(0)
{
}

void
TrestleMessageStreamReader::Feed(Ptr<const Packet> packet)
{
    const uint32_t size = packet->GetSize();
    uint32_t offset = 0;
    while (offset < size || (m_inPayload && m_payloadLeft == 0))
    {
        if (!m_inPayload)
        {
            // Gather the header, which may arrive in pieces.
            const uint32_t take =
                std::min(size - offset, TrestleMessageHeader::SERIALIZED_SIZE - m_headerBytes);
            // CopyData reads from the front: a header that starts inside
            // the packet is copied out of a fragment (a rare case: once per
            // message boundary within a segment).
            uint8_t* to = m_header + m_headerBytes;
            if (offset == 0)
            {
                packet->CopyData(to, take);
            }
            else
            {
                packet->CreateFragment(offset, take)->CopyData(to, take);
            }
            m_headerBytes += take;
            offset += take;
            if (m_headerBytes < TrestleMessageHeader::SERIALIZED_SIZE)
            {
                return;
            }
            Ptr<Packet> headerPacket = Create<Packet>(m_header, TrestleMessageHeader::SERIALIZED_SIZE);
            TrestleMessageHeader header;
            headerPacket->RemoveHeader(header);
            m_headerBytes = 0;
            m_inPayload = true;
            m_messageId = header.GetMessageId();
            m_messageSize = header.GetMessageSize();
            m_payloadLeft = m_messageSize;
            continue;
        }
        const uint64_t take = std::min<uint64_t>(size - offset, m_payloadLeft);
        offset += static_cast<uint32_t>(take);
        m_payloadLeft -= take;
        if (m_payloadLeft == 0)
        {
            m_inPayload = false;
            m_onMessage(m_messageId, m_messageSize);
        }
    }
}

} // namespace ns3
