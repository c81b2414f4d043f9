// The room a Delivery's fields take besides its payload: an inline payload
// is at most max_frame_bytes - kDeliveryOverheadBytes. The number is
// DELIVERY_OVERHEAD_BYTES of protocol_facts.proto, which the Python SDK reads too.
// C++17-clean.
#pragma once

#include <cstdint>

#include "protocol_facts.pb.h"

namespace trestle::wire {

inline constexpr std::uint64_t kDeliveryOverheadBytes = DELIVERY_OVERHEAD_BYTES;

}  // namespace trestle::wire
