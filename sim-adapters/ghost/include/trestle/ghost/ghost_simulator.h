// GhostSimulator: a network with no network. Every transit is answered at
// once as DELIVERED with t_deliver = t_send, so any delay a payload sees is
// the bridge's own (daemon, SDK, sockets). Used to measure that overhead and
// as the default simulator in tests and demos.
//
// A TransitHandler on the common adapter layer (SimAdapter), which maps no
// ids, loses nothing and never paces: the ghost answers at once in every
// time mode, and follows the daemon's.
#pragma once

#include <chrono>
#include <cstdint>

#include "absl/status/status.h"
#include "trestle/adapter/sim_adapter.h"
#include "trestle/adapter/transit_handler.h"
#include "trestle/client_options.h"
#include "trestle/event_loop.h"

namespace trestle::ghost {

class GhostSimulator final : public adapter::TransitHandler {
 public:
  // `loop` must outlive the simulator; the simulator works while the loop
  // runs. `options.mode` selects PUSH (default) or PULL.
  GhostSimulator(EventLoop& loop, ClientOptions options);

  // Connects (blocking, bounded by options.connect_timeout) and starts
  // answering transits. Errors as SimAdapter::Start.
  absl::Status Start() { return adapter_.Start(); }
  // Flushes the outcomes still queued and ends the session.
  absl::Status Stop(std::chrono::milliseconds timeout) { return adapter_.Stop(timeout); }

  // Transits answered so far.
  std::uint64_t answered() const { return adapter_.counters().delivered; }
  adapter::SimAdapter& adapter() { return adapter_; }

  // TransitHandler.
  void Begin(wire::TimeMode mode, adapter::OutcomeSink& outcomes) override;
  void HandleTransit(const Transit& transit, const adapter::EndpointPair& endpoints) override;

 private:
  adapter::OutcomeSink* outcomes_ = nullptr;
  adapter::SimAdapter adapter_;  // last: it calls back into the members above
};

}  // namespace trestle::ghost
