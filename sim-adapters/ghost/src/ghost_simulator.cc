#include "trestle/ghost/ghost_simulator.h"

#include <utility>

namespace trestle::ghost {

GhostSimulator::GhostSimulator(EventLoop& loop, ClientOptions options)
    : client_(loop, std::move(options)) {}

absl::Status GhostSimulator::Start() {
  client_.OnTransits([this](std::span<const Transit> transits) {
    for (const Transit& t : transits) {
      client_.Post(Outcome{t.id, Outcome::Status::kDelivered, t.t_send, 0});
    }
    answered_ += transits.size();
  });
  return client_.Connect();
}

absl::Status GhostSimulator::Stop(std::chrono::milliseconds timeout) {
  return client_.Close(timeout);
}

}  // namespace trestle::ghost
