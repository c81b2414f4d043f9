// Experiments shared by the lockstep suites, run on one daemon or spread
// over several.
//
// The gossip experiment: apps in threads of their own, each computing,
// sending to peers chosen by a seeded generator, and receiving until virtual
// deadlines, with random wall-clock sleeps (not seeded) so that the threads
// interleave differently on every run. What an app saw (its History) must depend only on the experiment, never on the
// interleaving or on how the bridge is laid out (one daemon or several).
#pragma once

#include <string>
#include <vector>

#include "trestle/app_client.h"
#include "trestle/client_options.h"

namespace trestle::testing {

ClientOptions LockstepOptions(const std::string& daemon, const std::string& id);

// What one app saw: every message (source, payload, t_deliver) and wake, in
// order, its clock after each, and how its run ended.
struct History {
  std::vector<std::string> events;
  std::string end;
};

// App `me` ("app-<me>") of `apps`, attached to `daemon`: `rounds` rounds,
// then receives until the run is quiescent.
History RunGossipApp(const std::string& daemon, int me, int apps, int rounds);

// Held until the model has it: `a` (connected, the run's only app so far;
// the run waits for two) sends "early" to "b" at t = 0 and gets nothing;
// `b` connects at 0, receives it at its t_deliver (at least one 1 us link,
// its clock moving there), then waits 50 us of virtual time and is woken.
// Returns the message's t_deliver (0 after a failure).
std::uint64_t ExpectEarlySendWaitsForTheRun(AppClient& a, AppClient& b);

// The lines of `text`, sorted.
std::vector<std::string> SortedLines(const std::string& text);

}  // namespace trestle::testing
