// AppClient against a FakeDaemon: ids, Send frames, deliveries, the virtual
// clock, PULL long-polls and rejected sends.
#include "trestle/app_client.h"

#include <gtest/gtest.h>

#include <chrono>

#include "fake_daemon.h"
#include "trestle/platform/uv_handle.h"
#include "trestle/status.h"

namespace trestle {
namespace {

using std::chrono::milliseconds;
using testing::FakeDaemon;

ClientOptions Options(const FakeDaemon& daemon, DeliveryMode mode = DeliveryMode::kPush) {
  return testing::OptionsFor(daemon, "node-a", mode);
}

wire::Frame Deliveries(std::initializer_list<std::pair<std::uint64_t, std::uint64_t>> id_and_t) {
  wire::Frame f;
  wire::DeliverBatch* batch = f.mutable_deliveries();
  for (auto [id, t_deliver] : id_and_t) {
    wire::Delivery* d = batch->add_deliveries();
    d->set_id(id);
    d->set_src("node-b");
    d->set_dst("node-a");
    d->set_payload("payload-" + std::to_string(id));
    d->set_t_send(1);
    d->set_t_deliver(t_deliver);
    d->set_status(wire::DELIVERED);
    d->mutable_stamps()->set_app_sent(11);
    d->mutable_stamps()->set_daemon_delivered(22);
  }
  return f;
}

class AppClientTest : public ::testing::Test {
 protected:
  EventLoop loop_;
  FakeDaemon daemon_{loop_};
};

TEST_F(AppClientTest, SendReturnsIdsFromWelcomeWithoutARoundTrip) {
  daemon_.welcome.set_id_prefix(3);
  daemon_.welcome.set_next_send_seq(10);
  AppClient app(loop_, Options(daemon_));
  ASSERT_TRUE(app.Connect().ok());
  EXPECT_EQ(*app.Send("node-b", "x"), (std::uint64_t{3} << 32) | 10);
  EXPECT_EQ(*app.Send("node-b", "y"), (std::uint64_t{3} << 32) | 11);
}

TEST_F(AppClientTest, SendWritesTheFrameAtOnceWithDefaultsFromTheClock) {
  AppClient app(loop_, Options(daemon_));
  ASSERT_TRUE(app.Connect().ok());
  app.Advance(500);
  ASSERT_TRUE(app.Send("node-b", std::string("a\0b", 3)).ok());
  SendOptions options;
  options.t_send = 9;
  options.tclass = 2;
  options.notify_drop = true;
  ASSERT_TRUE(app.Send("node-c", "", options).ok());
  ASSERT_TRUE(loop_.RunUntil([&] { return daemon_.send_frames.size() == 2; }, milliseconds(1000)));
  const wire::Send& first = daemon_.send_frames[0].send();
  EXPECT_EQ(first.dst(), "node-b");
  EXPECT_EQ(first.payload(), std::string("a\0b", 3));
  EXPECT_EQ(first.t_send(), 500u);
  EXPECT_EQ(first.tclass(), 0u);
  EXPECT_FALSE(first.notify_drop());
  EXPECT_NE(first.app_sent(), 0u);
  const wire::Send& second = daemon_.send_frames[1].send();
  EXPECT_EQ(second.dst(), "node-c");
  EXPECT_EQ(second.t_send(), 9u);
  EXPECT_EQ(second.tclass(), 2u);
  EXPECT_TRUE(second.notify_drop());
}

TEST_F(AppClientTest, OversizedPayloadIsRefusedWithoutConsumingAnId) {
  daemon_.welcome.mutable_config()->set_max_frame_bytes(1024);
  AppClient app(loop_, Options(daemon_));
  ASSERT_TRUE(app.Connect().ok());
  const std::uint64_t first = *app.Send("node-b", "x");
  absl::StatusOr<std::uint64_t> big = app.Send("node-b", std::string(2000, 'z'));
  EXPECT_EQ(big.status().code(), absl::StatusCode::kInvalidArgument) << big.status();
  EXPECT_EQ(*app.Send("node-b", "y"), first + 1);
}

TEST_F(AppClientTest, ADestinationOutsideOneTo255BytesIsRefusedWithoutAnId) {
  AppClient app(loop_, Options(daemon_));
  ASSERT_TRUE(app.Connect().ok());
  for (const std::string& dst : {std::string(), std::string(256, 'd')}) {
    absl::StatusOr<std::uint64_t> id = app.Send(dst, "x");
    ASSERT_FALSE(id.ok());
    EXPECT_EQ(id.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(id.status().message().find("1 to 255 bytes"), std::string::npos) << id.status();
  }
  // No id was used: the next send gets the first one.
  absl::StatusOr<std::uint64_t> id = app.Send(std::string(255, 'd'), "x");
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_EQ(*id & 0xffffffffu, 1u);
}

TEST_F(AppClientTest, RejectedSendReachesOnErrorWithItsId) {
  AppClient app(loop_, Options(daemon_));
  std::vector<absl::Status> errors;
  app.OnError([&](const absl::Status& s) { errors.push_back(s); });
  ASSERT_TRUE(app.Connect().ok());
  const std::uint64_t id = *app.Send("nobody", "x");
  wire::Frame f;
  f.mutable_error()->set_code(wire::BAD_REQUEST);
  f.mutable_error()->set_text("no such destination");
  f.mutable_error()->set_ref_id(id);
  daemon_.WriteOn(wire::CHANNEL_SEND, f);
  ASSERT_TRUE(loop_.RunUntil([&] { return !errors.empty(); }, milliseconds(1000)));
  EXPECT_EQ(errors[0].code(), absl::StatusCode::kInvalidArgument);
  std::string needle = "#";  // not "#" + to_string: GCC 12 warns falsely (-Wrestrict)
  needle += std::to_string(id);
  EXPECT_NE(errors[0].message().find(needle), std::string::npos) << errors[0];
  EXPECT_NE(errors[0].message().find("no such destination"), std::string::npos) << errors[0];
  EXPECT_EQ(MessageIdOf(errors[0]), std::optional<std::uint64_t>(id));
  EXPECT_TRUE(app.connected());
}

TEST_F(AppClientTest, PushedDeliveriesQueueInOrderAndMoveTheClock) {
  AppClient app(loop_, Options(daemon_));
  ASSERT_TRUE(app.Connect().ok());
  app.Advance(150);
  daemon_.WriteOn(wire::CHANNEL_RECV, Deliveries({{5, 100}, {6, 200}}));
  absl::StatusOr<Message> m = app.Receive(milliseconds(1000));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->id, 5u);
  EXPECT_EQ(m->src, "node-b");
  EXPECT_EQ(m->payload, "payload-5");
  EXPECT_FALSE(m->dropped);
  EXPECT_EQ(m->stamps.app_sent, 11u);
  EXPECT_EQ(m->stamps.daemon_delivered, 22u);
  EXPECT_NE(m->stamps.app_received, 0u);
  EXPECT_EQ(app.Now(), 150u);  // t_deliver 100 is in the past: max(now, t)
  std::optional<Message> second = app.TryReceive();
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->id, 6u);
  EXPECT_EQ(app.Now(), 200u);
  EXPECT_FALSE(app.TryReceive().has_value());
  EXPECT_EQ(app.Receive(milliseconds(30)).status().code(), absl::StatusCode::kDeadlineExceeded);
}

TEST_F(AppClientTest, AReceiveOfOneMillisecondStillReadsWhatTheDaemonSent) {
  AppClient app(loop_, Options(daemon_));
  ASSERT_TRUE(app.Connect().ok());
  daemon_.WriteOn(wire::CHANNEL_RECV, Deliveries({{5, 100}}));
  absl::StatusOr<Message> m = app.Receive(milliseconds(1));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->id, 5u);
}

