// ResidentNanos: the one definition of a message's daemon-resident time,
// used by the daemon's "resident" histogram (`trestle stats`, /metrics) and
// by `trestle bench` (docs/benchmarks.md states it).
//
//   resident = (sim_handed - daemon_accepted) + (daemon_delivered - sim_posted)
//
// from the Stamps of trestle.proto (CLOCK_MONOTONIC ns):
//   daemon_accepted   the daemon parsed the app's Send
//   sim_handed        the daemon wrote (PUSH) or returned (PULL) the Transit
//   sim_posted        the simulator's SDK wrote the Outcome (its stamp, not
//                     the daemon's reading of it)
//   daemon_delivered  the daemon wrote the Delivery to the app
//
// The time the simulator holds the message (sim_handed -> sim_posted) does
// not count; the hop from the simulator back to the daemon does, including
// any time the outcome waits in the daemon's socket while the daemon is busy
// or asleep: that wait is the bridge's, not the simulator's. The app's hops
// to and from the daemon are in neither term.
#pragma once

#include <cstdint>
#include <optional>

namespace trestle::wire {

// The resident time in ns, or nullopt when it cannot be told: a stamp is
// missing (0) or the stamps are out of order (handed before accepted, posted
// before handed, delivered before posted). Out of order is also what a
// simulator on another host produces, whose CLOCK_MONOTONIC is not this
// host's; such a message has no resident time rather than a wrong one.
std::optional<std::uint64_t> ResidentNanos(std::uint64_t daemon_accepted,
                                           std::uint64_t sim_handed, std::uint64_t sim_posted,
                                           std::uint64_t daemon_delivered);

}  // namespace trestle::wire
