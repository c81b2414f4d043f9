// A slow app must not stall everyone else. 20 apps exchange messages through
// the ghost simulator while one more app never reads its recv channel. The 20
// keep receiving everything sent to them; the stalled app, once over its
// delivery bounds for longer than slow_app_grace_ms, has its session closed
// with an Error naming its backlog and the limit; what waited for it expires
// and is counted, and the counts balance.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "app_fleet.h"
#include "counters_check.h"
#include "daemon_process.h"
#include "raw_connection.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"

namespace trestle::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(SlowApp, AnAppThatNeverReadsIsClosedAfterItsGraceWhileTheOthersKeepReceiving) {
  constexpr int kApps = 20;
  constexpr int kRounds = 30;
  DaemonProcess daemon({"--delivery-queue-limit", "20", "--delivery-queue-bytes", "256KiB",
                        "--slow-app-grace-ms", "3000", "--output-high-watermark", "64KiB",
                        "--delivery-ttl-ms", "1000", "--session-linger-ms", "500"});
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon.address()});
  RawSession stalled(daemon.port(), "stalled", wire::ROLE_APP);  // never reads recv
  ASSERT_TRUE(stalled.ok);

  EventLoop loop;
  auto apps = ConnectApps(loop, daemon.address(), kApps);
  ASSERT_EQ(static_cast<int>(apps.size()), kApps);
  std::map<std::uint64_t, int> expected;  // id -> destination app
  std::map<std::uint64_t, int> received;
  for (int i = 0; i < kApps; ++i) {
    apps[i]->OnMessage([&received](Message&& m) { ++received[m.id]; });
  }

  // Each round, every app sends a small message to a random peer and a large
  // one (64 KiB: the kernel's socket buffers fill quickly) to the stalled app.
  std::mt19937 rng(7);
  const std::string large(64 << 10, 'x');
  std::size_t to_stalled = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int round = 0; round < kRounds; ++round) {
    for (int src = 0; src < kApps; ++src) {
      const int dst = static_cast<int>(rng() % kApps);
      auto id = apps[src]->Send(absl::StrCat("app-", dst), absl::StrCat(src, ":", round));
      ASSERT_TRUE(id.ok()) << id.status();
      expected[*id] = dst;
      ASSERT_TRUE(apps[src]->Send("stalled", large).ok());
      ++to_stalled;
    }
    loop.RunFor(milliseconds(10));
  }
  ASSERT_TRUE(loop.RunUntil([&] { return received.size() >= expected.size(); }, seconds(20)))
      << received.size() << " of " << expected.size();
  const auto others_done = std::chrono::steady_clock::now() - start;

  // The others were served while the stalled app was still connected: its
  // session is closed only after its grace period.
  auto first = stalled.ctrl.ReadFrame(0);
  EXPECT_FALSE(first.has_value()) << "closed before the others were served: "
                                  << first->DebugString();
  EXPECT_LT(others_done, seconds(3)) << "the others waited for the stalled app";

  auto error = stalled.ctrl.ReadFrame(10000);
  ASSERT_TRUE(error.has_value() && error->has_error()) << "no Error for the stalled app";
  EXPECT_EQ(error->error().code(), wire::RESOURCE_EXHAUSTED);
  const std::string& text = error->error().text();
  EXPECT_NE(text.find("delivery backlog of "), std::string::npos) << text;
  EXPECT_NE(text.find("for app 'stalled'"), std::string::npos) << text;
  EXPECT_NE(text.find("20 messages (delivery_queue_limit)"), std::string::npos) << text;
  EXPECT_NE(text.find("3000 ms (slow_app_grace_ms)"), std::string::npos) << text;
  EXPECT_TRUE(stalled.ctrl.WaitClosed(2000));

  // Exactly once each, at the right app.
  for (const auto& [id, n] : received) {
    EXPECT_EQ(n, 1) << "message " << id << " received " << n << " times";
    EXPECT_TRUE(expected.contains(id)) << "unexpected message " << id;
  }

  // What waited for the stalled app expires (ttl 1 s after linger 0.5 s);
  // whatever was written to its socket before counts as delivered.
  wire::StatsReply s;
  for (int i = 0; i < 100; ++i) {
    auto stats = apps[0]->Stats(seconds(5));
    ASSERT_TRUE(stats.ok()) << stats.status();
    s = *stats;
    if (s.total().in_flight() == 0) break;
    loop.RunFor(milliseconds(100));
  }
  ASSERT_EQ(s.total().in_flight(), 0u) << s.total().DebugString();
  ExpectBalanced(s);
  EXPECT_EQ(s.total().accepted(), expected.size() + to_stalled);
  EXPECT_GT(s.total().expired(), 0u);
  EXPECT_EQ(s.total().delivered() + s.total().expired(), s.total().accepted());
}

}  // namespace
}  // namespace trestle::testing