// A receive of 0 ms takes what the daemon has already written: libtrestle-mpi
// polls with it while a real MPI call waits, and a lockstep app that never
// takes what it was handed holds virtual time back (its blocked reports do
// not count), which deadlocked MPI programs in which one rank reads the clock.
void ExpectAReceiveOfZeroTakesWhatWasWritten(EventLoop& loop, FakeDaemon& daemon,
                                             bool lockstep) {
  ClientOptions options = Options(daemon);
  options.lockstep = lockstep;
  AppClient app(loop, options);
  ASSERT_TRUE(app.Connect().ok());
  daemon.WriteOn(wire::CHANNEL_RECV, Deliveries({{7, 300}}));
  // Only receives of 0 ms run the loop here: each handles the I/O ready.
  absl::StatusOr<Message> m = absl::DeadlineExceededError("not called");
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!m.ok() && std::chrono::steady_clock::now() < give_up) {
    m = app.Receive(milliseconds(0));
    ASSERT_TRUE(m.ok() || m.status().code() == absl::StatusCode::kDeadlineExceeded) << m.status();
  }
  ASSERT_TRUE(m.ok()) << "5 s of receives of 0 ms never took the delivery written: "
                      << m.status();
  EXPECT_EQ(m->id, 7u);
  EXPECT_EQ(app.Now(), 300u);
}

