// trestle mpirun's view of the mpirun command: its number of ranks, and
// the ranks' environment added as -x options after the launcher; and what
// it says about the run it watches: the ranks by name, those that never
// joined, who holds virtual time in a stall, the progress line.
#include "mpirun_args.h"

#include <gtest/gtest.h>

#include "never_joined.h"
#include "rank_ids.h"
#include "run_progress.h"
#include "stall_report.h"
#include "virtual_time_text.h"

namespace trestle {
namespace {

TEST(MpirunArgs, TheWorldIsTheSumOfEveryAppContextsRanks) {
  EXPECT_EQ(*WorldSizeOf({"mpirun", "--oversubscribe", "-np", "4", "./a"}), 4);
  EXPECT_EQ(*WorldSizeOf({"mpiexec", "-n", "2", "./a", ":", "--np", "3", "./b"}), 5);
  EXPECT_EQ(*WorldSizeOf({"mpirun", "-c", "16", "python3", "x.py"}), 16);
  // The program's own options are not mpirun's; option values are not the program.
  EXPECT_EQ(*WorldSizeOf({"mpirun", "--mca", "btl", "self,vader", "-x", "A=1", "-np", "2",
                          "NPopenmpi", "-n", "100"}),
            2);
  EXPECT_EQ(*WorldSizeOf({"mpirun", "-np", "1", "./a", "-np", "9", ":", "-n", "3", "./b"}), 4);
  EXPECT_EQ(WorldSizeOf({"mpirun", "./a"}).status().message(),
            "cannot tell how many ranks mpirun starts: give it -np N (or trestle mpirun --np N)");
  EXPECT_EQ(WorldSizeOf({"mpirun", "-np", "x", "./a"}).status().message(),
            "mpirun -np needs a positive number of ranks, not 'x'");
  EXPECT_EQ(WorldSizeOf({"mpirun", "-np"}).status().message(),
            "mpirun -np needs a positive number of ranks");
}

TEST(MpirunArgs, TheEnvironmentGoesInAsXOptionsRightAfterTheLauncher) {
  absl::StatusOr<std::vector<std::string>> argv = WithRankEnvironment(
      {"/usr/bin/mpirun", "-np", "2", "./a"}, {{"LD_PRELOAD", "/x/lib.so"}, {"TRESTLE_TOKEN", ""}});
  ASSERT_TRUE(argv.ok());
  EXPECT_EQ(*argv, (std::vector<std::string>{"/usr/bin/mpirun", "-x", "LD_PRELOAD=/x/lib.so", "-x",
                                             "TRESTLE_TOKEN", "-np", "2", "./a"}));
  EXPECT_EQ(WithRankEnvironment({"srun", "-n", "2", "./a"}, {}).status().message(),
            "the command after -- must be Open MPI's mpirun (or mpiexec), not 'srun': trestle "
            "mpirun -- mpirun -np N PROGRAM ...");
}

TEST(RankIds, RanksAreNamedByTheirNumbersInOrderWithRuns) {
  EXPECT_EQ(RankClientIdList(3), "rank-0,rank-1,rank-2");
  EXPECT_EQ(RankOfClientId("rank-12"), 12);
  EXPECT_EQ(RankOfClientId("rank-"), std::nullopt);
  EXPECT_EQ(RankOfClientId("rank-01"), std::nullopt);
  EXPECT_EQ(RankOfClientId("fabric"), std::nullopt);
  EXPECT_EQ(RankNames({"rank-3"}), "rank 3");
  EXPECT_EQ(RankNames({"rank-1", "rank-0"}), "ranks 0 and 1");
  EXPECT_EQ(RankNames({"rank-7", "rank-0", "rank-2", "rank-3", "rank-4"}),
            "ranks 0, 2-4 and 7");
  EXPECT_EQ(RankNames({"rank-1", "x"}), "ranks 1 and 'x'");
}

wire::LockstepStats NeverJoined(std::uint32_t count, std::vector<std::string> listed) {
  wire::LockstepStats l;
  l.set_apps_never_joined(count);
  for (const std::string& id : listed) l.add_never_joined(id);
  return l;
}

TEST(NeverJoined, TheEndOfRunErrorNamesTheRanksAndTheLikelyCauses) {
  EXPECT_EQ(NeverJoinedError(NeverJoined(0, {}), 4), std::nullopt);
  std::optional<std::string> e = NeverJoinedError(NeverJoined(2, {"rank-3", "rank-1"}), 4);
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->starts_with("ranks 1 and 3 (2 of 4) never joined the run: what ran there ran "
                             "in real time, outside the model"))
      << *e;
  EXPECT_NE(e->find("Open MPI's Fortran bindings call PMPI_* directly"), std::string::npos);
  EXPECT_NE(e->find("statically linked"), std::string::npos);
  EXPECT_NE(e->find("another MPI"), std::string::npos);
  // Past the daemon's list of 1,000: how many more.
  e = NeverJoinedError(NeverJoined(1002, {"rank-0", "rank-1"}), 2000);
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->starts_with("ranks 0 and 1 and 1000 more (1002 of 2000) never joined")) << *e;
}

