// MessageCounters: the accounting kept per client and in total.
//
// Invariant, at every moment: accepted = delivered + dropped + expired +
// in_flight. Each accepted payload ends in exactly one terminal state.
#pragma once

#include <cstdint>

#include "trestle.pb.h"

namespace trestle::daemon {

struct MessageCounters {
  std::uint64_t accepted = 0;
  std::uint64_t delivered = 0;
  std::uint64_t dropped = 0;
  std::uint64_t expired = 0;
  std::uint64_t in_flight = 0;
  std::uint64_t received = 0;  // payloads handed to this client (apps)
  std::uint64_t rejected = 0;  // sends refused with an Error

  void CopyTo(wire::Counters* out) const {
    out->set_accepted(accepted);
    out->set_delivered(delivered);
    out->set_dropped(dropped);
    out->set_expired(expired);
    out->set_in_flight(in_flight);
    out->set_received(received);
    out->set_rejected(rejected);
  }
};

}  // namespace trestle::daemon