TEST_F(AppClientTest, AReceiveOfZeroMillisecondsTakesWhatTheDaemonHasWritten) {
  ExpectAReceiveOfZeroTakesWhatWasWritten(loop_, daemon_, /*lockstep=*/false);
}

TEST_F(AppClientTest, ALockstepReceiveOfZeroMillisecondsTakesWhatTheDaemonHasWritten) {
  ExpectAReceiveOfZeroTakesWhatWasWritten(loop_, daemon_, /*lockstep=*/true);
}

// Lockstep: a receive that runs out of wall time leaves the app blocked;
// the same receive again goes on with that wait, so the daemon's late
// answer to it still ends it, and no second Clock report is made.
TEST_F(AppClientTest, ALockstepReceiveCalledAgainTakesTheLateAnswerToTheSameWait) {
  ClientOptions options = Options(daemon_);
  options.lockstep = true;
  AppClient app(loop_, options);
  ASSERT_TRUE(app.Connect().ok());
  absl::StatusOr<std::optional<Message>> first = app.ReceiveUntil(500, milliseconds(1));
  EXPECT_EQ(first.status().code(), absl::StatusCode::kDeadlineExceeded) << first.status();
  ASSERT_TRUE(loop_.RunUntil([&] { return !daemon_.send_frames.empty(); }, milliseconds(1000)));
  ASSERT_TRUE(daemon_.send_frames.back().has_clock());
  const wire::Clock reported = daemon_.send_frames.back().clock();
  EXPECT_TRUE(reported.blocked());
  EXPECT_EQ(reported.wake_ns(), 500u);
  wire::Frame wake;
  wake.mutable_wake()->set_wake_ns(500);
  wake.mutable_wake()->set_block(reported.block());
  daemon_.WriteOn(wire::CHANNEL_RECV, wake);
  absl::StatusOr<std::optional<Message>> again = app.ReceiveUntil(500, milliseconds(1000));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_FALSE(again->has_value());
  EXPECT_EQ(app.Now(), 500u);
  std::size_t clocks = 0;
  for (const wire::Frame& f : daemon_.send_frames) clocks += f.has_clock() ? 1 : 0;
  EXPECT_EQ(clocks, 1u) << "the second receive reported the app blocked again";
  // Another wait (a later wake) is a new one.
  EXPECT_EQ(app.ReceiveUntil(700, milliseconds(1)).status().code(),
            absl::StatusCode::kDeadlineExceeded);
  ASSERT_TRUE(loop_.RunUntil([&] { return daemon_.send_frames.back().clock().wake_ns() == 700; },
                             milliseconds(1000)));
}

