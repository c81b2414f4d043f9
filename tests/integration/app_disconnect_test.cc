// An app that disconnects: its deliveries wait for it to resume, or expire
// after delivery_ttl_ms and are counted as expired. Also the Unix socket.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "app_fleet.h"
#include "counters_check.h"
#include "daemon_process.h"
#include "sdk_test_options.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"

namespace trestle::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;



TEST(AppDisconnect, DeliveriesWaitForTheAppToResumeItsSession) {
  DaemonProcess daemon;
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon.address()});
  EventLoop loop;
  AppClient a(loop, TestClientOptions(daemon.address(), "a"));
  AppClient b(loop, TestClientOptions(daemon.address(), "b"));
  ASSERT_TRUE(a.Connect().ok());
  ASSERT_TRUE(b.Connect().ok());
  const std::string token = b.session_token();
  b.Disconnect();

  for (int i = 0; i < 10; ++i) ASSERT_TRUE(a.Send("b", absl::StrCat("while away ", i)).ok());
  wire::StatsReply waiting = StatsWhen(a, [](const wire::StatsReply& s) {
    return s.total().in_flight() == 10 && s.total().accepted() == 10;
  });
  bool found = false;
  for (const auto& c : waiting.clients()) {
    if (c.client_id() == "b") {
      found = true;
      EXPECT_FALSE(c.connected());
    }
  }
  EXPECT_TRUE(found);

  b.set_resume_token(token);
  ASSERT_TRUE(b.Connect().ok());
  EXPECT_TRUE(b.resumed());
  for (int i = 0; i < 10; ++i) {
    auto m = b.Receive(seconds(5));
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_EQ(m->payload, absl::StrCat("while away ", i));
  }
  wire::StatsReply done = StatsWhen(a, [](const wire::StatsReply& s) {
    return s.total().delivered() == 10;
  });
  EXPECT_EQ(done.total().delivered(), 10u);
  EXPECT_EQ(done.total().expired(), 0u);
  ExpectBalanced(done);
}

TEST(AppDisconnect, UnclaimedDeliveriesExpireAndAreCountedAsExpired) {
  DaemonProcess daemon({"--delivery-ttl-ms", "200", "--session-linger-ms", "100"});
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon.address()});
  EventLoop loop;
  AppClient a(loop, TestClientOptions(daemon.address(), "a"));
  AppClient b(loop, TestClientOptions(daemon.address(), "b"));
  ASSERT_TRUE(a.Connect().ok());
  ASSERT_TRUE(b.Connect().ok());
  b.Disconnect();
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(a.Send("b", "lost cause").ok());
  // A destination that never connected at all is waited for the same way.
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(a.Send("nobody", "unclaimed").ok());

  wire::StatsReply s = StatsWhen(a, [](const wire::StatsReply& st) {
    return st.total().expired() == 15;
  });
  EXPECT_EQ(s.total().accepted(), 15u);
  EXPECT_EQ(s.total().expired(), 15u);
  EXPECT_EQ(s.total().delivered(), 0u);
  EXPECT_EQ(s.total().in_flight(), 0u);
  for (const auto& c : s.clients()) {
    if (c.client_id() == "a") {
      EXPECT_EQ(c.counters().expired(), 15u);
    }
  }
  ExpectBalanced(s);

  // A fresh session of b finds nothing: expired means gone.
  AppClient b2(loop, TestClientOptions(daemon.address(), "b"));
  ASSERT_TRUE(b2.Connect().ok());
  auto m = b2.Receive(milliseconds(300));
  EXPECT_EQ(m.status().code(), absl::StatusCode::kDeadlineExceeded);
}

// An app restarted without its session token, while its old session still
// lingers with nothing waiting: the new session replaces the old one, and
// the app is reachable by its id as before (the old session's registry
// entry, freed with it, is not the one the new session takes).
TEST(AppDisconnect, AFreshSessionReplacingALingeringOneIsReachable) {
  DaemonProcess daemon;  // sessions linger (session_linger_ms 30 s)
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon.address()});
  EventLoop loop;
  AppClient a(loop, TestClientOptions(daemon.address(), "a"));
  AppClient old_b(loop, TestClientOptions(daemon.address(), "b"));
  ASSERT_TRUE(a.Connect().ok());
  ASSERT_TRUE(old_b.Connect().ok());
  old_b.Disconnect();  // lingers, nothing for it

  AppClient b(loop, TestClientOptions(daemon.address(), "b"));
  ASSERT_TRUE(b.Connect().ok());
  EXPECT_FALSE(b.resumed());
  // Another client now: it must get an entry of its own.
  AppClient c(loop, TestClientOptions(daemon.address(), "c"));
  ASSERT_TRUE(c.Connect().ok());
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(a.Send("b", absl::StrCat("to b ", i)).ok());
  ASSERT_TRUE(a.Send("c", "to c").ok());
  for (int i = 0; i < 3; ++i) {
    auto m = b.Receive(seconds(5));
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_EQ(m->payload, absl::StrCat("to b ", i));
  }
  auto m = c.Receive(seconds(5));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->payload, "to c");
  wire::StatsReply done =
      StatsWhen(a, [](const wire::StatsReply& s) { return s.total().delivered() == 4; });
  int named_b = 0;
  for (const auto& client : done.clients()) {
    if (client.client_id() != "b") continue;
    named_b++;
    EXPECT_TRUE(client.connected());
  }
  EXPECT_EQ(named_b, 1) << done.ShortDebugString();
  ExpectBalanced(done);
}

TEST(AppDisconnect, ANewSessionOfTheSameIdReceivesWhatStillWaits) {
  DaemonProcess daemon({"--session-linger-ms", "0"});
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon.address()});
  EventLoop loop;
  AppClient a(loop, TestClientOptions(daemon.address(), "a"));
  ASSERT_TRUE(a.Connect().ok());
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(a.Send("late", "early bird").ok());
  StatsWhen(a, [](const wire::StatsReply& st) { return st.total().accepted() == 3; });
  AppClient late(loop, TestClientOptions(daemon.address(), "late"));
  ASSERT_TRUE(late.Connect().ok());
  for (int i = 0; i < 3; ++i) {
    auto m = late.Receive(seconds(5));
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_EQ(m->payload, "early bird");
  }
}

TEST(UnixSocket, AppsAndSimulatorTalkOverTheUnixSocket) {
  const std::string path = absl::StrCat("/tmp/trestle-test-", getpid(), ".sock");
  DaemonProcess daemon({"--unix-socket", path});
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", "unix:" + path, "--pull"});
  EventLoop loop;
  AppClient a(loop, TestClientOptions("unix:" + path, "a"));
  ASSERT_TRUE(a.Connect().ok());
  auto id = a.Send("a", "over a unix socket");
  ASSERT_TRUE(id.ok());
  auto m = a.Receive(seconds(5));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->id, *id);
  EXPECT_EQ(m->payload, "over a unix socket");
  daemon.Stop();
  EXPECT_NE(access(path.c_str(), F_OK), 0) << "the daemon removes its socket file";
}

}  // namespace
}  // namespace trestle::testing
