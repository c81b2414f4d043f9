// BenchConfig: one benchmark configuration (a row of the results table).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "arrival_schedule.h"

namespace trestle::bench {

// Whom a message goes to (--peers): a random other app (any), a random app
// on another daemon than its sender's (across: every message crosses), or a
// random other app on its sender's daemon (within: none crosses if that
// daemon has a simulator, else it crosses for its transit).
enum class PeerChoice { kAny, kAcross, kWithin };

// The --peers word for `p`.
inline const char* PeerChoiceName(PeerChoice p) {
  switch (p) {
    case PeerChoice::kAcross:
      return "across";
    case PeerChoice::kWithin:
      return "within";
    case PeerChoice::kAny:
      break;
  }
  return "any";
}

// Which daemons the bench starts get a ghost simulator (--simulators): the
// first only, or each.
enum class SimulatorPlacement { kFirst, kEach };

// The --simulators word for `s`.
inline const char* SimulatorPlacementName(SimulatorPlacement s) {
  return s == SimulatorPlacement::kEach ? "each" : "first";
}

struct BenchConfig {
  std::uint32_t nodes = 10;      // app clients
  double rate = 100;             // total messages/s (open loop)
  // Closed loop instead of `rate` when > 0: each client keeps this many of
  // its messages in flight and sends a new one as soon as one arrives (the
  // maximum-throughput run).
  std::uint32_t window = 0;
  std::chrono::milliseconds duration{10'000};
  std::chrono::milliseconds warmup{0};           // sent, checked, not measured
  std::chrono::milliseconds drain_timeout{30'000};
  std::chrono::milliseconds idle{0};             // idle CPU window after connecting
  std::size_t size = 64;         // payload bytes (at least 8: the sequence number)
  bool pull = false;
  std::string store = "memory";
  ArrivalKind arrivals = ArrivalKind::kConstant;
  std::uint64_t seed = 1;
  std::uint32_t connect_wave = 500;  // handshakes outstanding at once
  // Connections per client: 3 (ctrl, send, recv) or 1 (the send and recv
  // channels shared with ctrl; PUSH only).
  std::uint32_t connections = 3;
  // Apps besides `nodes` that connect, never read and never send; the others
  // send to them as to any peer (--stalled-apps). Open loop only.
  std::uint32_t stalled_apps = 0;
  // Daemons of one federated bridge the apps are spread over, round-robin:
  // app i is attached to daemon i % daemons (--daemons, or --daemon given
  // several times). 1: one daemon, as always.
  std::uint32_t daemons = 1;
  PeerChoice peers = PeerChoice::kAny;
  SimulatorPlacement simulators = SimulatorPlacement::kFirst;

  bool closed_loop() const { return window > 0; }
  std::uint32_t apps() const { return nodes + stalled_apps; }
  // The daemon app `app` is attached to.
  std::uint32_t DaemonOf(std::uint32_t app) const { return app % daemons; }
  // Whether the bench gives started daemon `daemon` a ghost of its own.
  bool StartsSimulatorOn(std::uint32_t daemon) const {
    return daemon == 0 || simulators == SimulatorPlacement::kEach;
  }
};

}  // namespace trestle::bench
