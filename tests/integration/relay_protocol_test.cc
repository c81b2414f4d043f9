// The relay at the frame level: ids, PUSH and PULL on both sides, long-poll
// timeouts, drops with and without a report, per-node simulators, and the
// accounting identity from StatsReply.
#include <gtest/gtest.h>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "counters_check.h"
#include "daemon_process.h"
#include "raw_connection.h"

namespace trestle::testing {
namespace {

wire::Frame SendFrame(const std::string& dst, const std::string& payload, bool notify_drop = false) {
  wire::Frame f;
  f.mutable_send()->set_dst(dst);
  f.mutable_send()->set_payload(payload);
  f.mutable_send()->set_t_send(1000);
  f.mutable_send()->set_notify_drop(notify_drop);
  return f;
}

wire::Frame FetchFrame(std::uint32_t max_count, std::uint32_t timeout_ms) {
  wire::Frame f;
  f.mutable_fetch()->set_max_count(max_count);
  f.mutable_fetch()->set_timeout_ms(timeout_ms);
  return f;
}

wire::Frame OutcomesFrame(const wire::TransitBatch& transits, wire::OutcomeStatus status,
                          std::uint64_t delay) {
  wire::Frame f;
  for (const auto& t : transits.transits()) {
    wire::Outcome* o = f.mutable_outcomes()->add_outcomes();
    o->set_id(t.id());
    o->set_status(status);
    o->set_t_deliver(t.t_send() + delay);
  }
  return f;
}


TEST(RelayProtocol, PushDeliveryCarriesIdsTimesStampsAndBytes) {
  DaemonProcess daemon;
  RawSession sim(daemon.port(), "ghost", wire::ROLE_SIM);
  RawSession a(daemon.port(), "a", wire::ROLE_APP);
  RawSession b(daemon.port(), "b", wire::ROLE_APP);
  ASSERT_TRUE(sim.ok && a.ok && b.ok);

  a.send.WriteFrame(SendFrame("b", std::string("hi\0there", 8)));
  auto transits = sim.recv.ReadFrame();
  ASSERT_TRUE(transits.has_value() && transits->has_transits());
  ASSERT_EQ(transits->transits().transits_size(), 1);
  const wire::Transit& t = transits->transits().transits(0);
  EXPECT_EQ(t.id(), (a.welcome.id_prefix() << 32) | a.welcome.next_send_seq());
  EXPECT_EQ(t.src(), "a");
  EXPECT_EQ(t.dst(), "b");
  EXPECT_EQ(t.size(), 8u);
  EXPECT_EQ(t.t_send(), 1000u);

  sim.send.WriteFrame(OutcomesFrame(transits->transits(), wire::DELIVERED, 500));
  auto deliveries = b.recv.ReadFrame();
  ASSERT_TRUE(deliveries.has_value() && deliveries->has_deliveries());
  ASSERT_EQ(deliveries->deliveries().deliveries_size(), 1);
  const wire::Delivery& d = deliveries->deliveries().deliveries(0);
  EXPECT_EQ(d.id(), t.id());
  EXPECT_EQ(d.src(), "a");
  EXPECT_EQ(d.payload(), std::string("hi\0there", 8));
  EXPECT_EQ(d.t_send(), 1000u);
  EXPECT_EQ(d.t_deliver(), 1500u);
  EXPECT_EQ(d.status(), wire::DELIVERED);
  EXPECT_GT(d.stamps().daemon_accepted(), 0u);
  EXPECT_GE(d.stamps().sim_handed(), d.stamps().daemon_accepted());
  EXPECT_GE(d.stamps().daemon_delivered(), d.stamps().sim_handed());

  wire::StatsReply stats = a.ctrl.Stats();
  EXPECT_EQ(stats.total().accepted(), 1u);
  EXPECT_EQ(stats.total().delivered(), 1u);
  EXPECT_EQ(stats.total().in_flight(), 0u);
  ExpectBalanced(stats.total());
}

TEST(RelayProtocol, PullFetchAndReceiveLongPollThenTimeOutEmpty) {
  DaemonProcess daemon;
  RawSession sim(daemon.port(), "ghost", wire::ROLE_SIM, wire::PULL);
  RawSession a(daemon.port(), "a", wire::ROLE_APP, wire::PULL);
  ASSERT_TRUE(sim.ok && a.ok);

  // Nothing queued: a Fetch with a timeout answers an empty batch, later.
  wire::Frame fetch = FetchFrame(10, 100);
  const auto start = std::chrono::steady_clock::now();
  sim.recv.WriteFrame(fetch);
  auto empty = sim.recv.ReadFrame();
  ASSERT_TRUE(empty.has_value() && empty->has_transits());
  EXPECT_EQ(empty->transits().transits_size(), 0);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(90));