TEST_F(AppClientTest, DropReportIsAMessageFlaggedDropped) {
  AppClient app(loop_, Options(daemon_));
  ASSERT_TRUE(app.Connect().ok());
  wire::Frame f = Deliveries({{9, 70}});
  f.mutable_deliveries()->mutable_deliveries(0)->set_status(wire::DROPPED);
  f.mutable_deliveries()->mutable_deliveries(0)->clear_payload();
  daemon_.WriteOn(wire::CHANNEL_RECV, f);
  absl::StatusOr<Message> m = app.Receive(milliseconds(1000));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(m->dropped);
  EXPECT_TRUE(m->payload.empty());
}

TEST_F(AppClientTest, DeliveriesPushedBeforeTheHandshakeEndsAreNotLost) {
  // A resumed PUSH session: the daemon writes pending deliveries right after
  // Attached on recv, while Attached on send is still on its way.
  daemon_.hold_send_attached = true;
  daemon_.on_recv_attached.push_back(Deliveries({{1, 10}, {2, 20}}));
  AppClient app(loop_, Options(daemon_));
  bool connected = false;
  ASSERT_TRUE(app.ConnectAsync([&](absl::Status s) { connected = s.ok(); }).ok());
  loop_.RunFor(milliseconds(50));
  EXPECT_FALSE(connected);
  daemon_.ReleaseSendAttached();
  ASSERT_TRUE(loop_.RunUntil([&] { return connected; }, milliseconds(1000)));
  EXPECT_EQ(app.inbox_size(), 2u);
  EXPECT_EQ(app.Receive(milliseconds(100))->id, 1u);
  EXPECT_EQ(app.Receive(milliseconds(100))->id, 2u);
}

