// Issue 9, defect 6: "delivered" meant written to a socket buffer. An app
// that never read its socket had its messages counted delivered, and lost
// them when it closed. Apps now acknowledge deliveries (Hello.delivery_acks,
// set by the SDK): a message counts as delivered only at its Ack, what was
// not acknowledged is written again to the app's next session with the same
// delivery_seq, and the SDK drops what it has seen, so the app sees each
// message exactly once across a reconnect.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "app_fleet.h"
#include "counters_check.h"
#include "daemon_process.h"
#include "raw_connection.h"
#include "sdk_test_options.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"

namespace trestle::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

wire::Frame AckingHello(const std::string& id, const std::string& resume_token = "") {
  wire::Frame f;
  wire::Hello* h = f.mutable_hello();
  h->set_protocol_version(wire::kProtocolVersion);
  h->set_role(wire::ROLE_APP);
  h->set_client_id(id);
  h->set_delivery_acks(true);
  h->set_resume_token(resume_token);
  return f;
}

// An app that acknowledges, on raw connections: Hello, then send and recv.
struct AckingApp {
  AckingApp(std::uint16_t port, const std::string& id, const std::string& resume_token = "")
      : ctrl(port), send(port), recv(port) {
    ctrl.WriteFrame(AckingHello(id, resume_token));
    auto w = ctrl.ReadFrame();
    if (!w.has_value() || !w->has_welcome()) return;
    welcome = w->welcome();
    ok = send.Attach(welcome.session_token(), wire::CHANNEL_SEND).has_attached() &&
         recv.Attach(welcome.session_token(), wire::CHANNEL_RECV).has_attached();
  }
  RawConnection ctrl;
  RawConnection send;
  RawConnection recv;
  wire::Welcome welcome;
  bool ok = false;
};

TEST(DeliveryAck, NothingCountsAsDeliveredUntilTheAppAcknowledgesIt) {
  DaemonProcess daemon;
  RawSession sender(daemon.port(), "a", wire::ROLE_APP);
  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  ASSERT_TRUE(sender.ok && sim.ok);
  std::string token;
  {
    AckingApp b(daemon.port(), "b");  // never reads, never acknowledges
    ASSERT_TRUE(b.ok);
    token = b.welcome.session_token();
    for (int i = 0; i < 100; ++i) {
      wire::Frame f;
      f.mutable_send()->set_dst("b");
      f.mutable_send()->set_payload(absl::StrCat("m", i));
      sender.send.WriteFrame(f);
    }
    ASSERT_EQ(AnswerTransits(sim, 100), 100);
    std::this_thread::sleep_for(milliseconds(300));  // all written to b's socket
    const wire::Counters t = sender.ctrl.Stats().total();
    EXPECT_EQ(t.delivered(), 0u) << "counted delivered before b had them";
    EXPECT_EQ(t.in_flight(), 100u);
  }  // b closes without reading: its session lingers

  // The resumed session gets all 100 again, numbered as before.
  AckingApp b(daemon.port(), "b", token);
  ASSERT_TRUE(b.ok);
  EXPECT_TRUE(b.welcome.resumed());
  std::map<std::uint64_t, std::string> got;  // delivery_seq -> payload
  while (got.size() < 100) {
    auto batch = b.recv.ReadFrame(3000);
    ASSERT_TRUE(batch.has_value() && batch->has_deliveries()) << got.size() << " so far";
    for (const auto& d : batch->deliveries().deliveries()) {
      EXPECT_TRUE(got.emplace(d.delivery_seq(), d.payload()).second) << d.delivery_seq();
    }
  }
  EXPECT_EQ(got.begin()->first, 1u);
  EXPECT_EQ(got.rbegin()->first, 100u);
  EXPECT_EQ(sender.ctrl.Stats().total().delivered(), 0u);

  wire::Frame ack;
  ack.mutable_ack()->set_delivery_seq(60);
  b.recv.WriteFrame(ack);
  std::this_thread::sleep_for(milliseconds(200));
  EXPECT_EQ(sender.ctrl.Stats().total().delivered(), 60u);
  ack.mutable_ack()->set_delivery_seq(100);
  b.recv.WriteFrame(ack);
  std::this_thread::sleep_for(milliseconds(200));
  const wire::StatsReply done = sender.ctrl.Stats();
  EXPECT_EQ(done.total().delivered(), 100u);
  EXPECT_EQ(done.total().in_flight(), 0u);
  ExpectBalanced(done);

  ack.mutable_ack()->set_delivery_seq(101);  // never written
  b.recv.WriteFrame(ack);
  auto error = b.recv.ReadFrame(2000);
  ASSERT_TRUE(error.has_value() && error->has_error());
  EXPECT_EQ(error->error().code(), wire::BAD_REQUEST);
  EXPECT_NE(error->error().text().find("only 100 deliveries were written"), std::string::npos)
      << error->error().text();
}

