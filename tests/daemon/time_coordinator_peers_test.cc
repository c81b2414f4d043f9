// TimeCoordinator as the coordinator (daemon 1) of a run that spans daemons
// (docs/federation.md, "Lockstep across daemons"): an app "p" of peer daemon
// 2 joins, reports and leaves through TimeEntry reports, and is answered
// through the link (fake_lockstep_link.h): its join with the bound, its
// Wake and Quiescent as reports to daemon 2, its deliveries handed to
// daemon 2; its blocked report is stale while it has taken fewer
// deliveries than were released to it (and holds the bound where it will
// run from); reports from another daemon are ignored; its apps leave when
// its heartbeat expires.
#include "lockstep/time_coordinator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fake_lockstep_link.h"
#include "lockstep/virtual_time.h"
#include "lockstep_run.h"

namespace trestle::daemon {
namespace {

using Events = std::vector<std::string>;
using Reports = std::vector<std::string>;

DaemonConfig Coordinator() {
  DaemonConfig config;
  config.daemon_id = 1;
  config.federate = true;
  return config;
}

TimeEntry FromPeer(TimeEntry::Kind kind, std::string app, std::uint32_t from = 2) {
  TimeEntry e;
  e.kind = kind;
  e.from = from;
  e.app = std::move(app);
  return e;
}
TimeEntry PeerClock(std::string app, std::uint64_t now, bool blocked, std::uint64_t block,
                    std::optional<std::uint64_t> wake = std::nullopt, std::uint64_t taken = 0,
                    std::uint32_t from = 2) {
  TimeEntry e = FromPeer(TimeEntry::Kind::kClock, std::move(app), from);
  e.now = now;
  e.blocked = blocked;
  e.block = block;
  e.wake = wake;
  e.taken = taken;
  return e;
}

class TimeCoordinatorPeers : public ::testing::Test {
 protected:
  TimeCoordinatorPeers() {
    run_.time().SetLink(&link_);
    run_.SimReady(10, 10);
  }

