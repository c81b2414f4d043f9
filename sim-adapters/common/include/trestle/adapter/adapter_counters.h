// AdapterCounters: what a SimAdapter has done so far. They balance:
//
//   transits = delivered + dropped_by_loss + dropped_unmapped + dropped_by_model
//              + dropped_collectives + held (paced, SimAdapter::held()) + with the handler (not yet
//              answered: a model with messages in flight)
#ifndef TRESTLE_ADAPTER_ADAPTER_COUNTERS_H_
#define TRESTLE_ADAPTER_ADAPTER_COUNTERS_H_

#include <cstdint>

namespace trestle::adapter {

struct AdapterCounters {
  std::uint64_t transits = 0;          // received
  std::uint64_t delivered = 0;         // DELIVERED posted (paced: released)
  std::uint64_t dropped_by_loss = 0;   // DROPPED by the loss policy (--loss-rate)
  std::uint64_t dropped_unmapped = 0;  // DROPPED: an id had no endpoint
  std::uint64_t dropped_by_model = 0;  // DROPPED by the network model
  // DROPPED: it carried collectives (Transit.collectives), which the handler
  // does not replay.
  std::uint64_t dropped_collectives = 0;
};

}  // namespace trestle::adapter

#endif  // TRESTLE_ADAPTER_ADAPTER_COUNTERS_H_
