// Issue 9, defect 8: clients and tools notice a dead daemon at once. A
// daemon killed mid-run closes its sockets: SDK calls waiting on it return
// Unavailable, and `trestle bench` stops at once with an error instead of
// running on to the end of its duration and drain. A daemon that hangs
// closes nothing: the SDK's keepalive ends the session after
// keepalive_timeout.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "command_output.h"
#include "daemon_process.h"
#include "sdk_test_options.h"
#include "trestle/app_client.h"

namespace trestle::testing {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(DeadDaemon, AWaitingReceiveReturnsUnavailableWhenTheDaemonIsKilled) {
  DaemonProcess daemon;
  AppClient app(TestClientOptions(daemon.address(), "a"));
  ASSERT_TRUE(app.Connect().ok());
  std::thread killer([&] {
    std::this_thread::sleep_for(milliseconds(300));
    kill(daemon.pid(), SIGKILL);
  });
  const auto start = Clock::now();
  absl::StatusOr<Message> m = app.Receive(seconds(30));
  const auto waited = Clock::now() - start;
  killer.join();
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), absl::StatusCode::kUnavailable) << m.status();
  EXPECT_NE(m.status().message().find(daemon.address()), std::string::npos) << m.status();
  EXPECT_LT(waited, seconds(3));
}

TEST(DeadDaemon, AHungDaemonIsNoticedWithinTheKeepaliveTimeout) {
  DaemonProcess daemon;
  ClientOptions options = TestClientOptions(daemon.address(), "a");
  options.keepalive_interval = milliseconds(200);
  options.keepalive_timeout = milliseconds(1000);
  AppClient app(options);
  ASSERT_TRUE(app.Connect().ok());
  // An idle but healthy daemon keeps the session: it answers the pings.
  EXPECT_EQ(app.Receive(milliseconds(1500)).status().code(), absl::StatusCode::kDeadlineExceeded);
  ASSERT_TRUE(app.connected());

  kill(daemon.pid(), SIGSTOP);
  const auto start = Clock::now();
  absl::StatusOr<Message> m = app.Receive(seconds(30));
  const auto waited = Clock::now() - start;
  kill(daemon.pid(), SIGCONT);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), absl::StatusCode::kUnavailable) << m.status();
  EXPECT_NE(m.status().message().find("keepalive_timeout"), std::string::npos) << m.status();
  EXPECT_LT(waited, seconds(3));
}

// `delivered` in the daemon's `trestle status` (-1 if it cannot be read).
long long DeliveredBy(const DaemonProcess& daemon) {
  const std::string status =
      RunCommand(absl::StrCat(TRESTLE_PATH, " status --admin ", daemon.admin_address())).text;
  const std::size_t at = status.find("\ndelivered ");
  if (at == std::string::npos) return -1;
  return std::atoll(status.c_str() + status.find_first_not_of(' ', at + 10));
}

TEST(DeadDaemon, TrestleBenchStopsAtOnceWhenItsDaemonDies) {
  DaemonProcess daemon;
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon.address()});
  auto bench = std::async(std::launch::async, [&] {
    return RunCommand(absl::StrCat(TRESTLE_PATH, " bench --daemon ", daemon.address(),
                                   " --nodes 5 --rate 500 --duration 30s 2>&1"));
  });
  // Killed mid-run: once the daemon has delivered some of the bench's traffic.
  const auto deadline = Clock::now() + seconds(20);
  while (Clock::now() < deadline && DeliveredBy(daemon) == 0) {
    std::this_thread::sleep_for(milliseconds(50));
  }
  ASSERT_GT(DeliveredBy(daemon), 0) << "the bench's traffic never got through";
  kill(daemon.pid(), SIGKILL);
  const auto killed = Clock::now();
  ASSERT_EQ(bench.wait_for(seconds(10)), std::future_status::ready)
      << "trestle bench ran on after its daemon died";
  const CommandOutput out = bench.get();
  EXPECT_LT(Clock::now() - killed, seconds(5));
  EXPECT_NE(out.exit_code, 0) << out.text;
  EXPECT_NE(out.text.find("the bridge failed mid-run"), std::string::npos) << out.text;
}

}  // namespace
}  // namespace trestle::testing