TEST_F(AppClientTest, CallbackModeGetsInboxFirstThenEveryDelivery) {
  AppClient app(loop_, Options(daemon_));
  ASSERT_TRUE(app.Connect().ok());
  daemon_.WriteOn(wire::CHANNEL_RECV, Deliveries({{1, 10}}));
  ASSERT_TRUE(loop_.RunUntil([&] { return app.inbox_size() == 1; }, milliseconds(1000)));
  std::vector<std::uint64_t> seen;
  app.OnMessage([&](Message&& m) { seen.push_back(m.id); });
  EXPECT_EQ(seen, std::vector<std::uint64_t>{1});
  daemon_.WriteOn(wire::CHANNEL_RECV, Deliveries({{2, 20}, {3, 30}}));
  ASSERT_TRUE(loop_.RunUntil([&] { return seen.size() == 3; }, milliseconds(1000)));
  EXPECT_EQ(seen, (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(app.Now(), 30u);
  EXPECT_EQ(app.Receive(milliseconds(1)).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST_F(AppClientTest, PullReceiveAsksWithTheTimeLeftAndAsksAgainAfterAnEmptyAnswer) {
  AppClient app(loop_, Options(daemon_, DeliveryMode::kPull));
  ASSERT_TRUE(app.Connect().ok());
  EXPECT_TRUE(daemon_.recv_frames.empty());  // nothing asked before Receive
  bool answered_empty = false;
  bool answered_full = false;
  // Answer the first Receive with an empty batch and the second with one.
  platform::UvHandle<uv_timer_t> timer;
  timer.Init(uv_timer_init, loop_.uv_loop());
  struct Ctx {
    FakeDaemon* daemon;
    bool* empty;
    bool* full;
  } ctx{&daemon_, &answered_empty, &answered_full};
  timer->data = &ctx;
  uv_timer_start(
      timer.get(),
      [](uv_timer_t* t) {
        auto* c = static_cast<Ctx*>(t->data);
        if (c->daemon->recv_frames.size() == 1 && !*c->empty) {
          wire::Frame empty;
          empty.mutable_deliveries();
          c->daemon->WriteOn(wire::CHANNEL_RECV, empty);
          *c->empty = true;
        } else if (c->daemon->recv_frames.size() == 2 && !*c->full) {
          c->daemon->WriteOn(wire::CHANNEL_RECV, Deliveries({{4, 40}}));
          *c->full = true;
        }
      },
      5, 5);
  absl::StatusOr<Message> m = app.Receive(milliseconds(2000));
  timer.Close();
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->id, 4u);
  ASSERT_EQ(daemon_.recv_frames.size(), 2u);
  EXPECT_TRUE(daemon_.recv_frames[0].has_receive());
  EXPECT_EQ(daemon_.recv_frames[0].receive().max_count(), 4u);  // the daemon's max_batch
  EXPECT_GT(daemon_.recv_frames[0].receive().timeout_ms(), 1000u);
  EXPECT_LE(daemon_.recv_frames[1].receive().timeout_ms(),
            daemon_.recv_frames[0].receive().timeout_ms());
  loop_.RunFor(milliseconds(1));
}

TEST_F(AppClientTest, PullCallbackModeKeepsTwoLongPollsOutstanding) {
  AppClient app(loop_, Options(daemon_, DeliveryMode::kPull));
  ASSERT_TRUE(app.Connect().ok());
  std::vector<std::uint64_t> seen;
  app.OnMessage([&](Message&& m) { seen.push_back(m.id); });
  ASSERT_TRUE(loop_.RunUntil([&] { return daemon_.recv_frames.size() == 2; }, milliseconds(1000)));
  loop_.RunFor(milliseconds(20));
  EXPECT_EQ(daemon_.recv_frames.size(), 2u);  // the most the daemon lets wait
  // Each answer is replaced by one new request, never more.
  daemon_.WriteOn(wire::CHANNEL_RECV, Deliveries({{1, 1}}));
  ASSERT_TRUE(loop_.RunUntil([&] { return daemon_.recv_frames.size() == 3; }, milliseconds(1000)));
  loop_.RunFor(milliseconds(20));
  EXPECT_EQ(daemon_.recv_frames.size(), 3u);
  EXPECT_TRUE(daemon_.recv_frames[2].has_receive());
  EXPECT_EQ(seen, std::vector<std::uint64_t>{1});
}

TEST_F(AppClientTest, SendInsideACallbackLeavesWithTheLoopPass) {
  AppClient app(loop_, Options(daemon_));
  ASSERT_TRUE(app.Connect().ok());
  app.OnMessage([&](Message&& m) {
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(app.Send(m.src, m.payload).ok());
  });
  daemon_.WriteOn(wire::CHANNEL_RECV, Deliveries({{1, 1}}));
  ASSERT_TRUE(loop_.RunUntil([&] { return daemon_.send_frames.size() == 3; }, milliseconds(1000)));
  EXPECT_EQ(daemon_.send_frames[2].send().payload(), "payload-1");
}

TEST_F(AppClientTest, SendBlocksOnlyWhileTheBacklogIsAboveTheHighWatermark) {
  daemon_.welcome.mutable_config()->set_max_frame_bytes(4u << 20);
  AppClient app(loop_, Options(daemon_));
  ASSERT_TRUE(app.Connect().ok());
  daemon_.PauseReading(wire::CHANNEL_SEND);
  const std::string big(2u << 20, 'x');
  SendOptions quick;
  quick.timeout = milliseconds(100);
  const std::uint64_t first = *app.Send("node-b", big, quick);
  int accepted = 1;
  absl::Status blocked;
  for (int i = 0; i < 64 && blocked.ok(); ++i) {
    absl::StatusOr<std::uint64_t> id = app.Send("node-b", big, quick);
    if (id.ok()) {
      EXPECT_EQ(*id, first + static_cast<std::uint64_t>(accepted));
      ++accepted;
    } else {
      blocked = id.status();
    }
  }
  // Kernel buffers take some; the SDK queues up to its 8 MiB watermark.
  EXPECT_EQ(blocked.code(), absl::StatusCode::kDeadlineExceeded) << blocked;
  EXPECT_GE(accepted, 4);

  // Inside a callback Send cannot wait: it says so instead.
  absl::Status inside;
  app.OnMessage([&](Message&&) { inside = app.Send("node-b", big).status(); });
  daemon_.WriteOn(wire::CHANNEL_RECV, Deliveries({{1, 1}}));
  ASSERT_TRUE(loop_.RunUntil([&] { return !inside.ok(); }, milliseconds(1000)));
  EXPECT_EQ(inside.code(), absl::StatusCode::kResourceExhausted) << inside;

  // Once the daemon reads again, Send waits for the backlog to drain and
  // goes on; the refused sends consumed no id.
  daemon_.ResumeReading(wire::CHANNEL_SEND);
  SendOptions patient;
  patient.timeout = milliseconds(5000);
  absl::StatusOr<std::uint64_t> next = app.Send("node-b", big, patient);
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(*next, first + static_cast<std::uint64_t>(accepted));
  ASSERT_TRUE(loop_.RunUntil(
      [&] { return daemon_.send_frames.size() == static_cast<std::size_t>(accepted) + 1; },
      milliseconds(5000)));
}

TEST_F(AppClientTest, AFullInboxStopsReadingUntilHalfIsTaken) {
  ClientOptions o = Options(daemon_);
  o.max_buffered_messages = 4;
  AppClient app(loop_, o);
  ASSERT_TRUE(app.Connect().ok());
  daemon_.WriteOn(wire::CHANNEL_RECV, Deliveries({{1, 1}, {2, 2}, {3, 3}, {4, 4}}));
  daemon_.WriteOn(wire::CHANNEL_RECV, Deliveries({{5, 5}, {6, 6}}));
  daemon_.WriteOn(wire::CHANNEL_RECV, Deliveries({{7, 7}, {8, 8}}));
  loop_.RunFor(milliseconds(50));
  EXPECT_EQ(app.inbox_size(), 4u);  // the later batches wait in the socket
  std::vector<std::uint64_t> ids;
  ids.push_back(app.Receive(milliseconds(100))->id);
  EXPECT_EQ(app.inbox_size(), 3u);  // above half: still paused
  ids.push_back(app.Receive(milliseconds(100))->id);
  // Half taken: reading resumed and the next batch arrived at once.
  EXPECT_EQ(app.inbox_size(), 4u);
  while (ids.size() < 8) {
    absl::StatusOr<Message> m = app.Receive(milliseconds(1000));
    ASSERT_TRUE(m.ok()) << m.status();
    ids.push_back(m->id);
  }
  EXPECT_EQ(ids, (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST_F(AppClientTest, DataChannelsAcceptFramesUpToTheDaemonsAnnouncedLimit) {
  // Larger than wire::kDefaultMaxFrameBytes, which only bounds ctrl.
  daemon_.welcome.mutable_config()->set_max_frame_bytes(32u << 20);
  AppClient app(loop_, Options(daemon_));
  ASSERT_TRUE(app.Connect().ok());
  wire::Frame f = Deliveries({{1, 1}});
  f.mutable_deliveries()->mutable_deliveries(0)->set_payload(std::string(17u << 20, 'p'));
  daemon_.WriteOn(wire::CHANNEL_RECV, f);
  absl::StatusOr<Message> m = app.Receive(milliseconds(5000));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->payload.size(), 17u << 20);
}

TEST_F(AppClientTest, AFrameAboveTheClientsOwnLimitBreaksTheConnection) {
  ClientOptions o = Options(daemon_);
  o.max_frame_bytes = 1024;
  AppClient app(loop_, o);
  ASSERT_TRUE(app.Connect().ok());
  wire::Frame f = Deliveries({{1, 1}});
  f.mutable_deliveries()->mutable_deliveries(0)->set_payload(std::string(2000, 'p'));
  daemon_.WriteOn(wire::CHANNEL_RECV, f);
  absl::StatusOr<Message> m = app.Receive(milliseconds(2000));
  EXPECT_EQ(m.status().code(), absl::StatusCode::kUnavailable) << m.status();
  EXPECT_NE(m.status().message().find("exceeds the maximum of 1024"), std::string::npos)
      << m.status();
}

}  // namespace
}  // namespace trestle
