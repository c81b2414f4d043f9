// MessageCounters: the accounting kept per sending client and in total.
//
// Invariant, at every moment: accepted + from_peers + recovered = delivered +
// dropped + expired + lost_in_store + forwarded + in_flight. Each accepted payload
// ends in exactly one terminal state. Only MessageLedger changes these counts.
#pragma once

#include <cstdint>

#include "trestle.pb.h"

namespace trestle::daemon {

struct MessageCounters {
  std::uint64_t accepted = 0;       // the store holds the payload; in the network's hands
  std::uint64_t delivered = 0;
  std::uint64_t dropped = 0;        // by the network model
  std::uint64_t expired = 0;        // the destination never came back in time
  std::uint64_t lost_in_store = 0;  // the payload store no longer had it
  std::uint64_t in_flight = 0;
  std::uint64_t received = 0;  // payloads delivered to this client (apps)
  std::uint64_t rejected = 0;  // sends refused with an Error (never accepted)
  // Federation: taken over from a peer daemon / handed on to one.
  std::uint64_t from_peers = 0;
  std::uint64_t forwarded = 0;
  // Federation: accepted by this daemon's earlier life, taken up again from
  // its journal after a restart.
  std::uint64_t recovered = 0;

  void CopyTo(wire::Counters* out) const {
    out->set_accepted(accepted);
    out->set_delivered(delivered);
    out->set_dropped(dropped);
    out->set_expired(expired);
    out->set_lost_in_store(lost_in_store);
    out->set_in_flight(in_flight);
    out->set_received(received);
    out->set_rejected(rejected);
    out->set_from_peers(from_peers);
    out->set_forwarded(forwarded);
    out->set_recovered(recovered);
  }
};

}  // namespace trestle::daemon
