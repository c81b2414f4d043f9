// trestle mpirun's view of the launcher command: which MPI it starts (and
// so which build of the layer), its number of ranks, and the ranks'
// environment added as that launcher's options; and what it says about
// the run it watches: the ranks by name, those that never joined, who holds
// virtual time in a stall, the progress line.
#include "mpirun_args.h"

#include <gtest/gtest.h>

#include "never_joined.h"
#include "rank_ids.h"
#include "run_progress.h"
#include "stall_report.h"
#include "virtual_time_text.h"

namespace trestle {
namespace {

using Argv = std::vector<std::string>;

TEST(MpirunArgs, TheWorldIsTheSumOfEveryAppContextsRanks) {
  constexpr MpiAbi kOmpi = MpiAbi::kOpenMpi;
  EXPECT_EQ(*WorldSizeOf({"mpirun", "--oversubscribe", "-np", "4", "./a"}, kOmpi), 4);
  EXPECT_EQ(*WorldSizeOf({"mpiexec", "-n", "2", "./a", ":", "--np", "3", "./b"}, kOmpi), 5);
  EXPECT_EQ(*WorldSizeOf({"mpirun", "-c", "16", "python3", "x.py"}, kOmpi), 16);
  // The program's own options are not mpirun's; option values are not the program.
  EXPECT_EQ(*WorldSizeOf({"mpirun", "--mca", "btl", "self,vader", "-x", "A=1", "-np", "2",
                          "NPopenmpi", "-n", "100"},
                         kOmpi),
            2);
  EXPECT_EQ(*WorldSizeOf({"mpirun", "-np", "1", "./a", "-np", "9", ":", "-n", "3", "./b"}, kOmpi),
            4);
  EXPECT_EQ(WorldSizeOf({"mpirun", "./a"}, kOmpi).status().message(),
            "cannot tell how many ranks mpirun starts: give it -np N (or trestle mpirun --np N)");
  EXPECT_EQ(WorldSizeOf({"mpirun", "-np", "x", "./a"}, kOmpi).status().message(),
            "mpirun -np needs a positive number of ranks, not 'x'");
  EXPECT_EQ(WorldSizeOf({"mpirun", "-np"}, kOmpi).status().message(),
            "mpirun -np needs a positive number of ranks");
}

TEST(MpirunArgs, HydraOptionsAndTheirValuesAreNotThePrograms) {
  constexpr MpiAbi kMpich = MpiAbi::kMpich;
  // -genv takes two values, -launcher one (with one dash or two).
  EXPECT_EQ(*WorldSizeOf({"mpiexec.mpich", "-genv", "A", "-n", "-launcher", "fork", "--ppn",
                          "2", "-n", "4", "./a", "-n", "100"},
                         kMpich),
            4);
  EXPECT_EQ(*WorldSizeOf({"mpiexec.mpich", "-n", "2", "./a", ":", "-np", "3", "./b"}, kMpich),
            5);
  // -c is Open MPI's count, not hydra's: a flag there.
  EXPECT_EQ(WorldSizeOf({"mpiexec.mpich", "-c", "16", "./a"}, kMpich).status().message(),
            "cannot tell how many ranks mpirun starts: give it -np N (or trestle mpirun --np N)");
}

std::string Unused() {
  ADD_FAILURE() << "asked although the launcher's name says which MPI it is";
  return "";
}

TEST(MpirunArgs, TheLaunchersNameSaysWhichMpiItStarts) {
  for (const char* l : {"mpiexec.mpich", "/usr/bin/mpirun.mpich", "mpiexec.hydra"}) {
    EXPECT_EQ(*MpiAbiOf(l, Unused, Unused), MpiAbi::kMpich) << l;
  }
  for (const char* l : {"orterun", "/usr/bin/mpirun.openmpi", "mpiexec.openmpi"}) {
    EXPECT_EQ(*MpiAbiOf(l, Unused, Unused), MpiAbi::kOpenMpi) << l;
  }
  EXPECT_EQ(LayerFileName(MpiAbi::kMpich), "libtrestle-mpi-mpich.so");
  EXPECT_EQ(LayerFileName(MpiAbi::kOpenMpi), "libtrestle-mpi.so");
  EXPECT_EQ(MpiAbiOf("srun", Unused, Unused).status().message(),
            "the command after -- must be Open MPI's mpirun (or mpiexec) or MPICH's "
            "mpiexec.mpich (or mpirun.mpich), not 'srun': trestle mpirun -- mpirun -np N "
            "PROGRAM ...");
}

TEST(MpirunArgs, MpirunIsTheMpiItLeadsToElseTheOneItsVersionNames) {
  // Debian's alternatives: /usr/bin/mpirun leads to orterun or mpiexec.hydra.
  EXPECT_EQ(*MpiAbiOf("mpirun", [] { return std::string("/usr/bin/mpiexec.hydra"); }, Unused),
            MpiAbi::kMpich);
  EXPECT_EQ(*MpiAbiOf("/usr/bin/mpiexec", [] { return std::string("/usr/bin/orterun"); }, Unused),
            MpiAbi::kOpenMpi);
  // A launcher of another name: its --version says.
  const auto other = [] { return std::string("/opt/mpi/bin/mpiexec"); };
  EXPECT_EQ(*MpiAbiOf("mpiexec", other,
                      [] { return std::string("HYDRA build details:\n    Version: 4.0.2\n"); }),
            MpiAbi::kMpich);
  EXPECT_EQ(*MpiAbiOf("mpirun", other,
                      [] { return std::string("mpirun (Open MPI) 4.1.4\n\nReport bugs to"); }),
            MpiAbi::kOpenMpi);
  EXPECT_EQ(MpiAbiOf("mpirun", other, [] { return std::string("Intel(R) MPI Library"); })
                .status()
                .message(),
            "cannot tell which MPI 'mpirun' starts: its --version names neither Open MPI nor "
            "MPICH (HYDRA); run Open MPI's mpirun.openmpi or MPICH's mpiexec.mpich");
}

TEST(MpirunArgs, TheEnvironmentGoesInAsXOptionsRightAfterOpenMpisLauncher) {
  EXPECT_EQ(WithRankEnvironment({"/usr/bin/mpirun", "-np", "2", "./a"},
                                {{"LD_PRELOAD", "/x/lib.so"}, {"TRESTLE_TOKEN", ""}},
                                MpiAbi::kOpenMpi),
            (Argv{"/usr/bin/mpirun", "-x", "LD_PRELOAD=/x/lib.so", "-x", "TRESTLE_TOKEN", "-np",
                  "2", "./a"}));
}

TEST(MpirunArgs, TheEnvironmentGoesInAsGenvOptionsRightAfterHydra) {
  // An empty value: the caller's own, by name, in one -genvlist.
  EXPECT_EQ(WithRankEnvironment({"mpiexec.mpich", "-n", "2", "./a"},
                                {{"LD_PRELOAD", "/x/lib-mpich.so"},
                                 {"TRESTLE_TOKEN", ""},
                                 {"TRESTLE_MPI_POLL_NS", "100"},
                                 {"OTHER", ""}},
                                MpiAbi::kMpich),
            (Argv{"mpiexec.mpich", "-genv", "LD_PRELOAD", "/x/lib-mpich.so", "-genv",
                  "TRESTLE_MPI_POLL_NS", "100", "-genvlist", "TRESTLE_TOKEN,OTHER", "-n", "2",
                  "./a"}));
  EXPECT_EQ(WithRankEnvironment({"mpiexec.mpich", "-n", "1", "./a"}, {{"A", "1"}}, MpiAbi::kMpich),
            (Argv{"mpiexec.mpich", "-genv", "A", "1", "-n", "1", "./a"}));
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
  EXPECT_NE(e->find("a program that calls PMPI_* itself"), std::string::npos);
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
