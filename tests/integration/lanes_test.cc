// Lanes (docs/protocol.md, "Lanes"): many clients of one EventLoop share one
// connection to trestled (ClientOptions::multiplex), a lane each. Checked
// against the real daemon: every message arrives once and the daemon sees
// one socket for all of them; a client that leaves ends its lane alone; a
// daemon that dies ends every lane; and the daemon's rules for lanes,
// spoken by hand (lockstep apps on lanes: lockstep_test).
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "admin_client.h"
#include "daemon_process.h"
#include "raw_connection.h"
#include "sdk_test_options.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"
#include "trestle/status.h"

namespace trestle::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

ClientOptions Multiplexed(const std::string& daemon, const std::string& id) {
  ClientOptions o = TestClientOptions(daemon, id);
  o.multiplex = true;
  return o;
}

// Connects `n` multiplexed apps named `prefix`0.. on `loop`.
std::vector<std::unique_ptr<AppClient>> ConnectLanes(EventLoop& loop, const std::string& daemon,
                                                     int n, const std::string& prefix) {
  std::vector<std::unique_ptr<AppClient>> apps;
  int ready = 0;
  for (int i = 0; i < n; ++i) {
    apps.push_back(std::make_unique<AppClient>(loop, Multiplexed(daemon, absl::StrCat(prefix, i))));
    EXPECT_TRUE(apps.back()->ConnectAsync([&](absl::Status s) {
      EXPECT_TRUE(s.ok()) << s;
      ready++;
    }).ok());
  }
  EXPECT_TRUE(loop.RunUntil([&] { return ready == n; }, seconds(20)));
  return apps;
}

admin::StatusReply StatusOf(const DaemonProcess& daemon) {
  absl::StatusOr<admin::StatusReply> status = AdminClient(daemon.admin_address(), "").Status();
  EXPECT_TRUE(status.ok()) << status.status();
  return status.ok() ? *status : admin::StatusReply();
}

TEST(Lanes, ManyClientsShareOneConnectionAndEachMessageArrivesOnce) {
  DaemonProcess daemon;
  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  ASSERT_TRUE(sim.ok);
  const std::uint64_t before = StatusOf(daemon).connections();
  constexpr int kApps = 100;
  constexpr int kEach = 10;
  EventLoop loop;
  auto apps = ConnectLanes(loop, daemon.address(), kApps, "lane-");
  ASSERT_EQ(apps.size(), static_cast<std::size_t>(kApps));
  const admin::StatusReply connected = StatusOf(daemon);
  EXPECT_EQ(connected.connections(), before + 1) << "one socket for " << kApps << " clients";
  EXPECT_EQ(connected.sessions(), kApps + 1u);

  std::map<std::string, int> seen;
  for (auto& app : apps) app->OnMessage([&](Message&& m) { seen[m.payload]++; });
  for (int i = 0; i < kApps; ++i) {
    for (int k = 0; k < kEach; ++k) {
      ASSERT_TRUE(apps[i]->Send(absl::StrCat("lane-", (i + 1) % kApps),
                                absl::StrCat("from ", i, " #", k)).ok());
    }
  }
  int answered = 0;
  while (answered < kApps * kEach) {
    loop.RunFor(milliseconds(5));
    answered += AnswerTransits(sim, kApps * kEach - answered, wire::DELIVERED, 50);
  }
  ASSERT_TRUE(loop.RunUntil([&] { return seen.size() == kApps * kEach; }, seconds(20)))
      << seen.size() << " of " << kApps * kEach;
  loop.RunFor(milliseconds(100));
  for (const auto& [payload, n] : seen) EXPECT_EQ(n, 1) << payload;
  const wire::Counters t = apps[0]->Stats(seconds(5))->total();
  EXPECT_EQ(t.accepted(), static_cast<std::uint64_t>(kApps * kEach));
}

TEST(Lanes, AClientThatLeavesEndsItsLaneAloneAndItsIdCanComeBack) {
  DaemonProcess daemon;
  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  ASSERT_TRUE(sim.ok);
  EventLoop loop;
  auto apps = ConnectLanes(loop, daemon.address(), 3, "l-");
  ASSERT_EQ(apps.size(), 3u);
  ASSERT_TRUE(apps[1]->Close(seconds(5)).ok());
  EXPECT_EQ(StatusOf(daemon).sessions(), 3u) << "l-1's session ended; the sim's and two lanes' stay";

  // The others go on; l-1 comes back as a new lane of the same connection.
  apps[1] = std::make_unique<AppClient>(loop, Multiplexed(daemon.address(), "l-1"));
  ASSERT_TRUE(apps[1]->Connect().ok());
  std::vector<std::string> got;
  apps[1]->OnMessage([&](Message&& m) { got.push_back(m.payload); });
  ASSERT_TRUE(apps[0]->Send("l-1", "welcome back").ok());
  ASSERT_TRUE(apps[2]->Send("l-1", "and from me").ok());
  int answered = 0;
  while (answered < 2) {
    loop.RunFor(milliseconds(5));
    answered += AnswerTransits(sim, 2 - answered, wire::DELIVERED, 50);
  }
  ASSERT_TRUE(loop.RunUntil([&] { return got.size() == 2; }, seconds(10)));
  EXPECT_EQ(StatusOf(daemon).connections(), 4u) << "the sim's three and one for the lanes";
}

