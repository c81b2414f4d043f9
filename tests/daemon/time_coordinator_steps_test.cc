// TimeCoordinator over several loop passes (the table of single runs is
// time_coordinator_test.cc): the run's start once its apps have joined, a
// late joiner's start time and its Send check, a blocked report that
// predates a delivery (stale), Quiescent once per block, a Grant held while
// one is unanswered, the latest Reached counting even when lower, a
// simulator's transits given back to the next, Reached for a Grant never
// sent, and who holds the bound back. The wiring is the DataPlane's (lockstep_run.h).
#include "lockstep/time_coordinator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "lockstep/virtual_time.h"
#include "lockstep_run.h"

namespace trestle::daemon {
namespace {

using Events = std::vector<std::string>;
using Grants = std::vector<std::uint64_t>;

DaemonConfig WaitingFor(std::uint32_t apps) {
  DaemonConfig config;
  config.lockstep_app_count = apps;
  return config;
}

// Apps a and b with a simulator (L = Ls = 10): a sends b one message at
// `t_send` and blocks there (block 1), b blocks at 0 (block 2), and the
// pass ends. Returns the message's id.
std::uint64_t OneTransitToBlockedB(LockstepRun& run, std::uint64_t t_send) {
  run.SimReady(10, 10);
  run.Join("a");
  run.Join("b");
  const std::uint64_t id = run.Send("a", "b", t_send);
  run.Clock("a", t_send, true, {}, 1);
  run.Clock("b", 0, true, {}, 2);
  run.Pump();
  return id;
}

TEST(TimeCoordinatorSteps, NothingIsGrantedBeforeTheExpectedAppsHaveJoined) {
  LockstepRun run(WaitingFor(2));
  run.SimReady(10, 10);
  EXPECT_EQ(run.Join("a"), 0u);
  run.Clock("a", 50, false);
  run.Pump();
  EXPECT_FALSE(run.time().started());
  EXPECT_EQ(run.Grants(), Grants{});
  wire::LockstepStats stats;
  run.time().FillStats(&stats);
  EXPECT_EQ(stats.holder_state(), "the run starts when 2 apps have joined (1 so far)");

  EXPECT_EQ(run.Join("b"), 0u);  // the run's time starts at 0
  run.Pump();
  EXPECT_TRUE(run.time().started());
  EXPECT_EQ(run.Grants(), Grants{0});  // b runs at 0
  EXPECT_EQ(run.time().bound_ns(), 0u);
}

TEST(TimeCoordinatorSteps, ExpectedAppsByIdStartTheRunOnlyOnceEachHasJoined) {
  DaemonConfig config;
  config.lockstep_app_ids = {"a", "b"};
  LockstepRun run(config);
  run.SimReady(10, 10);
  run.Join("a");
  run.Join("c");  // not one of them
  run.Pump();
  EXPECT_FALSE(run.time().started());
  run.Join("b");
  run.Pump();
  EXPECT_TRUE(run.time().started());
  EXPECT_EQ(run.Grants(), Grants{0});
}

TEST(TimeCoordinatorSteps, LateJoinerStartsAtTheBoundAndCannotSendBeforeIt) {
  LockstepRun run;
  run.SimReady(10, 10);
  run.Join("a");
  run.Clock("a", 40, false);
  run.Pump();
  ASSERT_EQ(run.time().bound_ns(), 40u);
  EXPECT_EQ(run.Join("b"), 40u);
  EXPECT_EQ(run.time().ClockOf(*run.App("b")), 40u);
  const absl::Status early = run.time().OnSend(*run.App("b"), 39);
  EXPECT_EQ(early.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(early.message(),
            "Send.t_send 39 ns is before the app's clock, 40 ns: in lockstep time a Send carries "
            "the app's Now()");
  EXPECT_TRUE(run.time().OnSend(*run.App("b"), 40).ok());
}

// b is handed a delivery; its next blocked report counts only once it says
// it has seen that delivery (seen_delivery_seq).
TEST(TimeCoordinatorSteps, BlockedReportThatPredatesADeliveryCountsAsRunning) {
  LockstepRun run;
  const std::uint64_t id = OneTransitToBlockedB(run, 5);
  run.Deliver(id, 15);
  run.Reached(kNever, run.Grants().back());
  run.Pump();
  ASSERT_EQ(run.Events("b"), Events{"a#1 at 15"});
  ASSERT_EQ(run.LastDeliverySeq("b"), 1u);

  run.Clock("b", 15, true, {}, 3, /*seen_delivery_seq=*/0);  // stale
  run.Pump();
  EXPECT_EQ(run.Events("a"), Events{});
  wire::LockstepStats stats;
  run.time().FillStats(&stats);
  EXPECT_EQ(stats.apps(), 2u);
  EXPECT_EQ(stats.apps_running(), 1u);
  EXPECT_EQ(stats.holder(), "b");
  EXPECT_EQ(stats.holder_role(), wire::ROLE_APP);
  EXPECT_EQ(stats.holder_state(),
            "blocked at 15 ns, but has not yet taken every delivery handed to it; blocked in a "
            "receive 0.0 s ago");

  run.Clock("b", 15, true, {}, 4, /*seen_delivery_seq=*/1);
  run.Pump();
  EXPECT_EQ(run.Events("a"), Events{"quiescent (block 1)"});
  EXPECT_EQ(run.Events("b"), (Events{"a#1 at 15", "quiescent (block 4)"}));
}

// A blocked report that predates a delivery (b's receive ended in wall-clock
// time and b blocked again before it took m1): b runs from m1's time as
// soon as it takes m1, so a later delivery released meanwhile must not move
// its clock past m1's, or b's next Send, at m1's time, is refused.
TEST(TimeCoordinatorSteps, StaleAppHandedMoreKeepsTheClockOfWhatItTakesFirst) {
  LockstepRun run;
  run.SimReady(20, 20);
  run.Join("a");
  run.Join("b");
  const std::uint64_t m1 = run.Send("a", "b", 0);
  run.Clock("a", 0, false);
  run.Clock("b", 0, true, {}, 1);
  run.Pump();
  run.Deliver(m1, 20);
  run.Reached(kNever, run.Grants().back());
  run.Clock("a", 5, false);
  run.Pump();
  ASSERT_EQ(run.Events("b"), Events{"a#1 at 20"});
  ASSERT_EQ(run.time().ClockOf(*run.App("b")), 20u);

  run.Clock("b", 0, true, {}, 2, /*seen_delivery_seq=*/0);  // stale
  const std::uint64_t m2 = run.Send("a", "b", 5);
  run.Pump();
  run.Deliver(m2, 25);
  run.Reached(kNever, run.Grants().back());
  run.Clock("a", 10, false);
  run.Pump();
  ASSERT_EQ(run.Events("b"), (Events{"a#1 at 20", "a#2 at 25"}));
  EXPECT_EQ(run.time().ClockOf(*run.App("b")), 20u);
  const absl::Status send = run.time().OnSend(*run.App("b"), 20);
  EXPECT_TRUE(send.ok()) << send;
}

TEST(TimeCoordinatorSteps, QuiescentOncePerBlock) {
  LockstepRun run;
  run.SimReady(10, 10);
  run.Join("a");
  run.Join("b");
  run.Clock("a", 0, true, {}, 1);
  run.Clock("b", 0, true, {}, 1);
  run.Pump();
  run.Reached(kNever, 0);  // makes the coordinator look again
  run.Pump();
  EXPECT_EQ(run.Events("a"), Events{"quiescent (block 1)"});
  EXPECT_EQ(run.Events("b"), Events{"quiescent (block 1)"});

  run.Clock("a", 0, true, {}, 2);  // a receive again
  run.Pump();
  EXPECT_EQ(run.Events("a"), (Events{"quiescent (block 1)", "quiescent (block 2)"}));
  EXPECT_EQ(run.Events("b"), Events{"quiescent (block 1)"});
}

TEST(TimeCoordinatorSteps, NoGrantWhileOneIsUnansweredNorWhileATransitWaitsForTheSimulator) {
  LockstepRun run;
  run.SimReady(10, 10, wire::PULL);  // transits are written only to its Fetch
  run.Join("a");
  run.Join("b");
  run.Clock("a", 20, false);
  run.Clock("b", 30, false);
  run.Pump();
  EXPECT_EQ(run.Grants(), Grants{20});
  run.Clock("a", 25, false);
  run.Pump();
  EXPECT_EQ(run.time().bound_ns(), 25u);
  EXPECT_EQ(run.Grants(), Grants{20}) << "the Grant to 20 is not answered";
  run.Reached(kNever, 20);
  run.Pump();
  EXPECT_EQ(run.Grants(), (Grants{20, 25}));

  run.Reached(kNever, 25);
  run.Send("a", "b", 26);
  run.Clock("a", 40, false);
  run.Clock("b", 40, false);
  run.Pump();
  EXPECT_EQ(run.time().bound_ns(), 40u);
  EXPECT_EQ(run.Grants(), (Grants{20, 25})) << "a Grant must follow the transit it covers";
  run.Fetch();
  run.Pump();
  EXPECT_EQ(run.Grants(), (Grants{20, 25, 40}));
  EXPECT_TRUE(run.sim().recv().frames().back().has_grant());
  EXPECT_TRUE(run.sim().recv().frames().end()[-2].has_transits()) << "the transit comes first";
}

TEST(TimeCoordinatorSteps, LatestReachedCountsEvenWhenLower) {
  LockstepRun run;
  OneTransitToBlockedB(run, 0);
  run.Reached(30, 11);
  run.Pump();
  ASSERT_EQ(run.Grants(), (Grants{11, 32}));
  ASSERT_EQ(run.time().safe_before_ns(), 31u);
  run.Reached(20, 32);  // a transit that came since can end earlier
  run.Pump();
  EXPECT_EQ(run.time().safe_before_ns(), 21u);
  EXPECT_EQ(run.time().bound_ns(), 31u) << "the bound never decreases";
  EXPECT_EQ(run.Grants(), (Grants{11, 32}));
}

TEST(TimeCoordinatorSteps, SimulatorThatLeavesGivesItsTransitsBackAndTheNextGetsThemFirst) {
  LockstepRun run;
  OneTransitToBlockedB(run, 5);
  ASSERT_EQ(run.Grants(), Grants{16});
  run.SimDetached();
  run.Pump();
  // No simulator: no lookahead, and the transit waits (no quiescence).
  EXPECT_EQ(run.time().safe_before_ns(), 5u);
  EXPECT_EQ(run.Events("a"), Events{});

  run.SimReady(10, 10);
  run.Pump();
  EXPECT_EQ(run.Grants(), Grants{16});
  ASSERT_EQ(run.sim().recv().frames().size(), 2u);
  EXPECT_EQ(run.sim().recv().frames()[0].transits().transits_size(), 1);
  EXPECT_EQ(run.time().safe_before_ns(), 15u);
  EXPECT_EQ(run.time().bound_ns(), 15u);
}

TEST(TimeCoordinatorSteps, ReachedForAGrantNeverSentIsRefused) {
  LockstepRun run;
  run.SimReady(10, 10);
  run.Join("a");
  run.Reached(5, 0);
  ASSERT_EQ(run.sim().send().errors().size(), 1u);
  EXPECT_EQ(run.sim().send().errors()[0].code, wire::BAD_REQUEST);
  EXPECT_EQ(run.sim().send().errors()[0].text,
            "Reached for grant 0 ns, but the last Grant to this simulator was none");

  run.Clock("a", 11, false);
  run.Pump();
  ASSERT_EQ(run.Grants(), Grants{11});
  run.Reached(20, 12);
  ASSERT_EQ(run.sim().send().errors().size(), 2u);
  EXPECT_EQ(run.sim().send().errors()[1].text,
            "Reached for grant 12 ns, but the last Grant to this simulator was 11 ns");
  run.Clock("a", 30, false);
  run.Pump();
  EXPECT_EQ(run.Grants(), Grants{11}) << "a refused Reached answers nothing";
}

TEST(TimeCoordinatorSteps, TheSimulatorHoldsTheBoundWhileTheLowestAppWaitsForItsOutcome) {
  LockstepRun run;
  run.SimReady(10, 10);
  run.Join("a");
  run.Join("b");
  run.Send("a", "b", 5);
  run.Clock("a", 50, false);
  run.Clock("b", 0, true, {}, 1);
  run.Pump();
  wire::LockstepStats stats;
  run.time().FillStats(&stats);
  EXPECT_EQ(stats.bound_ns(), 15u);
  EXPECT_EQ(stats.holder(), "sim");
  EXPECT_EQ(stats.holder_role(), wire::ROLE_SIM);
  EXPECT_EQ(stats.holder_state(),
            "granted 15 ns, reached nothing, holds 1 transits; has not answered the Grant sent "
            "0.0 s ago");
  ASSERT_EQ(stats.simulators_size(), 1);
  EXPECT_EQ(stats.simulators(0).granted_ns(), 15u);
  EXPECT_TRUE(stats.simulators(0).grant_outstanding());
  EXPECT_EQ(stats.simulators(0).transits_held(), 1u);
}

}  // namespace
}  // namespace trestle::daemon