  FakeLockstepLink link_;
  LockstepRun run_{Coordinator()};
};

TEST_F(TimeCoordinatorPeers, JoinOfAPeersAppIsAnsweredWithTheBound) {
  run_.Join("a");
  run_.Clock("a", 40, false);
  run_.Pump();
  run_.time().OnTimeEntry(FromPeer(TimeEntry::Kind::kJoin, "p"));
  EXPECT_EQ(link_.TakeSent(),
            Reports{"to 2: J from 1 app 'p' now 40 blocked 0 wake none block 0 taken 0"});
  run_.Pump();
  wire::LockstepStats stats;
  run_.time().FillStats(&stats);
  EXPECT_EQ(stats.apps(), 2u);
  EXPECT_EQ(stats.apps_running(), 2u);
}

TEST_F(TimeCoordinatorPeers, JoinOfAnAppWithASessionHereIsIgnored) {
  run_.Join("a");
  run_.time().OnTimeEntry(FromPeer(TimeEntry::Kind::kJoin, "a"));
  EXPECT_EQ(link_.TakeSent(), Reports{});
}

TEST_F(TimeCoordinatorPeers, WakeAndQuiescentOfAPeersAppGoToItsDaemon) {
  run_.Join("a");
  run_.time().OnTimeEntry(FromPeer(TimeEntry::Kind::kJoin, "p"));
  link_.sent.clear();
  run_.Clock("a", 0, true, {}, 1);
  run_.time().OnTimeEntry(PeerClock("p", 10, true, 5, 30));
  run_.Pump();
  EXPECT_EQ(run_.time().bound_ns(), 30u);
  EXPECT_EQ(link_.TakeSent(),
            Reports{"to 2: w from 1 app 'p' now 30 blocked 0 wake none block 5 taken 0"});

  run_.time().OnTimeEntry(PeerClock("p", 30, true, 6));
  run_.Pump();
  EXPECT_EQ(link_.TakeSent(),
            Reports{"to 2: q from 1 app 'p' now 0 blocked 0 wake none block 6 taken 0"});
  EXPECT_EQ(run_.Events("a"), Events{"quiescent (block 1)"});
}

TEST_F(TimeCoordinatorPeers, DeliveryToAPeersAppGoesToItsDaemonAndItsReportIsStaleUntilTaken) {
  run_.Join("a");
  run_.time().OnTimeEntry(FromPeer(TimeEntry::Kind::kJoin, "p"));
  link_.sent.clear();
  const std::uint64_t id = run_.Send("a", "p", 0);
  run_.Clock("a", 0, true, {}, 1);
  run_.time().OnTimeEntry(PeerClock("p", 0, true, 1));
  run_.Pump();
  run_.Deliver(id, 10);
  run_.Reached(kNever, run_.Grants().back());
  run_.Pump();
  ASSERT_EQ(link_.delivered.size(), 1u);
  EXPECT_EQ(link_.delivered[0].id, id);
  EXPECT_EQ(link_.delivered[0].daemon, std::optional<std::uint32_t>(2));
  EXPECT_FALSE(link_.delivered[0].drop_report);

  run_.time().OnTimeEntry(PeerClock("p", 10, true, 2, std::nullopt, /*taken=*/0));
  run_.Pump();
  wire::LockstepStats stats;
  run_.time().FillStats(&stats);
  EXPECT_EQ(stats.apps_running(), 1u) << "p has not taken the delivery released to it";
  EXPECT_EQ(stats.holder(), "p");
  EXPECT_EQ(link_.TakeSent(), Reports{});

  run_.time().OnTimeEntry(PeerClock("p", 10, true, 3, std::nullopt, /*taken=*/1));
  run_.Pump();
  EXPECT_EQ(link_.TakeSent(),
            Reports{"to 2: q from 1 app 'p' now 0 blocked 0 wake none block 3 taken 0"});
  EXPECT_EQ(run_.Events("a"), Events{"quiescent (block 1)"});
}

// p's report is stale (it has not taken m1), and m2 is released to it
// meanwhile: p runs from m1's time once it takes m1, so the bound stays there.
TEST(TimeCoordinatorPeer, StaleAppHandedMoreHoldsTheBoundAtWhatItTakesFirst) {
  FakeLockstepLink link;
  LockstepRun run{Coordinator()};
  run.time().SetLink(&link);
  run.SimReady(20, 20);
  run.Join("a");
  run.time().OnTimeEntry(FromPeer(TimeEntry::Kind::kJoin, "p"));
  const std::uint64_t m1 = run.Send("a", "p", 0);
  run.Clock("a", 0, false);
  run.time().OnTimeEntry(PeerClock("p", 0, true, 1));
  run.Pump();
  run.Deliver(m1, 20);
  run.Reached(kNever, run.Grants().back());
  run.Clock("a", 5, false);
  run.Pump();
  ASSERT_EQ(link.delivered.size(), 1u);

  run.time().OnTimeEntry(PeerClock("p", 0, true, 2, std::nullopt, /*taken=*/0));  // stale
  const std::uint64_t m2 = run.Send("a", "p", 5);
  run.Pump();
  run.Deliver(m2, 25);
  run.Reached(kNever, run.Grants().back());
  run.Clock("a", 100, false);
  run.Pump();
  ASSERT_EQ(link.delivered.size(), 2u);
  run.Reached(kNever, run.Grants().back());
  run.Pump();
  EXPECT_EQ(run.time().bound_ns(), 20u) << "p sends at 20 once it has taken m1";
  EXPECT_EQ(run.Grants().back(), 20u);
}

TEST_F(TimeCoordinatorPeers, ReportsFromAnotherDaemonAreIgnored) {
  run_.Join("a");
  run_.Clock("a", 100, false);
  run_.time().OnTimeEntry(FromPeer(TimeEntry::Kind::kJoin, "p"));
  run_.Pump();
  EXPECT_EQ(run_.time().bound_ns(), 0u);  // p runs at 0
  run_.time().OnTimeEntry(PeerClock("p", 50, false, 0, std::nullopt, 0, /*from=*/3));
  run_.time().OnTimeEntry(FromPeer(TimeEntry::Kind::kLeave, "p", /*from=*/3));
  run_.Reached(kNever, 0);
  run_.Pump();
  EXPECT_EQ(run_.time().bound_ns(), 0u);
  run_.time().OnTimeEntry(PeerClock("p", 50, false, 0));
  run_.Pump();
  EXPECT_EQ(run_.time().bound_ns(), 50u);
  run_.time().OnTimeEntry(FromPeer(TimeEntry::Kind::kLeave, "p"));
  run_.Pump();
  EXPECT_EQ(run_.time().bound_ns(), 100u);
}

TEST_F(TimeCoordinatorPeers, AppsOfADaemonWhoseHeartbeatExpiredLeaveTheRun) {
  run_.Join("a");
  run_.Clock("a", 0, true, {}, 1);
  run_.time().OnTimeEntry(FromPeer(TimeEntry::Kind::kJoin, "p"));
  const std::uint64_t joined_ms = uv_now(run_.loop());
  run_.Pump();
  run_.time().OnLiveDaemons({}, joined_ms);  // a heartbeat from before the join
  run_.Pump();
  const std::vector<std::uint32_t> alive = {1, 2};
  run_.time().OnLiveDaemons(alive, joined_ms + 1);
  run_.Pump();
  EXPECT_EQ(run_.Events("a"), Events{}) << "p runs";

  const std::vector<std::uint32_t> only_me = {1};
  run_.time().OnLiveDaemons(only_me, joined_ms + 1);
  run_.Pump();
  EXPECT_EQ(run_.Events("a"), Events{"quiescent (block 1)"});
}

}  // namespace
}  // namespace trestle::daemon
