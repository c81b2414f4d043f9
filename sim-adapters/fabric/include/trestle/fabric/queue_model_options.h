// QueueModelOptions: the numbers behind the flow model's queueing delay
// (StandingQueues; docs/fabric.md, "Queues"), with their defaults. The
// flags that set them (--buffer, --cc-queue, --packet-size, --burstiness)
// are named in the errors. C++17-clean.
#ifndef TRESTLE_FABRIC_QUEUE_MODEL_OPTIONS_H_
#define TRESTLE_FABRIC_QUEUE_MODEL_OPTIONS_H_

#include <cstdint>

#include "absl/status/status.h"

namespace trestle::fabric {

struct QueueModelOptions {
  // Congestion control off: a switch port's buffer per traffic class
  // (credit flow control's small per-lane buffers): traffic that backs up
  // fills it, and no queue grows beyond it.
  std::uint64_t buffer_bytes = 8 * 1024;
  // Congestion control on: what each flow crossing a saturated port keeps
  // queued there (the queue the control loop holds).
  std::uint64_t cc_queue_bytes = 4 * 1024;
  // The network's packet (MTU): the unit of the load queue, and the packet
  // of another class a message may find in transmission.
  std::uint64_t packet_bytes = 4 * 1024;
  // The calibration of the load queue: the packet arrivals' variability in
  // Kingman's formula (its squared coefficient of variation, for many
  // flows): 1 for Poisson arrivals, above 1 for burstier traffic, 0 for none.
  double burstiness = 1.0;

  // InvalidArgument naming the flag: a packet of 0 bytes, a burstiness that
  // is negative, above 1000 or not a number.
  absl::Status Validate() const;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_QUEUE_MODEL_OPTIONS_H_