TEST(NeverJoined, TheWarningComesOnceWhenRanksHaveNotJoinedByTheBound) {
  using std::chrono::seconds;
  const auto t0 = std::chrono::steady_clock::time_point{} + seconds(100);
  JoinWatch watch(seconds(10), t0);
  EXPECT_EQ(watch.Check(NeverJoined(2, {"rank-0", "rank-1"}), 2, t0 + seconds(9)), std::nullopt);
  wire::LockstepStats started = NeverJoined(0, {});
  started.set_started(true);
  JoinWatch all_joined(seconds(10), t0);
  EXPECT_EQ(all_joined.Check(started, 2, t0 + seconds(30)), std::nullopt);
  std::optional<std::string> w = watch.Check(NeverJoined(1, {"rank-1"}), 2, t0 + seconds(10));
  ASSERT_TRUE(w);
  EXPECT_TRUE(w->starts_with("rank 1 (1 of 2) has not joined the run 10 s after mpirun started "
                             "(a rank joins in MPI_Init; the others wait for them). If they "
                             "never join, they run outside the model: likely causes:"))
      << *w;
  EXPECT_EQ(watch.Check(NeverJoined(1, {"rank-1"}), 2, t0 + seconds(60)), std::nullopt);
}

wire::LockstepStats Stalled(std::uint64_t still_ms, std::string holder, std::string state) {
  wire::LockstepStats l;
  l.set_started(true);
  l.set_bound_ns(1500);
  l.set_bound_still_ms(still_ms);
  l.set_apps(4);
  l.set_apps_running(1);
  l.set_holder(std::move(holder));
  l.set_holder_role(wire::ROLE_APP);
  l.set_holder_state(std::move(state));
  return l;
}

TEST(StallReport, NamesTheRunningRankOncePerStallAndAgainForANewHolder) {
  StallReport report(std::chrono::seconds(5));
  const std::string running = "running at 1500 ns; joined 5.2 s ago";
  EXPECT_EQ(report.Check(Stalled(4999, "rank-2", running)), std::nullopt);
  EXPECT_EQ(report.Check(Stalled(5000, "rank-2", running)),
            "virtual time has stayed at 1.500 us for 5.0 s (1 of 4 ranks running); held back by "
            "rank 2 (running at 1500 ns; joined 5.2 s ago): it computes, or waits, outside MPI, "
            "and every other rank's time waits for its clock");
  EXPECT_EQ(report.Check(Stalled(9000, "rank-2", running)), std::nullopt);
  std::optional<std::string> sim = [&] {
    wire::LockstepStats l = Stalled(9500, "fabric", "granted 1500 ns, reached nothing");
    l.set_holder_role(wire::ROLE_SIM);
    return report.Check(l);
  }();
  ASSERT_TRUE(sim);
  EXPECT_NE(sim->find("held back by simulator 'fabric' (granted 1500 ns, reached nothing): the "
                      "blocked ranks wait for its answer"),
            std::string::npos)
      << *sim;
  // Time moved: the next stall is reported again.
  EXPECT_EQ(report.Check(Stalled(10, "rank-2", running)), std::nullopt);
  EXPECT_TRUE(report.Check(Stalled(6000, "rank-2", running)));
}

TEST(RunProgress, TheLineSaysTimeMessagesRanksAndWall) {
  admin::StatusReply s;
  s.mutable_totals()->set_accepted(1200);
  wire::LockstepStats* l = s.mutable_lockstep();
  l->set_apps_never_joined(1);
  EXPECT_EQ(RunProgress::Line(s, 4, std::chrono::milliseconds(2500)),
            "waiting for the ranks to join: 3 of 4 joined, wall 2.5 s");
  l->set_apps_never_joined(0);
  l->set_started(true);
  l->set_bound_ns(1'234'567);
  l->set_apps(3);
  l->set_apps_running(1);
  EXPECT_EQ(RunProgress::Line(s, 4, std::chrono::milliseconds(12'000)),
            "virtual 1.234567 ms, 1200 messages, ranks 1 running 2 blocked 1 done, wall 12.0 s");
}

TEST(VirtualTimeText, EachInTheUnitThatReadsBestExactToTheNs) {
  EXPECT_EQ(VirtualTimeText(850), "850 ns");
  EXPECT_EQ(VirtualTimeText(12'345), "12.345 us");
  EXPECT_EQ(VirtualTimeText(2'000'000'100), "2.000000100 s");
  EXPECT_EQ(VirtualTimeText(18446744073709551614ull), "no bound");
  EXPECT_FALSE(IsNoBound(18446744073709551613ull));
}

}  // namespace
}  // namespace trestle
