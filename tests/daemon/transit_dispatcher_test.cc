// TransitDispatcher with fake channels and a real libuv loop (no sockets):
// PUSH batches in turn between simulators; PULL Fetch answered at once,
// parked until work arrives, or answered empty at its timeout, and at most
// wire::kMaxWaitingPolls waiting; batches bounded by count and by the
// simulator's frame limit; a departing simulator's transits go back to the
// front in their order; outcomes only from the holder; senders paused at
// transit_queue_limit and resumed at half; outcomes paused for every
// simulator (and one that joins) while the delivery budget is exceeded.
#include "dispatch/transit_dispatcher.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dispatch/simulator_assignment.h"
#include "messages/client_registry.h"
#include "messages/message_ledger.h"
#include "test_loop.h"
#include "test_session.h"

namespace trestle::daemon {
namespace {

using Ids = std::vector<std::uint64_t>;

// The transit ids of each TransitBatch written to `c`, one list per frame.
std::vector<Ids> Batches(const FakeChannel& c) {
  std::vector<Ids> batches;
  for (const wire::Frame& f : c.frames()) {
    EXPECT_TRUE(f.has_transits()) << "not a TransitBatch: " << f.ShortDebugString();
    Ids& ids = batches.emplace_back();
    for (const wire::Transit& t : f.transits().transits()) ids.push_back(t.id());
  }
  return batches;
}

DaemonConfig TestConfig() {
  DaemonConfig config;
  config.max_batch = 2;
  config.transit_queue_limit = 1000;
  return config;
}

TestSessionOptions Sim(wire::DeliveryMode mode = wire::PUSH,
                       std::uint32_t max_frame_bytes = wire::kDefaultMaxFrameBytes) {
  return {.role = wire::ROLE_SIM, .mode = mode, .max_frame_bytes = max_frame_bytes};
}

wire::Fetch MakeFetch(std::uint32_t max_count, std::uint32_t timeout_ms) {
  wire::Fetch f;
  f.set_max_count(max_count);
  f.set_timeout_ms(timeout_ms);
  return f;
}

class TransitDispatcherTest : public ::testing::Test {
 protected:
  TransitDispatcherTest() : a_(PinnedClient(apps_, "a")), b_(PinnedClient(apps_, "b")) {}

  // An accepted message `id` from `src` to `dst` on `queue`, queued.
  void Accept(std::uint64_t id, std::uint32_t src, std::uint32_t dst, std::uint32_t queue = 0) {
    MessageRecord* r = ledger_.Open(id, src, dst);
    ASSERT_NE(r, nullptr) << "id " << id;
    r->queue = queue;
    r->size = 1000 + id;
    r->tclass = 2;
    r->t_send = 10 * id;
    r->accepted = ++clock_ns_;
    ledger_.Accept(*r);
    transits_.Enqueue(*r);
  }
  void AcceptRange(std::uint64_t first, std::uint64_t last) {
    for (std::uint64_t id = first; id <= last; ++id) Accept(id, a_, b_);
  }

