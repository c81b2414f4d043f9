// TransitQueue: transits waiting for one simulator (the system simulator, or
// one app node's simulator), plus who serves it and who waits on it.
//
// Bounded: once `limit` transits wait, the relay pauses reading from each app
// that adds more and lists it in `paused_senders`; they resume when the queue
// falls to half the limit. Nothing is dropped.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace trestle::daemon {

class Session;

struct TransitQueue {
  std::uint32_t index = 0;
  std::string key;                  // "" (system) or the app node's id
  std::deque<std::uint64_t> ids;    // message ids, oldest first
  std::vector<Session*> sims;       // ready SIM sessions serving this queue
  std::vector<std::uint32_t> paused_senders;  // app client indices
  std::size_t next_sim = 0;         // round robin among PUSH sims
  bool pump_scheduled = false;

  void RemoveSim(Session* s) {
    sims.erase(std::remove(sims.begin(), sims.end(), s), sims.end());
  }
};

}  // namespace trestle::daemon
