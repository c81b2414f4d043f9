// TimeCoordinator, table-driven (docs/protocol.md, "Lockstep time"): each
// case is a run in two passes. First its apps join, send and report their
// clocks, and the loop pass ends (the simulator is given the transits and
// its first Grant); then the simulator posts outcomes and answers the
// Grant, apps leave or join late or report again, and the pass ends again.
// Each case asserts the exact bound G, the safe-before R, every Grant
// written, and every delivery, drop report, Wake and Quiescent written to
// each app, in order. The wiring is the DataPlane's (lockstep_run.h).
#include "lockstep/time_coordinator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "lockstep/virtual_time.h"
#include "lockstep_run.h"

namespace trestle::daemon {
namespace {

struct SendSpec {
  std::string src{};
  std::string dst{};
  std::uint64_t t_send = 0;
  bool notify_drop = false;
};
struct ClockSpec {
  std::string app{};
  std::uint64_t now = 0;
  bool blocked = false;
  std::optional<std::uint64_t> wake{};
  std::uint64_t block = 0;
};
struct PostSpec {
  std::size_t send = 0;  // index into Case::sends
  std::uint64_t t_deliver = 0;
  bool dropped = false;
};

struct Case {
  std::string name{};
  std::uint64_t lookahead = 10;
  std::uint64_t self_lookahead = 10;
  std::vector<std::string> apps{};  // joined, in this order (registry indices)
  std::vector<SendSpec> sends{};
  std::vector<ClockSpec> clocks{};
  // The second pass: outcomes, then Reached{reached, the last Grant}, then
  // leaves, late joins and clocks.
  std::vector<PostSpec> posts{};
  std::optional<std::uint64_t> reached{};
  std::vector<std::string> leave{};
  std::vector<std::string> join_late{};
  std::vector<ClockSpec> clocks_after{};
  // Expected once both passes are over.
  std::uint64_t bound = 0;
  std::uint64_t safe_before = 0;
  std::vector<std::uint64_t> grants{};
  std::map<std::string, std::vector<std::string>> events{};  // an app not named: none
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

ClockSpec Running(std::string app, std::uint64_t now) { return {std::move(app), now, false, {}, 0}; }
ClockSpec Blocked(std::string app, std::uint64_t now, std::uint64_t block,
                  std::optional<std::uint64_t> wake = std::nullopt) {
  return {std::move(app), now, true, wake, block};
}

const Case kCases[] = {
    // ---- no traffic: the apps' clocks and wake times alone ----------------
    {.name = "NoApps", .bound = 0, .safe_before = 10, .grants = {0}},
    {.name = "NoAppsZeroLookahead",
     .lookahead = 0,
     .self_lookahead = 0,
     .bound = 0,
     .safe_before = 1,
     .grants = {1}},  // quiet: a delta step
    {.name = "LowestRunningAppHoldsTheBound",
     .apps = {"a", "b"},
     .clocks = {Running("a", 100), Blocked("b", 50, 1)},
     .bound = 100,
     .safe_before = 110,
     .grants = {100}},
    {.name = "AllBlockedNothingInFlightIsQuiescent",
     .apps = {"a", "b"},
     .clocks = {Blocked("a", 30, 4), Blocked("b", 50, 7)},
     .bound = 0,
     .safe_before = 10,
     .grants = {0},
     .events = {{"a", {"quiescent (block 4)"}}, {"b", {"quiescent (block 7)"}}}},
    {.name = "WakeBelowSafeBeforeWakes",
     .apps = {"a", "b"},
     .clocks = {Blocked("a", 20, 1, 40), Running("b", 100)},
     .bound = 40,
     .safe_before = 50,
     .grants = {40},
     .events = {{"a", {"wake 40 (block 1)"}}}},
    {.name = "WakeAtTheBoundWakes",
     .apps = {"a", "b"},
     .clocks = {Blocked("a", 20, 1, 40), Running("b", 40)},
     .bound = 40,
     .safe_before = 50,
     .grants = {40},
     .events = {{"a", {"wake 40 (block 1)"}}}},
    {.name = "ZeroLookaheadWakeAtTheBoundWaitsWhileAnAppRunsThere",
     .lookahead = 0,
     .self_lookahead = 0,
     .apps = {"a", "b"},
     .clocks = {Blocked("a", 20, 1, 40), Running("b", 40)},
     .bound = 40,
     .safe_before = 40,
     .grants = {40}},
    {.name = "ZeroLookaheadWakeAtTheBoundWakesAtTheDeltaStep",
     .lookahead = 0,
     .self_lookahead = 0,
     .apps = {"a", "b"},
     .clocks = {Blocked("a", 20, 1, 40), Blocked("b", 40, 2)},
     .bound = 40,
     .safe_before = 41,
     .grants = {41},
     .events = {{"a", {"wake 40 (block 1)"}}}},

    // ---- transits in flight, outcomes, Reached -----------------------------
    {.name = "InFlightHoldsSafeBeforeAndQuiescence",
     .apps = {"a", "b"},
     .sends = {{"a", "b", 5}},
     .clocks = {Blocked("a", 5, 1), Blocked("b", 0, 2)},
     .bound = 15,  // b: max(0, U = 5 + L)
     .safe_before = 15,
     .grants = {16}},  // quiet with U <= G: a delta step
    {.name = "PostedAndReachedIsReleased",
     .apps = {"a", "b"},
     .sends = {{"a", "b", 5}},
     .clocks = {Blocked("a", 5, 1), Blocked("b", 0, 2)},
     .posts = {{0, 15}},
     .reached = kNever,
     .bound = 15,
     .safe_before = 25,
     .grants = {16},
     .events = {{"b", {"a#1 at 15"}}}},
    {.name = "DroppedWithoutReportLeavesTheRunQuiescent",
     .apps = {"a", "b"},
     .sends = {{"a", "b", 5}},
     .clocks = {Blocked("a", 5, 1), Blocked("b", 0, 2)},
     .posts = {{0, 15, true}},
     .reached = kNever,
     .bound = 15,
     .safe_before = 25,
     .grants = {16},
     .events = {{"a", {"quiescent (block 1)"}}, {"b", {"quiescent (block 2)"}}}},
    {.name = "DropReportGoesToTheSenderWhenFinal",
     .apps = {"a", "b"},
     .sends = {{"a", "b", 5, true}},
     .clocks = {Blocked("a", 5, 1), Blocked("b", 0, 2)},
     .posts = {{0, 15, true}},
     .reached = kNever,
     .bound = 15,
     .safe_before = 25,
     .grants = {16},
     .events = {{"a", {"dropped #1 at 15"}}}},
    {.name = "DeliveryJustBelowSafeBeforeIsFinal",
     .apps = {"a", "b"},
     .sends = {{"a", "b", 0}},
     .clocks = {Running("a", 12), Blocked("b", 0, 1)},
     .posts = {{0, 21}},
     .reached = kNever,
     .bound = 12,
     .safe_before = 22,
     .grants = {10, 12},
     .events = {{"b", {"a#1 at 21"}}}},
    {.name = "DeliveryAtSafeBeforeIsHeld",
     .apps = {"a", "b"},
     .sends = {{"a", "b", 0}},
     .clocks = {Running("a", 12), Blocked("b", 0, 1)},
     .posts = {{0, 22}},
     .reached = kNever,
     .bound = 12,
     .safe_before = 22,
     .grants = {10, 12}},
    {.name = "DeliveryAtTheWakeTimeComesInsteadOfTheWake",
     .apps = {"a", "b"},
     .sends = {{"b", "a", 10}},
     .clocks = {Blocked("a", 0, 1, 20), Blocked("b", 10, 2)},
     .posts = {{0, 20}},
     .reached = kNever,
     .bound = 20,
     .safe_before = 30,
     .grants = {21},
     .events = {{"a", {"b#1 at 20"}}}},
    {.name = "DeliveryAfterTheWakeTimeWaitsAndTheAppWakes",
     .apps = {"a", "b"},
     .sends = {{"b", "a", 10}},
     .clocks = {Blocked("a", 0, 1, 20), Blocked("b", 10, 2)},
     .posts = {{0, 25}},
     .reached = kNever,
     .bound = 20,
     .safe_before = 30,
     .grants = {21},
     .events = {{"a", {"wake 20 (block 1)"}}}},
    {.name = "TiesInDeliverTimeGoBySourceIdThenSequence",
     .apps = {"z", "a", "d"},  // z has the lower registry index, a the lower id
     .sends = {{"z", "d", 0}, {"z", "d", 0}, {"z", "d", 0}, {"a", "d", 0}},
     .clocks = {Blocked("z", 0, 1), Blocked("a", 0, 2), Blocked("d", 0, 3)},
     .posts = {{1, 20}, {3, 20}, {0, 20}, {2, 15}},
     .reached = kNever,
     .bound = 15,
     .safe_before = 25,
     .grants = {11, 15},
     .events = {{"d", {"z#3 at 15", "a#1 at 20", "z#1 at 20", "z#2 at 20"}}}},
    {.name = "ZeroSelfLookaheadHandsOnlyWhatComesBeforeItsOwnNextSend",
     .lookahead = 10,
     .self_lookahead = 0,
     .apps = {"a", "b"},
     .sends = {{"b", "a", 2}, {"a", "a", 5}},
     .clocks = {Blocked("a", 5, 1), Blocked("b", 2, 2)},
     .posts = {{1, 5}, {0, 12}},
     .reached = kNever,
     .bound = 5,  // U = 5 + Ls
     .safe_before = 15,
     .grants = {6},
     .events = {{"a", {"a#1 at 5"}}}},  // b#1 at 12 waits: after 5 + max(Ls, 1)
    {.name = "ReachedBelowTheGrant",
     .apps = {"a", "b"},
     .sends = {{"a", "b", 0}},
     .clocks = {Blocked("a", 0, 1), Blocked("b", 0, 2)},
     .reached = 5,
     .bound = 10,        // never decreases
     .safe_before = 6,   // U = reached + 1
     .grants = {11}},
    {.name = "ReachedAtTheGrant",
     .apps = {"a", "b"},
     .sends = {{"a", "b", 0}},
     .clocks = {Blocked("a", 0, 1), Blocked("b", 0, 2)},
     .reached = 11,
     .bound = 12,
     .safe_before = 12,
     .grants = {11, 13}},
    {.name = "ReachedAboveTheGrant",
     .apps = {"a", "b"},
     .sends = {{"a", "b", 0}},
     .clocks = {Blocked("a", 0, 1), Blocked("b", 0, 2)},
     .reached = 30,
     .bound = 31,
     .safe_before = 31,
     .grants = {11, 32}},

    // ---- apps leaving and joining ------------------------------------------
    {.name = "LeaveWhileAnotherIsBlockedMakesItQuiescent",
     .apps = {"a", "b"},
     .clocks = {Blocked("a", 10, 3), Running("b", 5)},
     .leave = {"b"},
     .bound = 5,
     .safe_before = 15,
     .grants = {5},
     .events = {{"a", {"quiescent (block 3)"}}}},
    {.name = "LeaveLetsABlockedAppWake",
     .apps = {"a", "b"},
     .clocks = {Blocked("a", 10, 3, 30), Running("b", 5)},
     .reached = kNever,
     .leave = {"b"},
     .bound = 30,
     .safe_before = 40,
     .grants = {5, 30},
     .events = {{"a", {"wake 30 (block 3)"}}}},
    {.name = "LateJoinerHoldsTheBoundWhereItJoined",
     .apps = {"a", "b"},
     .clocks = {Blocked("a", 10, 1, 30), Running("b", 20)},
     .reached = kNever,
     .join_late = {"c"},
     .clocks_after = {Blocked("b", 20, 2)},
     .bound = 20,  // c runs at 20; without it a's wake at 30 would be the bound
     .safe_before = 30,
     .grants = {20}},
};

class TimeCoordinatorTable : public ::testing::TestWithParam<Case> {};

TEST_P(TimeCoordinatorTable, BoundGrantsReleasesWakesAndQuiescence) {
  const Case& c = GetParam();
  LockstepRun run;
  for (const std::string& app : c.apps) EXPECT_EQ(run.Join(app), 0u) << app;
  run.SimReady(c.lookahead, c.self_lookahead);
  std::vector<std::uint64_t> ids;
  for (const SendSpec& s : c.sends) ids.push_back(run.Send(s.src, s.dst, s.t_send, s.notify_drop));
  auto report = [&run](const ClockSpec& k) { run.Clock(k.app, k.now, k.blocked, k.wake, k.block); };
  for (const ClockSpec& k : c.clocks) report(k);
  run.Pump();

  for (const PostSpec& p : c.posts) {
    ASSERT_LT(p.send, ids.size());
    if (p.dropped) {
      run.Drop(ids[p.send], p.t_deliver);
    } else {
      run.Deliver(ids[p.send], p.t_deliver);
    }
  }
  if (c.reached) {
    ASSERT_FALSE(run.Grants().empty()) << "no Grant to answer";
    run.Reached(*c.reached, run.Grants().back());
  }
  for (const std::string& app : c.leave) run.Leave(app);
  for (const std::string& app : c.join_late) run.Join(app);
  for (const ClockSpec& k : c.clocks_after) report(k);
  run.Pump();

  EXPECT_EQ(run.time().bound_ns(), c.bound);
  EXPECT_EQ(run.time().safe_before_ns(), c.safe_before);
  EXPECT_EQ(run.Grants(), c.grants);
  EXPECT_TRUE(run.sim().send().errors().empty()) << run.sim().send().errors()[0].text;
  std::vector<std::string> apps = c.apps;
  apps.insert(apps.end(), c.join_late.begin(), c.join_late.end());
  for (const std::string& app : apps) {
    const auto it = c.events.find(app);
    EXPECT_EQ(run.Events(app), it == c.events.end() ? std::vector<std::string>{} : it->second)
        << "app " << app;
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, TimeCoordinatorTable, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace
}  // namespace trestle::daemon
