#include "trestle/ghost/ghost_simulator.h"

#include <utility>

namespace trestle::ghost {
namespace {

adapter::SimAdapterOptions GhostOptions() {
  adapter::SimAdapterOptions options;
  options.name = "ghost";
  options.pace = false;  // the ghost measures the bridge: never hold an outcome
  return options;
}

}  // namespace

GhostSimulator::GhostSimulator(EventLoop& loop, ClientOptions options)
    : adapter_(loop, std::move(options), GhostOptions(), *this, std::nullopt) {}

void GhostSimulator::Begin(wire::TimeMode, adapter::OutcomeSink& outcomes) {
  outcomes_ = &outcomes;
}

void GhostSimulator::HandleTransit(const Transit& transit, const adapter::EndpointPair&) {
  outcomes_->Deliver(transit.id, transit.t_send);
}

}  // namespace trestle::ghost
