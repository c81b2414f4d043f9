#include "trestle-queue-helper.h"

#include "ns3/traffic-control-helper.h"

namespace ns3
{

TrestleQueueHelper::TrestleQueueHelper()
    : m_queueDiscType("ns3::FifoQueueDisc"),
      m_size("1000p")
{
}

void
TrestleQueueHelper::SetQueue(const std::string& queueDiscType, QueueSize size)
{
    m_queueDiscType = queueDiscType;
    m_size = size;
}

QueueSize
TrestleQueueHelper::GetDeviceQueueSize() const
{
    return m_queueDiscType.empty() ? m_size : QueueSize("1p");
}

void
TrestleQueueHelper::Install(NetDeviceContainer devices) const
{
    if (m_queueDiscType.empty())
    {
        return;
    }
    TrafficControlHelper tc;
    tc.SetRootQueueDisc(m_queueDiscType, "MaxSize", QueueSizeValue(m_size));
    tc.Install(devices);
}

void
TrestleQueueHelper::AfterAddresses(NetDeviceContainer devices) const
{
    if (m_queueDiscType.empty())
    {
        TrafficControlHelper().Uninstall(devices);
    }
}

} // namespace ns3
