/*
 * TrestleQueueHelper: the queue every device of a Trestle network sends
 * through, by discipline and size.
 *
 *   discipline  the root queue disc of each device, an ns-3 TypeId name
 *               ("ns3::FifoQueueDisc", "ns3::RedQueueDisc", ...), holding
 *               up to `size`; the device's own transmit queue then holds
 *               one packet, so that the backlog (and every drop) is the
 *               discipline's.
 *   none        no queue disc: the device's transmit queue (drop-tail)
 *               holds up to `size`.
 *
 * Wi-Fi devices keep their MAC queue in front of the radio whatever is set.
 * Install() before assigning addresses (Ipv4AddressHelper installs ns-3's
 * default queue disc on devices that have none), AfterAddresses() after.
 */
#ifndef TRESTLE_QUEUE_HELPER_H
#define TRESTLE_QUEUE_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/queue-size.h"

#include <string>

namespace ns3
{

class TrestleQueueHelper
{
  public:
    /** A FIFO queue disc of 1000 packets (ns-3's FifoQueueDisc default). */
    TrestleQueueHelper();

    /** \p queueDiscType: a QueueDisc TypeId name, or "" for none. */
    void SetQueue(const std::string& queueDiscType, QueueSize size);

    /** The size of each device's own transmit queue (point-to-point). */
    QueueSize GetDeviceQueueSize() const;

    /** Installs the queue disc on every device of \p devices. */
    void Install(NetDeviceContainer devices) const;
    /** Removes the queue discs address assignment added, when there is to be none. */
    void AfterAddresses(NetDeviceContainer devices) const;

  private:
    std::string m_queueDiscType;
    QueueSize m_size;
};

} // namespace ns3

#endif /* TRESTLE_QUEUE_HELPER_H */
