#include "trestle-message-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(TrestleMessageTag);

TypeId
TrestleMessageTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TrestleMessageTag")
                            .SetParent<Tag>()
                            .SetGroupName("Trestle")
                            .AddConstructor<TrestleMessageTag>();
    return tid;
}

TypeId
TrestleMessageTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

TrestleMessageTag::TrestleMessageTag()
    : m_messageId(0)
{
}

TrestleMessageTag::TrestleMessageTag(uint64_t messageId)
    : m_messageId(messageId)
{
}

uint32_t
TrestleMessageTag::GetSerializedSize() const
{
    return 8;
}

void
TrestleMessageTag::Serialize(TagBuffer buffer) const
{
    buffer.WriteU64(m_messageId);
}

void
TrestleMessageTag::Deserialize(TagBuffer buffer)
{
    m_messageId = buffer.ReadU64();
}

void
TrestleMessageTag::Print(std::ostream& os) const
{
    os << "message=" << m_messageId;
}

uint64_t
TrestleMessageTag::GetMessageId() const
{
    return m_messageId;
}

} // namespace ns3
