// LockstepRelay on a peer daemon (2) of a run coordinated by daemon 1, with
// a fake link (fake_lockstep_link.h), fake sessions and a fake closer: the
// join reported and answered with its start time, or closed naming the
// coordinator once unanswered for kJoinTimeoutMs; clock reports held back
// behind the app's transits not yet handed on (of clocks in a row, the
// latest), and its leave after them; `taken` counting the deliveries the
// app has seen; the coordinator's Wake and Quiescent as frames to the app.
#include "lockstep/lockstep_relay.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "clock_frame.h"
#include "fake_lockstep_link.h"
#include "fake_session_closer.h"
#include "messages/client_registry.h"
#include "test_loop.h"
#include "test_session.h"

namespace trestle::daemon {
namespace {

using Reports = std::vector<std::string>;

DaemonConfig PeerConfig() {
  DaemonConfig config;
  config.daemon_id = 2;
  config.lockstep_coordinator = 1;
  config.federate = true;
  return config;
}

TimeEntry FromCoordinator(TimeEntry::Kind kind, std::string app, std::uint64_t now = 0,
                          std::uint64_t block = 0) {
  TimeEntry e;
  e.kind = kind;
  e.from = 1;
  e.app = std::move(app);
  e.now = now;
  e.block = block;
  return e;
}

MessageRecord Transit(std::uint64_t id, std::uint32_t src) {
  MessageRecord r;
  r.id = id;
  r.src = src;
  return r;
}

class LockstepRelayTest : public ::testing::Test {
 protected:
  LockstepRelayTest() {
    relay_.SetLink(&link_);
    relay_.OnJoined([this](Session& s, std::uint64_t start) {
      joined_.push_back({&s, start});
    });
  }
  // `a` joins, and the coordinator answers at `start`.
  void Joined(std::uint64_t start) {
    ASSERT_EQ(relay_.Join(*a_), std::nullopt);
    relay_.OnTimeEntry(FromCoordinator(TimeEntry::Kind::kJoined, "a", start));
    link_.sent.clear();
  }

