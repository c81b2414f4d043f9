/*
 * TrestleMessageTag: a packet tag naming the Trestle message a UDP datagram
 * belongs to. Packet tags travel with a packet through every layer without
 * taking bytes on the wire, so a drop trace anywhere in the network (a queue
 * disc, a device queue, IP, the Wi-Fi MAC) can tell which message lost a
 * datagram: TrestleDropMonitor reads it. TCP segments carry no tag (TCP
 * recovers its losses itself).
 */
#ifndef TRESTLE_MESSAGE_TAG_H
#define TRESTLE_MESSAGE_TAG_H

#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{

class TrestleMessageTag : public Tag
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    TrestleMessageTag();
    explicit TrestleMessageTag(uint64_t messageId);

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer buffer) const override;
    void Deserialize(TagBuffer buffer) override;
    void Print(std::ostream& os) const override;

    uint64_t GetMessageId() const;

  private:
    uint64_t m_messageId; //!< the bridge's message id
};

} // namespace ns3

#endif /* TRESTLE_MESSAGE_TAG_H */
