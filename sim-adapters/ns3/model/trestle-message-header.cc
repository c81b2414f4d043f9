#include "trestle-message-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(TrestleMessageHeader);

TypeId
TrestleMessageHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TrestleMessageHeader")
                            .SetParent<Header>()
                            .SetGroupName("Trestle")
                            .AddConstructor<TrestleMessageHeader>();
    return tid;
}

TypeId
TrestleMessageHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

TrestleMessageHeader::TrestleMessageHeader()
    : m_messageId(0),
      m_messageSize(0)
{
}

TrestleMessageHeader::TrestleMessageHeader(uint64_t messageId, uint64_t messageSize)
    : m_messageId(messageId),
      m_messageSize(messageSize)
{
}

uint32_t
TrestleMessageHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
TrestleMessageHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU64(m_messageId);
    start.WriteHtonU64(m_messageSize);
}

uint32_t
TrestleMessageHeader::Deserialize(Buffer::Iterator start)
{
    m_messageId = start.ReadNtohU64();
    m_messageSize = start.ReadNtohU64();
    return SERIALIZED_SIZE;
}

void
TrestleMessageHeader::Print(std::ostream& os) const
{
    os << "message=" << m_messageId << " size=" << m_messageSize;
}

uint64_t
TrestleMessageHeader::GetMessageId() const
{
    return m_messageId;
}

uint64_t
TrestleMessageHeader::GetMessageSize() const
{
    return m_messageSize;
}

} // namespace ns3