  TestLoop loop_;
  DaemonConfig config_ = TestConfig();
  ClientRegistry apps_;
  ClientRegistry sims_;
  MessageLedger ledger_{apps_};
  SimulatorAssignment assignment_{SimAssignment::kSystem};
  TransitDispatcher transits_{config_, ledger_, apps_, assignment_};
  const std::uint32_t a_, b_;
  std::uint64_t clock_ns_ = 1000;
};

TEST_F(TransitDispatcherTest, PushTransitsCarryTheMessageAndAreHeldByTheSimulator) {
  TestSession s1(loop_.get(), sims_, "s1", Sim());
  transits_.OnSimReady(*s1, 0);
  Accept(7, a_, b_);
  EXPECT_TRUE(transits_.pump_pending());
  EXPECT_TRUE(s1.recv().frames().empty()) << "nothing is written before the pump";
  transits_.Pump();
  EXPECT_FALSE(transits_.pump_pending());
  ASSERT_EQ(s1.recv().frames().size(), 1u);
  const wire::TransitBatch& batch = s1.recv().frames()[0].transits();
  ASSERT_EQ(batch.transits_size(), 1);
  const wire::Transit& t = batch.transits(0);
  EXPECT_EQ(t.id(), 7u);
  EXPECT_EQ(t.src(), "a");
  EXPECT_EQ(t.dst(), "b");
  EXPECT_EQ(t.size(), 1007u);
  EXPECT_EQ(t.tclass(), 2u);
  EXPECT_EQ(t.t_send(), 70u);
  const MessageRecord* r = ledger_.Find(7);
  EXPECT_EQ(r->state, MessageRecord::State::kHeld);
  EXPECT_EQ(r->holder, s1.client());
  EXPECT_NE(r->handed, 0u);
  EXPECT_EQ(transits_.held_by(s1.client()), 1u);
  EXPECT_EQ(transits_.queued(0), 0u);
}

TEST_F(TransitDispatcherTest, PushBatchesGoRoundRobinBetweenTwoSimulators) {
  TestSession s1(loop_.get(), sims_, "s1", Sim());
  TestSession s2(loop_.get(), sims_, "s2", Sim());
  transits_.OnSimReady(*s1, 0);
  transits_.OnSimReady(*s2, 0);
  AcceptRange(1, 7);
  transits_.Pump();
  EXPECT_EQ(Batches(s1.recv()), (std::vector<Ids>{{1, 2}, {5, 6}}));
  EXPECT_EQ(Batches(s2.recv()), (std::vector<Ids>{{3, 4}, {7}}));
  EXPECT_EQ(transits_.held_by(s1.client()), 4u);
  EXPECT_EQ(transits_.held_by(s2.client()), 3u);

  // The turn carries over to the next pump: s1 is next.
  AcceptRange(8, 9);
  transits_.Pump();
  EXPECT_EQ(Batches(s1.recv()).back(), (Ids{8, 9}));
}

TEST_F(TransitDispatcherTest, PushSkipsASimulatorAboveItsHighWatermarkUntilItIsWritable) {
  TestSession s1(loop_.get(), sims_, "s1", Sim());
  TestSession s2(loop_.get(), sims_, "s2", Sim());
  s1.recv().set_high_watermark(0);  // above once anything is written
  s2.recv().set_high_watermark(0);
  transits_.OnSimReady(*s1, 0);
  transits_.OnSimReady(*s2, 0);
  AcceptRange(1, 6);
  transits_.Pump();
  EXPECT_EQ(Batches(s1.recv()), (std::vector<Ids>{{1, 2}}));
  EXPECT_EQ(Batches(s2.recv()), (std::vector<Ids>{{3, 4}}));
  EXPECT_EQ(transits_.queued(0), 2u) << "both simulators are above their high watermark";

  s2.recv().Drain();
  transits_.OnWritable(*s2);
  transits_.Pump();
  EXPECT_EQ(Batches(s1.recv()).size(), 1u);
  EXPECT_EQ(Batches(s2.recv()), (std::vector<Ids>{{3, 4}, {5, 6}}));
  EXPECT_EQ(transits_.queued(0), 0u);
}

TEST_F(TransitDispatcherTest, PushBatchesAreBoundedByCount) {
  config_.max_batch = 3;
  TestSession s1(loop_.get(), sims_, "s1", Sim());
  transits_.OnSimReady(*s1, 0);
  AcceptRange(1, 7);
  transits_.Pump();
  EXPECT_EQ(Batches(s1.recv()), (std::vector<Ids>{{1, 2, 3}, {4, 5, 6}, {7}}));
}

TEST_F(TransitDispatcherTest, BatchesStayWithinTheSimulatorsFrameLimitWithLongClientIds) {
  config_.max_batch = 256;
  const std::string long_src(200, 's');
  const std::string long_dst(200, 'd');
  const std::uint32_t src = PinnedClient(apps_, long_src);
  const std::uint32_t dst = PinnedClient(apps_, long_dst);
  // About 470 bytes a transit: two fit in 1000 bytes, three do not.
  TestSession s1(loop_.get(), sims_, "s1", Sim(wire::PUSH, 1000));
  transits_.OnSimReady(*s1, 0);
  for (std::uint64_t id = 1; id <= 5; ++id) Accept(id, src, dst);
  transits_.Pump();
  EXPECT_EQ(Batches(s1.recv()), (std::vector<Ids>{{1, 2}, {3, 4}, {5}}));
  for (const wire::Frame& f : s1.recv().frames()) {
    EXPECT_LE(f.ByteSizeLong(), 1000u) << "a frame above the simulator's limit";
  }
}

TEST_F(TransitDispatcherTest, FetchIsAnsweredAtOnceWhenTransitsWait) {
  TestSession s1(loop_.get(), sims_, "s1", Sim(wire::PULL));
  transits_.OnSimReady(*s1, 0);
  AcceptRange(1, 5);
  transits_.Pump();
  EXPECT_TRUE(s1.recv().frames().empty()) << "a PULL simulator gets transits only when it asks";

  transits_.OnFetch(*s1, MakeFetch(1, 1000));
  EXPECT_EQ(Batches(s1.recv()), (std::vector<Ids>{{1}}));
  // max_count 0 means max_batch; above max_batch is cut to it.
  transits_.OnFetch(*s1, MakeFetch(0, 1000));
  transits_.OnFetch(*s1, MakeFetch(50, 1000));
  EXPECT_EQ(Batches(s1.recv()), (std::vector<Ids>{{1}, {2, 3}, {4, 5}}));
  EXPECT_FALSE(s1->polls().waiting());
  EXPECT_EQ(transits_.held_by(s1.client()), 5u);
}

TEST_F(TransitDispatcherTest, AParkedFetchIsAnsweredWhenWorkArrives) {
  TestSession s1(loop_.get(), sims_, "s1", Sim(wire::PULL));
  transits_.OnSimReady(*s1, 0);
  transits_.OnFetch(*s1, MakeFetch(5, 60'000));
  EXPECT_TRUE(s1.recv().frames().empty());
  EXPECT_TRUE(s1->polls().waiting());

  AcceptRange(1, 3);
  transits_.Pump();
  EXPECT_EQ(Batches(s1.recv()), (std::vector<Ids>{{1, 2}})) << "bounded by max_batch";
  EXPECT_FALSE(s1->polls().waiting());
  EXPECT_EQ(transits_.queued(0), 1u) << "no Fetch waits for the third";
}

TEST_F(TransitDispatcherTest, AParkedFetchIsAnsweredEmptyAfterItsTimeout) {
  TestSession s1(loop_.get(), sims_, "s1", Sim(wire::PULL));
  transits_.OnSimReady(*s1, 0);
  const std::uint64_t parked_at = loop_.now_ms();
  transits_.OnFetch(*s1, MakeFetch(5, 30));
  EXPECT_TRUE(s1.recv().frames().empty());
  loop_.Run();
  ASSERT_EQ(s1.recv().frames().size(), 1u);
  EXPECT_TRUE(s1.recv().frames()[0].has_transits());
  EXPECT_EQ(s1.recv().frames()[0].transits().transits_size(), 0);
  EXPECT_GE(loop_.now_ms(), parked_at + 30) << "answered before its timeout";
  EXPECT_FALSE(s1->polls().waiting());
}

TEST_F(TransitDispatcherTest, EachParkedFetchTimesOutAtItsOwnDeadline) {
  TestSession s1(loop_.get(), sims_, "s1", Sim(wire::PULL));
  transits_.OnSimReady(*s1, 0);
  transits_.OnFetch(*s1, MakeFetch(5, 60'000));
  transits_.OnFetch(*s1, MakeFetch(5, 30));
  loop_.RunUntil([&] { return !s1.recv().frames().empty(); });
  EXPECT_EQ(Batches(s1.recv()), (std::vector<Ids>{{}})) << "only the 30 ms Fetch timed out";
  EXPECT_TRUE(s1->polls().waiting()) << "the 60 s Fetch still waits";
  AcceptRange(1, 1);
  transits_.Pump();
  EXPECT_EQ(Batches(s1.recv()), (std::vector<Ids>{{}, {1}}));
  EXPECT_FALSE(s1->polls().waiting());
}

TEST_F(TransitDispatcherTest, AFetchWithoutTimeoutIsAnsweredEmptyAtOnce) {
  TestSession s1(loop_.get(), sims_, "s1", Sim(wire::PULL));
  transits_.OnSimReady(*s1, 0);
  transits_.OnFetch(*s1, MakeFetch(5, 0));
  EXPECT_EQ(Batches(s1.recv()), (std::vector<Ids>{{}}));
  EXPECT_FALSE(s1->polls().waiting());
}

TEST_F(TransitDispatcherTest, AThirdWaitingFetchIsRefusedNamingTheLimit) {
  TestSession s1(loop_.get(), sims_, "s1", Sim(wire::PULL));
  transits_.OnSimReady(*s1, 0);
  transits_.OnFetch(*s1, MakeFetch(1, 60'000));
  transits_.OnFetch(*s1, MakeFetch(1, 60'000));
  EXPECT_TRUE(s1.recv().errors().empty());
  transits_.OnFetch(*s1, MakeFetch(1, 60'000));
  ASSERT_EQ(s1.recv().errors().size(), 1u);
  EXPECT_EQ(s1.recv().errors()[0].code, wire::BAD_REQUEST);
  EXPECT_EQ(s1.recv().errors()[0].text,
            "2 Fetch requests are already waiting on this session (the most allowed)");
  // The two waiting ones are still answered, one batch each.
  AcceptRange(1, 3);
  transits_.Pump();
  EXPECT_EQ(Batches(s1.recv()), (std::vector<Ids>{{1}, {2}}));
}

TEST_F(TransitDispatcherTest, FetchOnAPushSessionIsRefused) {
  TestSession s1(loop_.get(), sims_, "s1", Sim(wire::PUSH));
  transits_.OnSimReady(*s1, 0);
  transits_.OnFetch(*s1, MakeFetch(1, 10));
  ASSERT_EQ(s1.recv().errors().size(), 1u);
  EXPECT_EQ(s1.recv().errors()[0].code, wire::BAD_REQUEST);
  EXPECT_EQ(s1.recv().errors()[0].text, "Fetch needs PULL mode; this session is PUSH");
  EXPECT_TRUE(s1.recv().frames().empty());
}

TEST_F(TransitDispatcherTest, ADepartingSimulatorsTransitsGoBackToTheFrontInTheirOrder) {
  config_.max_batch = 4;
  TestSession s1(loop_.get(), sims_, "s1", Sim());
  transits_.OnSimReady(*s1, 0);
  // Ids out of numeric order: the order that matters is the queue's.
  for (std::uint64_t id : {40, 10, 30, 20}) Accept(id, a_, b_);
  transits_.Pump();
  ASSERT_EQ(Batches(s1.recv()), (std::vector<Ids>{{40, 10, 30, 20}}));
  s1.recv().set_high_watermark(0);  // s1 takes no more
  for (std::uint64_t id : {50, 60}) Accept(id, a_, b_);
  transits_.Pump();
  ASSERT_EQ(transits_.queued(0), 2u);

  s1.Detach();
  transits_.OnSimDetached(*s1);
  EXPECT_EQ(transits_.held_by(s1.client()), 0u);
  EXPECT_EQ(transits_.queued(0), 6u);
  for (std::uint64_t id : {40, 10, 30, 20}) {
    EXPECT_EQ(ledger_.Find(id)->state, MessageRecord::State::kQueued) << "id " << id;
  }
  EXPECT_EQ(transits_.Release(*s1, 40), nullptr) << "s1 holds nothing any more";

  TestSession s2(loop_.get(), sims_, "s2", Sim());
  transits_.OnSimReady(*s2, 0);
  transits_.Pump();
  EXPECT_EQ(Batches(s2.recv()), (std::vector<Ids>{{40, 10, 30, 20}, {50, 60}}));
  EXPECT_EQ(ledger_.Find(40)->holder, s2.client());
  EXPECT_EQ(transits_.held_by(s2.client()), 6u);
}

TEST_F(TransitDispatcherTest, ReleaseGivesTheRecordOnlyToItsHolderAndOnlyOnce) {
  TestSession s1(loop_.get(), sims_, "s1", Sim());
  TestSession s2(loop_.get(), sims_, "s2", Sim());
  transits_.OnSimReady(*s1, 0);
  transits_.OnSimReady(*s2, 0);
  AcceptRange(1, 3);
  transits_.Pump();
  ASSERT_EQ(Batches(s1.recv()), (std::vector<Ids>{{1, 2}}));
  ASSERT_EQ(Batches(s2.recv()), (std::vector<Ids>{{3}}));

  EXPECT_EQ(transits_.Release(*s2, 1), nullptr) << "s2 does not hold 1";
  EXPECT_EQ(transits_.held_by(s1.client()), 2u);
  MessageRecord* r = transits_.Release(*s1, 1);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->id, 1u);
  EXPECT_EQ(transits_.held_by(s1.client()), 1u);
  EXPECT_EQ(transits_.Release(*s1, 1), nullptr) << "released twice";
  EXPECT_EQ(transits_.Release(*s1, 999), nullptr) << "an id nobody holds";
  EXPECT_NE(transits_.Release(*s2, 3), nullptr);
  EXPECT_EQ(transits_.held_by(s2.client()), 0u);
}

TEST_F(TransitDispatcherTest, SendersArePausedAtTheQueueLimitAndResumedAtHalf) {
  config_.transit_queue_limit = 4;
  TestSession a(loop_.get(), apps_, "a");
  TestSession b(loop_.get(), apps_, "b");
  auto send_from = [&](TestSession& s, std::uint64_t id) {
    Accept(id, s.client(), b_);
    transits_.ThrottleSender(*s, 0);
  };
  send_from(a, 1);
  send_from(a, 2);
  send_from(a, 3);
  EXPECT_FALSE(a.send().reading_paused()) << "3 of 4";
  send_from(a, 4);
  EXPECT_TRUE(a.send().reading_paused()) << "4 of 4";
  send_from(a, 5);  // read before the pause took effect
  EXPECT_EQ(a.send().pause_calls(), 1) << "paused once";
  send_from(b, 6);
  EXPECT_TRUE(b.send().reading_paused());

  // A PULL simulator takes one transit per Fetch: 6 -> 5 -> 4 -> 3 -> 2.
  TestSession s1(loop_.get(), sims_, "s1", Sim(wire::PULL));
  transits_.OnSimReady(*s1, 0);
  for (std::size_t left : {5u, 4u, 3u}) {
    transits_.OnFetch(*s1, MakeFetch(1, 1000));
    ASSERT_EQ(transits_.queued(0), left);
    EXPECT_TRUE(a.send().reading_paused()) << left << " queued";
    EXPECT_TRUE(b.send().reading_paused()) << left << " queued";
  }
  transits_.OnFetch(*s1, MakeFetch(1, 1000));
  ASSERT_EQ(transits_.queued(0), 2u);
  EXPECT_FALSE(a.send().reading_paused()) << "2 of 4: half";
  EXPECT_FALSE(b.send().reading_paused());
  EXPECT_EQ(a.send().resume_calls(), 1);
  EXPECT_EQ(b.send().resume_calls(), 1);
}

TEST_F(TransitDispatcherTest, PauseOutcomesPausesEverySimulatorAndOneThatJoins) {
  TestSession s1(loop_.get(), sims_, "s1", Sim());
  TestSession s2(loop_.get(), sims_, "s2", Sim(wire::PULL));
  transits_.OnSimReady(*s1, 0);
  transits_.OnSimReady(*s2, 0);
  transits_.PauseOutcomes(true);
  EXPECT_TRUE(s1.send().reading_paused());
  EXPECT_TRUE(s2.send().reading_paused());
  EXPECT_FALSE(s1.recv().reading_paused()) << "only outcomes (the send channel) are paused";
  transits_.PauseOutcomes(true);
  EXPECT_EQ(s1.send().pause_calls(), 1) << "paused once";

  TestSession s3(loop_.get(), sims_, "s3", Sim());
  transits_.OnSimReady(*s3, 0);
  EXPECT_TRUE(s3.send().reading_paused()) << "joined while paused";

  transits_.PauseOutcomes(false);
  for (TestSession* s : {&s1, &s2, &s3}) {
    EXPECT_FALSE(s->send().reading_paused());
    EXPECT_EQ(s->send().resume_calls(), 1);
  }
  TestSession s4(loop_.get(), sims_, "s4", Sim());
  transits_.OnSimReady(*s4, 0);
  EXPECT_FALSE(s4.send().reading_paused());
  EXPECT_EQ(s4.send().pause_calls(), 0);
}

TEST_F(TransitDispatcherTest, EachSimulatorGetsOnlyItsOwnQueue) {
  // Per node: app a's sends go to queue 1 (sim "a"), app b's to queue 2.
  TestSession sa(loop_.get(), sims_, "a", Sim());
  TestSession sb(loop_.get(), sims_, "b", Sim());
  transits_.OnSimReady(*sa, 1);
  transits_.OnSimReady(*sb, 2);
  Accept(1, a_, b_, 1);
  Accept(2, b_, a_, 2);
  Accept(3, a_, b_, 1);
  transits_.Pump();
  EXPECT_EQ(Batches(sa.recv()), (std::vector<Ids>{{1, 3}}));
  EXPECT_EQ(Batches(sb.recv()), (std::vector<Ids>{{2}}));
  EXPECT_EQ(transits_.queue_of(sa.client()), 1u);
  EXPECT_EQ(transits_.queue_of(sb.client()), 2u);
  Accept(4, b_, a_, 0);  // the system queue: nobody serves it here
  transits_.Pump();
  EXPECT_EQ(transits_.queued(0), 1u);
  EXPECT_EQ(Batches(sa.recv()).size(), 1u);
  EXPECT_EQ(Batches(sb.recv()).size(), 1u);
}

}  // namespace
}  // namespace trestle::daemon