  // A parked Fetch is answered as soon as a send arrives.
  fetch.mutable_fetch()->set_timeout_ms(5000);
  sim.recv.WriteFrame(fetch);
  for (int i = 0; i < 3; ++i) a.send.WriteFrame(SendFrame("a", absl::StrCat("self-", i)));
  int got = 0;
  wire::TransitBatch all;
  while (got < 3) {
    auto batch = sim.recv.ReadFrame();
    ASSERT_TRUE(batch.has_value() && batch->has_transits());
    for (const auto& t : batch->transits().transits()) *all.add_transits() = t;
    got += batch->transits().transits_size();
    if (got < 3) sim.recv.WriteFrame(fetch);
  }
  sim.send.WriteFrame(OutcomesFrame(all, wire::DELIVERED, 7));

  wire::Frame receive;
  receive.mutable_receive()->set_max_count(2);
  receive.mutable_receive()->set_timeout_ms(2000);
  std::vector<std::string> payloads;
  while (payloads.size() < 3) {
    a.recv.WriteFrame(receive);
    auto batch = a.recv.ReadFrame();
    ASSERT_TRUE(batch.has_value() && batch->has_deliveries());
    EXPECT_LE(batch->deliveries().deliveries_size(), 2);
    for (const auto& d : batch->deliveries().deliveries()) payloads.push_back(d.payload());
  }
  EXPECT_EQ(payloads, (std::vector<std::string>{"self-0", "self-1", "self-2"}));