  TestLoop loop_;
  DaemonConfig config_ = PeerConfig();
  ClientRegistry apps_;
  FakeSessionCloser closer_;
  FakeLockstepLink link_;
  LockstepRelay relay_{loop_.get(), config_, apps_, closer_};
  std::vector<std::pair<Session*, std::uint64_t>> joined_;
  TestSession a_{loop_.get(), apps_, "a"};
};

TEST_F(LockstepRelayTest, JoinIsReportedAndItsAnswerIsTheStartTime) {
  EXPECT_EQ(relay_.Join(*a_), std::nullopt);
  EXPECT_EQ(link_.TakeSent(), Reports{"to 1: j from 2 app 'a' now 0 blocked 0 wake none block 0 "
                                      "taken 0"});
  relay_.OnTimeEntry(FromCoordinator(TimeEntry::Kind::kJoined, "a", 40));
  ASSERT_EQ(joined_.size(), 1u);
  EXPECT_EQ(joined_[0].first, &*a_);
  EXPECT_EQ(joined_[0].second, 40u);
  EXPECT_EQ(relay_.ClockOf(*a_), 40u);

  relay_.OnTimeEntry(FromCoordinator(TimeEntry::Kind::kJoined, "a", 50));  // not joining
  EXPECT_EQ(joined_.size(), 1u);
  EXPECT_EQ(relay_.Join(*a_), std::optional<std::uint64_t>(40)) << "a resumed session";
  EXPECT_EQ(link_.TakeSent(), Reports{});
}

TEST_F(LockstepRelayTest, JoinUnansweredForTheTimeoutClosesTheSessionNamingTheCoordinator) {
  const std::uint64_t join_ms = loop_.now_ms();
  relay_.Join(*a_);
  relay_.Housekeeping(join_ms + LockstepRelay::kJoinTimeoutMs - 1);
  EXPECT_TRUE(closer_.calls.empty());
  relay_.Housekeeping(join_ms + LockstepRelay::kJoinTimeoutMs);
  ASSERT_EQ(closer_.calls.size(), 1u);
  EXPECT_EQ(closer_.calls[0].session, &*a_);
  EXPECT_EQ(closer_.calls[0].code, wire::UNAVAILABLE);
  EXPECT_EQ(closer_.calls[0].text,
            "lockstep: daemon 1, the coordinator of this run (lockstep_coordinator), did not "
            "answer this app's join within 3000 ms: is it running, and is its Redis reachable?");
}

TEST_F(LockstepRelayTest, AnsweredJoinIsNeverClosed) {
  const std::uint64_t join_ms = loop_.now_ms();
  Joined(0);
  relay_.Housekeeping(join_ms + 10 * LockstepRelay::kJoinTimeoutMs);
  EXPECT_TRUE(closer_.calls.empty());
}

TEST_F(LockstepRelayTest, LeaveBeforeTheAnswerIsReportedAndTheLateAnswerJoinsNothing) {
  relay_.Join(*a_);
  relay_.Leave(*a_);
  EXPECT_EQ(link_.TakeSent(),
            (Reports{"to 1: j from 2 app 'a' now 0 blocked 0 wake none block 0 taken 0",
                     "to 1: l from 2 app 'a' now 0 blocked 0 wake none block 0 taken 0"}));
  relay_.OnTimeEntry(FromCoordinator(TimeEntry::Kind::kJoined, "a", 40));
  EXPECT_TRUE(joined_.empty());
  relay_.Housekeeping(loop_.now_ms() + LockstepRelay::kJoinTimeoutMs);
  EXPECT_TRUE(closer_.calls.empty());
}

TEST_F(LockstepRelayTest, ClockWaitsForTheAppsTransitsAndOnlyTheLatestOfClocksInARowGoes) {
  Joined(0);
  const MessageRecord r1 = Transit(11, a_.client());
  const MessageRecord r2 = Transit(12, a_.client());
  relay_.OnAdmitted(r1);
  relay_.OnAdmitted(r2);
  relay_.OnAdmitted(r1);  // the same transit again counts once
  relay_.OnClock(*a_, ClockFrame(10));
  relay_.OnClock(*a_, ClockFrame(20, true, 30, 2));
  relay_.OnTransitHandedOn(r1);
  relay_.OnTransitHandedOn(r1);  // again: nothing
  EXPECT_EQ(link_.TakeSent(), Reports{}) << "transit 12 is not handed on yet";
  relay_.OnTransitHandedOn(r2);
  EXPECT_EQ(link_.TakeSent(),
            Reports{"to 1: c from 2 app 'a' now 20 blocked 1 wake 30 block 2 taken 0"});

  // A leave waits behind them too, after the clock that came first.
  const MessageRecord r3 = Transit(13, a_.client());
  relay_.OnAdmitted(r3);
  relay_.OnClock(*a_, ClockFrame(25));
  relay_.Leave(*a_);
  EXPECT_EQ(link_.TakeSent(), Reports{});
  relay_.OnDiscarded(r3);
  EXPECT_EQ(link_.TakeSent(),
            (Reports{"to 1: c from 2 app 'a' now 25 blocked 0 wake none block 0 taken 0",
                     "to 1: l from 2 app 'a' now 0 blocked 0 wake none block 0 taken 0"}));
}

TEST_F(LockstepRelayTest, TakenCountsTheDeliveriesTheAppHasSeen) {
  Joined(0);
  MessageRecord r;
  for (std::uint64_t seq : {1, 2, 2, 3}) {  // 2 written again after a reconnect
    r.delivery_seq = seq;
    relay_.OnDeliveryWritten(a_.client(), r);
  }
  relay_.OnClock(*a_, ClockFrame(5, true, std::nullopt, 1, 2));
  relay_.OnClock(*a_, ClockFrame(5, true, std::nullopt, 2, 1));  // lower: nothing more seen
  relay_.OnClock(*a_, ClockFrame(6, true, std::nullopt, 3, 3));
  EXPECT_EQ(link_.TakeSent(),
            (Reports{"to 1: c from 2 app 'a' now 5 blocked 1 wake none block 1 taken 2",
                     "to 1: c from 2 app 'a' now 5 blocked 1 wake none block 2 taken 2",
                     "to 1: c from 2 app 'a' now 6 blocked 1 wake none block 3 taken 3"}));
}

TEST_F(LockstepRelayTest, ClockOfAnAppNotInTheRunIsNotReported) {
  relay_.OnClock(*a_, ClockFrame(5));
  relay_.Join(*a_);  // joining, not answered
  link_.sent.clear();
  relay_.OnClock(*a_, ClockFrame(6));
  EXPECT_EQ(link_.TakeSent(), Reports{});
}

TEST_F(LockstepRelayTest, WakeAndQuiescentBecomeFramesToTheApp) {
  Joined(10);
  relay_.OnTimeEntry(FromCoordinator(TimeEntry::Kind::kWake, "a", 50, 3));
  EXPECT_EQ(relay_.ClockOf(*a_), 50u);
  relay_.OnTimeEntry(FromCoordinator(TimeEntry::Kind::kQuiescent, "a", 0, 4));
  relay_.OnTimeEntry(FromCoordinator(TimeEntry::Kind::kWake, "nobody", 60, 5));
  relay_.OnTimeEntry(FromCoordinator(TimeEntry::Kind::kClock, "a", 70, 6));  // not for a peer
  const std::vector<wire::Frame>& frames = a_.recv().frames();
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].wake().wake_ns(), 50u);
  EXPECT_EQ(frames[0].wake().block(), 3u);
  EXPECT_TRUE(frames[1].has_quiescent());
  EXPECT_EQ(frames[1].quiescent().block(), 4u);
  EXPECT_EQ(relay_.ClockOf(*a_), 50u);
}

TEST_F(LockstepRelayTest, SendBeforeTheClockIsRefusedNamingBothTimes) {
  Joined(40);
  const absl::Status early = relay_.OnSend(*a_, 39);
  EXPECT_EQ(early.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(early.message(),
            "Send.t_send 39 ns is before the app's clock, 40 ns: in lockstep time a Send carries "
            "the app's Now()");
  EXPECT_TRUE(relay_.OnSend(*a_, 45).ok());
  EXPECT_EQ(relay_.ClockOf(*a_), 45u);
}

}  // namespace
}  // namespace trestle::daemon
