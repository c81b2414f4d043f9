/*
 * TrestleMessageHeader: the application-level header in front of every
 * Trestle message carried through ns-3. It names the message (the bridge's
 * message id) and its size, so that the receiving TrestleMessageApplication
 * can tell where one message ends and the next begins in a TCP byte stream,
 * and which message a UDP datagram belongs to. The payload bytes themselves
 * are ns-3's zero-filled virtual bytes: the id is never in them.
 *
 * Wire format (16 bytes, network byte order):
 *   message id    uint64
 *   message size  uint64  (payload bytes, without this header)
 */
#ifndef TRESTLE_MESSAGE_HEADER_H
#define TRESTLE_MESSAGE_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

class TrestleMessageHeader : public Header
{
  public:
    /** Bytes on the wire. */
    static constexpr uint32_t SERIALIZED_SIZE = 16;

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    TrestleMessageHeader();
    TrestleMessageHeader(uint64_t messageId, uint64_t messageSize);

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    uint64_t GetMessageId() const;
    uint64_t GetMessageSize() const;

  private:
    uint64_t m_messageId;   //!< the bridge's message id
    uint64_t m_messageSize; //!< payload bytes that follow (TCP) or make up the message (UDP)
};

} // namespace ns3

#endif /* TRESTLE_MESSAGE_HEADER_H */