// Two SDK apps; app-1 loses its connections in the middle of a batch of 200
// from app-0, before its SDK could acknowledge it (the daemon will write it
// all again), then connects again: with its session token (`resume`), or
// without, a new session of the same client id, once the daemon has let the
// old one go. Each message must reach app-1 exactly once, and count as
// delivered.
void ReconnectMidBatch(bool resume) {
  DaemonProcess daemon;
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon.address()});
  EventLoop loop;
  auto apps = ConnectApps(loop, daemon.address(), 2);
  ASSERT_EQ(apps.size(), 2u);
  AppClient& b = *apps[1];
  std::map<std::uint64_t, int> seen;  // message id -> times handed to the app
  bool crashed = false;
  b.OnMessage([&](Message&& m) {
    ++seen[m.id];
    if (!crashed && seen.size() == 30) {
      crashed = true;
      b.Disconnect();
    }
  });
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(apps[0]->Send("app-1", absl::StrCat(i)).ok());
  ASSERT_TRUE(loop.RunUntil([&] { return crashed; }, seconds(10)));

  if (resume) b.set_resume_token(b.session_token());
  // A new session is refused (ALREADY_EXISTS) until the daemon has seen the
  // old one's connections go.
  absl::Status connected = absl::UnknownError("not tried");
  for (int i = 0; i < 50 && !connected.ok(); ++i) {
    connected = b.Connect();
    if (!connected.ok()) loop.RunFor(milliseconds(100));
  }
  ASSERT_TRUE(connected.ok()) << connected;
  EXPECT_EQ(b.resumed(), resume);
  ASSERT_TRUE(loop.RunUntil([&] { return seen.size() == 200; }, seconds(20))) << seen.size();
  loop.RunFor(milliseconds(300));  // anything more would be a duplicate
  for (const auto& [id, n] : seen) EXPECT_EQ(n, 1) << "message " << id << " seen " << n << " times";
  const wire::StatsReply stats = SettledStats(*apps[0]);
  EXPECT_EQ(stats.total().delivered(), 200u);
  EXPECT_EQ(stats.total().in_flight(), 0u);
  ExpectBalanced(stats);
}

TEST(DeliveryAck, AnSdkAppSeesEachMessageExactlyOnceAcrossAReconnect) { ReconnectMidBatch(true); }

// Without the resume token the daemon numbers the new session on
// (Welcome.delivery_numbering, the lost session's) since it still holds the
// app's entry, so delivery_seq still tells what the app already had; there
// is no duplicate window to help (this daemon is not federated).
TEST(DeliveryAck, AnSdkAppSeesEachMessageExactlyOnceAcrossANewSession) {
  ReconnectMidBatch(false);
}

// A daemon that is not federated starts afresh when restarted, numbering
// its sessions from 1 again, so the same apps reconnecting in the same
// order send messages with the ids of the first life's. Nothing is
// replayed, so nothing may be dropped as a duplicate: every message of the
// second life reaches its app.
TEST(DeliveryAck, AfterADaemonRestartMessagesWithIdsSeenBeforeAreNotDropped) {
  auto daemon = std::make_unique<DaemonProcess>();
  const std::uint16_t port = daemon->port();
  EventLoop loop;
  AppClient receiver(loop, TestClientOptions(daemon->address(), "receiver"));
  AppClient sender(loop, TestClientOptions(daemon->address(), "sender"));
  std::map<std::uint64_t, int> ids[2];  // message id -> times handed over, per life
  int current = 0;
  receiver.OnMessage([&](Message&& m) { ++ids[current][m.id]; });
  constexpr int kMessages = 20;
  for (int life = 0; life < 2; ++life) {
    SCOPED_TRACE(absl::StrCat("life ", life + 1));
    current = life;
    if (life == 1) {
      daemon->Stop();
      ASSERT_TRUE(loop.RunUntil([&] { return !receiver.connected() && !sender.connected(); },
                                seconds(5)));
      daemon = std::make_unique<DaemonProcess>(
          std::vector<std::string>{"--listen", absl::StrCat("127.0.0.1:", port)});
    }
    // In this order, so that each gets the session number it had.
    ASSERT_TRUE(receiver.Connect().ok());
    ASSERT_TRUE(sender.Connect().ok());
    ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon->address()});
    for (int i = 0; i < kMessages; ++i) ASSERT_TRUE(sender.Send("receiver", absl::StrCat(i)).ok());
    EXPECT_TRUE(loop.RunUntil([&] { return ids[life].size() == kMessages; }, seconds(10)))
        << ids[life].size() << " of " << kMessages << " arrived";
    loop.RunFor(milliseconds(200));
  }
  EXPECT_EQ(ids[1], ids[0]) << "each id once in each life, the second's the first's";
}

// An app that receives a message and closes (or is destroyed) at once, as
// an example does when it is done, acknowledges it first: it counts as
// delivered, not in flight until its session expires.
TEST(DeliveryAck, TheLastDeliveryBeforeCloseIsAcknowledged) {
  DaemonProcess daemon({"--session-linger-ms", "60000"});
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon.address()});
  for (bool destroy : {false, true}) {
    SCOPED_TRACE(destroy ? "destroyed" : "closed");
    const std::string a_id = destroy ? "a2" : "a1";
    const std::string b_id = destroy ? "b2" : "b1";
    AppClient a(TestClientOptions(daemon.address(), a_id));
    auto b = std::make_unique<AppClient>(TestClientOptions(daemon.address(), b_id));
    ASSERT_TRUE(a.Connect().ok());
    ASSERT_TRUE(b->Connect().ok());
    ASSERT_TRUE(a.Send(b_id, "the last word").ok());
    auto m = b->Receive(seconds(10));
    ASSERT_TRUE(m.ok()) << m.status();
    if (destroy) {
      b.reset();
    } else {
      ASSERT_TRUE(b->Close(seconds(2)).ok());
    }
    const std::uint64_t want = destroy ? 2 : 1;
    const wire::StatsReply stats = StatsWhen(
        a, [&](const wire::StatsReply& s) { return s.total().delivered() == want; },
        seconds(3));
    EXPECT_EQ(stats.total().delivered(), want);
    EXPECT_EQ(stats.total().in_flight(), 0u);
  }
}

}  // namespace
}  // namespace trestle::testing