  // Two Receives may wait at once; a third is refused, by name, and each
  // waiting one times out with its own empty batch.
  receive.mutable_receive()->set_timeout_ms(300);
  for (int i = 0; i < 3; ++i) a.recv.WriteFrame(receive);
  auto err = a.recv.ReadFrame();
  ASSERT_TRUE(err.has_value() && err->has_error());
  EXPECT_EQ(err->error().code(), wire::BAD_REQUEST);
  EXPECT_NE(err->error().text().find("2 Receive requests are already waiting"),
            std::string::npos)
      << err->error().text();
  for (int i = 0; i < 2; ++i) {
    auto timed_out = a.recv.ReadFrame();
    ASSERT_TRUE(timed_out.has_value() && timed_out->has_deliveries()) << i;
    EXPECT_EQ(timed_out->deliveries().deliveries_size(), 0);
  }
  EXPECT_FALSE(a.recv.ReadFrame(400).has_value()) << "only two requests were waiting";
  ExpectBalanced(a.ctrl.Stats().total());
}

TEST(RelayProtocol, TwoWaitingFetchesAreAnsweredOneAfterTheOther) {
  DaemonProcess daemon;
  RawSession sim(daemon.port(), "ghost", wire::ROLE_SIM, wire::PULL);
  RawSession a(daemon.port(), "a", wire::ROLE_APP, wire::PUSH);
  ASSERT_TRUE(sim.ok && a.ok);
  const wire::Frame fetch = FetchFrame(10, 5000);
  sim.recv.WriteFrame(fetch);
  sim.recv.WriteFrame(fetch);
  usleep(100'000);  // both are waiting before any send arrives

  a.send.WriteFrame(SendFrame("a", "first"));
  auto one = sim.recv.ReadFrame();
  ASSERT_TRUE(one.has_value() && one->has_transits());
  ASSERT_EQ(one->transits().transits_size(), 1);
  // The second Fetch still waits: the next send is answered without a new one.
  a.send.WriteFrame(SendFrame("a", "second"));
  auto two = sim.recv.ReadFrame();
  ASSERT_TRUE(two.has_value() && two->has_transits());
  ASSERT_EQ(two->transits().transits_size(), 1);
  EXPECT_GT(two->transits().transits(0).id(), one->transits().transits(0).id());
  // Neither waits any more: a third send stays queued until asked for.
  a.send.WriteFrame(SendFrame("a", "third"));
  EXPECT_FALSE(sim.recv.ReadFrame(300).has_value());
  sim.recv.WriteFrame(fetch);
  auto three = sim.recv.ReadFrame();
  ASSERT_TRUE(three.has_value() && three->has_transits());
  EXPECT_EQ(three->transits().transits_size(), 1);
}

TEST(RelayProtocol, DroppedOutcomesAreCountedAndReportedWhenAsked) {
  DaemonProcess daemon;
  RawSession sim(daemon.port(), "lossy", wire::ROLE_SIM);
  RawSession a(daemon.port(), "a", wire::ROLE_APP);
  RawSession b(daemon.port(), "b", wire::ROLE_APP);
  ASSERT_TRUE(sim.ok && a.ok && b.ok);
  a.send.WriteFrame(SendFrame("b", "quiet"));
  a.send.WriteFrame(SendFrame("b", "loud", /*notify_drop=*/true));
  wire::TransitBatch all;
  while (all.transits_size() < 2) {
    auto batch = sim.recv.ReadFrame();
    ASSERT_TRUE(batch.has_value() && batch->has_transits());
    for (const auto& t : batch->transits().transits()) *all.add_transits() = t;
  }
  sim.send.WriteFrame(OutcomesFrame(all, wire::DROPPED, 0));
  auto report = a.recv.ReadFrame();
  ASSERT_TRUE(report.has_value() && report->has_deliveries());
  ASSERT_EQ(report->deliveries().deliveries_size(), 1);
  EXPECT_EQ(report->deliveries().deliveries(0).status(), wire::DROPPED);
  EXPECT_EQ(report->deliveries().deliveries(0).id(), all.transits(1).id());
  EXPECT_TRUE(report->deliveries().deliveries(0).payload().empty());
  EXPECT_FALSE(b.recv.ReadFrame(200).has_value()) << "b receives nothing";

  wire::StatsReply stats = a.ctrl.Stats();
  EXPECT_EQ(stats.total().dropped(), 2u);
  EXPECT_EQ(stats.total().delivered(), 0u);
  EXPECT_EQ(stats.total().received(), 0u);
  ExpectBalanced(stats.total());
}

TEST(RelayProtocol, PerNodeAssignmentRoutesEachAppToItsOwnSimulator) {
  DaemonProcess daemon({"--sim-assignment", "per-node"});
  RawSession sim_a(daemon.port(), "a", wire::ROLE_SIM);
  RawSession sim_b(daemon.port(), "b", wire::ROLE_SIM);
  RawSession a(daemon.port(), "a", wire::ROLE_APP);
  RawSession b(daemon.port(), "b", wire::ROLE_APP);
  ASSERT_TRUE(sim_a.ok && sim_b.ok && a.ok && b.ok);
  a.send.WriteFrame(SendFrame("b", "from a"));
  b.send.WriteFrame(SendFrame("a", "from b"));
  auto ta = sim_a.recv.ReadFrame();
  auto tb = sim_b.recv.ReadFrame();
  ASSERT_TRUE(ta.has_value() && ta->has_transits() && tb.has_value() && tb->has_transits());
  EXPECT_EQ(ta->transits().transits(0).src(), "a");
  EXPECT_EQ(tb->transits().transits(0).src(), "b");
  EXPECT_FALSE(sim_a.recv.ReadFrame(200).has_value());
}

TEST(RelayProtocol, TransitsWaitForASimulatorToAttach) {
  DaemonProcess daemon;
  RawSession a(daemon.port(), "a", wire::ROLE_APP);
  ASSERT_TRUE(a.ok);
  for (int i = 0; i < 5; ++i) a.send.WriteFrame(SendFrame("a", "early"));
  wire::StatsReply before = a.ctrl.Stats();
  EXPECT_EQ(before.total().in_flight(), 5u);
  RawSession sim(daemon.port(), "late", wire::ROLE_SIM);
  ASSERT_TRUE(sim.ok);
  int got = 0;
  while (got < 5) {
    auto batch = sim.recv.ReadFrame();
    ASSERT_TRUE(batch.has_value() && batch->has_transits());
    got += batch->transits().transits_size();
  }
  EXPECT_EQ(got, 5);
}

TEST(RelayProtocol, SendWithoutDestinationIsRejectedAndConsumesItsId) {
  DaemonProcess daemon;
  RawSession sim(daemon.port(), "ghost", wire::ROLE_SIM);
  RawSession a(daemon.port(), "a", wire::ROLE_APP);
  ASSERT_TRUE(sim.ok && a.ok);
  a.send.WriteFrame(SendFrame("", "nowhere"));
  auto err = a.send.ReadFrame();
  ASSERT_TRUE(err.has_value() && err->has_error());
  EXPECT_EQ(err->error().code(), wire::BAD_REQUEST);
  const std::uint64_t first = (a.welcome.id_prefix() << 32) | a.welcome.next_send_seq();
  EXPECT_EQ(err->error().ref_id(), first);
  a.send.WriteFrame(SendFrame("a", "somewhere"));
  auto batch = sim.recv.ReadFrame();
  ASSERT_TRUE(batch.has_value() && batch->has_transits());
  EXPECT_EQ(batch->transits().transits(0).id(), first + 1);
  wire::StatsReply stats = a.ctrl.Stats();
  EXPECT_EQ(stats.total().rejected(), 1u);
  EXPECT_EQ(stats.total().accepted(), 1u);
}

TEST(RelayProtocol, PayloadTooLargeToDeliverIsRejectedButOneThatFitsArrives) {
  DaemonProcess daemon({"--max-frame-bytes", "4096"});
  RawSession sim(daemon.port(), "ghost", wire::ROLE_SIM);
  RawSession a(daemon.port(), "a", wire::ROLE_APP);
  ASSERT_TRUE(sim.ok && a.ok);
  a.send.WriteFrame(SendFrame("a", std::string(3500, 'x')));
  auto err = a.send.ReadFrame();
  ASSERT_TRUE(err.has_value() && err->has_error());
  EXPECT_NE(err->error().text().find("too large to deliver"), std::string::npos)
      << err->error().text();
  a.send.WriteFrame(SendFrame("a", std::string(3000, 'y')));
  auto transits = sim.recv.ReadFrame();
  ASSERT_TRUE(transits.has_value() && transits->has_transits());
  sim.send.WriteFrame(OutcomesFrame(transits->transits(), wire::DELIVERED, 1));
  auto d = a.recv.ReadFrame();
  ASSERT_TRUE(d.has_value() && d->has_deliveries());
  EXPECT_EQ(d->deliveries().deliveries(0).payload(), std::string(3000, 'y'));
}

}  // namespace
}  // namespace trestle::testing
