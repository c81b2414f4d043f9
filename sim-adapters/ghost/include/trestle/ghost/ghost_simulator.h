// GhostSimulator: a network with no network. Every transit is answered at
// once as DELIVERED with t_deliver = t_send, so any delay a payload sees is
// the bridge's own (daemon, SDK, sockets). Used to measure that overhead and
// as the default simulator in tests and demos.
#pragma once

#include <cstdint>

#include "absl/status/status.h"
#include "trestle/client_options.h"
#include "trestle/event_loop.h"
#include "trestle/sim_client.h"

namespace trestle::ghost {

class GhostSimulator {
 public:
  // `loop` must outlive the simulator; the simulator works while the loop
  // runs. `options.mode` selects PUSH (default) or PULL.
  GhostSimulator(EventLoop& loop, ClientOptions options);

  // Connects (blocking, bounded by options.connect_timeout) and starts
  // answering transits. Errors as SimClient::Connect.
  absl::Status Start();
  // Flushes the outcomes still queued and ends the session.
  absl::Status Stop(std::chrono::milliseconds timeout);

  // Transits answered so far.
  std::uint64_t answered() const { return answered_; }
  SimClient& client() { return client_; }

 private:
  SimClient client_;
  std::uint64_t answered_ = 0;
};

}  // namespace trestle::ghost