TEST(Lanes, ADaemonThatDiesEndsEveryLane) {
  DaemonProcess daemon;
  EventLoop loop;
  auto apps = ConnectLanes(loop, daemon.address(), 5, "d-");
  ASSERT_EQ(apps.size(), 5u);
  int lost = 0;
  for (auto& app : apps) {
    app->OnError([&](const absl::Status& s) {
      EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
      lost++;
    });
  }
  ::kill(daemon.pid(), SIGKILL);
  EXPECT_TRUE(loop.RunUntil([&] { return lost == 5; }, seconds(10))) << lost << " of 5";
  for (auto& app : apps) EXPECT_FALSE(app->connected());
}

// The daemon's rules, by hand: a lane opens with a shared Hello, and a
// connection carries lanes or a session of its own, not both.
TEST(Lanes, TheDaemonRefusesFramesThatBreakTheLaneRulesNamingThem) {
  DaemonProcess daemon;
  RawConnection c(daemon.port());
  ASSERT_TRUE(c.connected());
  auto on_lane = [&](wire::Frame f, std::uint32_t lane) {
    f.set_lane(lane);
    c.WriteFrame(f);
    return c.ReadFrame().value_or(wire::Frame());
  };
  wire::Frame ping;
  ping.mutable_ping()->set_nonce(7);
  wire::Frame reply = on_lane(ping, 3);
  ASSERT_TRUE(reply.has_error()) << reply.ShortDebugString();
  EXPECT_EQ(reply.lane(), 3u);
  EXPECT_NE(reply.error().text().find("lane 3: the first frame on a lane must be Hello"),
            std::string::npos)
      << reply.error().text();

  wire::Frame hello;
  wire::Hello* h = hello.mutable_hello();
  h->set_protocol_version(wire::kProtocolVersion);
  h->set_role(wire::ROLE_APP);
  h->set_client_id("raw-lane");
  h->set_shared_connection(true);
  reply = on_lane(hello, 3);
  ASSERT_TRUE(reply.has_welcome()) << reply.ShortDebugString();
  EXPECT_EQ(reply.lane(), 3u);
  EXPECT_FALSE(reply.welcome().session_token().empty());
  reply = on_lane(ping, 3);
  ASSERT_TRUE(reply.has_pong()) << reply.ShortDebugString();
  EXPECT_EQ(reply.lane(), 3u);
  EXPECT_EQ(reply.pong().nonce(), 7u);

  reply = on_lane(ping, 0);
  ASSERT_TRUE(reply.has_error()) << reply.ShortDebugString();
  EXPECT_NE(reply.error().text().find("every frame on it needs its lane"), std::string::npos)
      << reply.error().text();

  h->set_client_id("not-shared");
  h->set_shared_connection(false);
  reply = on_lane(hello, 4);
  ASSERT_TRUE(reply.has_error()) << reply.ShortDebugString();
  EXPECT_EQ(reply.lane(), 4u);
  EXPECT_NE(reply.error().text().find("Hello with shared_connection"), std::string::npos);

  // Bye on lane 3 ends that session; the daemon says Bye on the lane too.
  wire::Frame bye;
  bye.mutable_bye();
  reply = on_lane(bye, 3);
  EXPECT_TRUE(reply.has_bye()) << reply.ShortDebugString();
  EXPECT_EQ(reply.lane(), 3u);
  EXPECT_EQ(StatusOf(daemon).sessions(), 0u);

  // A connection with a session of its own carries no lanes.
  RawConnection own(daemon.port());
  ASSERT_TRUE(own.Hello("own", wire::ROLE_APP, "", wire::PUSH, true).has_welcome());
  h->set_client_id("second");
  h->set_shared_connection(true);
  hello.set_lane(2);
  own.WriteFrame(hello);
  reply = own.ReadFrame().value_or(wire::Frame());
  ASSERT_TRUE(reply.has_error()) << reply.ShortDebugString();
  EXPECT_NE(reply.error().text().find("carries a session of its own"), std::string::npos);
}

}  // namespace
}  // namespace trestle::testing
