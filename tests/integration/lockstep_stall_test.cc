// Is it hung or slow? In a lockstep run the coordinator names who holds the
// run's bound back: an app that runs without advancing, or a simulator that
// does not answer. `trestle status` shows it (and the same Stats reply any
// client gets), the daemon logs a warning at most once per --stall-warn
// seconds while virtual time stands still, and /metrics has the seconds
// since it last moved (docs/protocol.md, "Lockstep time").
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "command_output.h"
#include "daemon_process.h"
#include "httplib.h"
#include "lockstep_experiments.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"

namespace trestle::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// The coordinator's lockstep stats, through `app`, once `done` holds for
// them (or the last ones read after 10 s); runs `loop` meanwhile.
wire::LockstepStats LockstepWhen(EventLoop& loop, AppClient& app,
                                 const std::function<bool(const wire::LockstepStats&)>& done) {
  wire::LockstepStats last;
  const auto deadline = std::chrono::steady_clock::now() + seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    absl::StatusOr<wire::StatsReply> stats = app.Stats(seconds(5));
    EXPECT_TRUE(stats.ok()) << stats.status();
    if (!stats.ok()) break;
    last = stats->lockstep();
    if (done(last)) break;
    loop.RunFor(milliseconds(20));
  }
  return last;
}

// Whether the daemon's log has said `text`, within 10 s (running `loop`).
bool LogSays(EventLoop& loop, const DaemonProcess& daemon, const std::string& text) {
  const auto deadline = std::chrono::steady_clock::now() + seconds(10);
  while (daemon.log().find(text) == std::string::npos) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    loop.RunFor(milliseconds(50));
  }
  return true;
}

TEST(LockstepStall, AnAppThatRunsWithoutAdvancingIsNamedAsHoldingTheBound) {
  DaemonProcess daemon({"--time-mode", "lockstep", "--lockstep-apps", "2", "--stall-warn", "1",
                        "--metrics-listen", "127.0.0.1:0", "--log-level", "warn"},
                       /*capture_log=*/true);
  ChildProcess sim(TRESTLE_SIM_PATH, {"fabric", "--daemon", daemon.address(), "--topology",
                                      "switch:4", "--link-latency", "1us"});
  EventLoop loop;
  AppClient spinner(loop, LockstepOptions(daemon.address(), "spinner"));
  AppClient waiter(loop, LockstepOptions(daemon.address(), "waiter"));
  ASSERT_TRUE(spinner.Connect().ok());
  ASSERT_TRUE(waiter.Connect().ok());
  waiter.OnMessage([](Message&&) {});
  ASSERT_TRUE(waiter.AwaitNext().ok());  // blocked, no wake time

  // The waiter's block is in: one app runs, and it is the one that holds time.
  const wire::LockstepStats held = LockstepWhen(
      loop, spinner, [](const wire::LockstepStats& l) {
        return l.apps_running() == 1 && l.simulators_size() == 1;
      });
  EXPECT_TRUE(held.started());
  EXPECT_EQ(held.apps(), 2u);
  EXPECT_EQ(held.apps_running(), 1u);
  EXPECT_EQ(held.holder(), "spinner") << held.ShortDebugString();
  EXPECT_EQ(held.holder_role(), wire::ROLE_APP);
  EXPECT_NE(held.holder_state().find("running at 0 ns"), std::string::npos) << held.holder_state();
  ASSERT_EQ(held.simulators_size(), 1);

  const std::string status =
      RunCommand(absl::StrCat(TRESTLE_CLI_PATH, " status --admin ", daemon.admin_address())).text;
  EXPECT_NE(status.find("held back by"), std::string::npos) << status;
  EXPECT_NE(status.find("APP 'spinner': running at 0 ns"), std::string::npos) << status;
  EXPECT_NE(status.find("simulator "), std::string::npos) << status;

  // The warning names it too, once virtual time has stood still 1 s.
  EXPECT_TRUE(LogSays(loop, daemon, "held back by app 'spinner' (running at 0 ns"))
      << daemon.log();
  httplib::Client http("127.0.0.1", daemon.metrics_port());
  auto metrics = http.Get("/metrics");
  ASSERT_TRUE(metrics) << "no /metrics";
  const std::string gauge = "\ntrestle_lockstep_bound_seconds_still ";
  const std::size_t at = metrics->body.find(gauge);
  ASSERT_NE(at, std::string::npos) << metrics->body;
  EXPECT_GE(std::stod(metrics->body.substr(at + gauge.size())), 1.0);

  // Once it moves on, time moves, and it holds nothing until it stops again.
  spinner.Advance(5'000);
  ASSERT_TRUE(spinner.Send("waiter", "at last").ok());
  const wire::LockstepStats moved = LockstepWhen(
      loop, spinner, [](const wire::LockstepStats& l) { return l.bound_ns() >= 5'000; });
  EXPECT_GE(moved.bound_ns(), 5'000u) << moved.ShortDebugString();
  sim.Stop();
}

TEST(LockstepStall, ASimulatorThatDoesNotAnswerIsNamedAsHoldingTheBound) {
  DaemonProcess daemon({"--time-mode", "lockstep", "--lockstep-apps", "2", "--stall-warn", "1",
                        "--log-level", "warn"},
                       /*capture_log=*/true);
  ChildProcess sim(TRESTLE_SIM_PATH, {"fabric", "--daemon", daemon.address(), "--topology",
                                      "switch:4", "--link-latency", "1us", "--id", "stuck-fabric"});
  EventLoop loop;
  AppClient a(loop, LockstepOptions(daemon.address(), "a"));
  AppClient b(loop, LockstepOptions(daemon.address(), "b"));
  ASSERT_TRUE(a.Connect().ok());
  ASSERT_TRUE(b.Connect().ok());
  // The simulator has answered a first Grant; then it stops, and a message
  // it must model waits with it while both apps wait for the message.
  const wire::LockstepStats granted = LockstepWhen(loop, a, [](const wire::LockstepStats& l) {
    return l.simulators_size() == 1 && !l.simulators(0).grant_outstanding() && l.grants() > 0;
  });
  ASSERT_EQ(granted.simulators_size(), 1) << granted.ShortDebugString();
  ::kill(sim.pid(), SIGSTOP);
  ASSERT_TRUE(a.Send("b", "into the void").ok());
  a.OnMessage([](Message&&) {});
  b.OnMessage([](Message&&) {});
  ASSERT_TRUE(a.AwaitNext().ok());
  ASSERT_TRUE(b.AwaitNext().ok());
  const wire::LockstepStats held = LockstepWhen(loop, a, [](const wire::LockstepStats& l) {
    return l.apps_running() == 0 && l.holder_role() == wire::ROLE_SIM;
  });
  EXPECT_EQ(held.holder(), "stuck-fabric") << held.ShortDebugString();
  EXPECT_EQ(held.holder_role(), wire::ROLE_SIM);
  EXPECT_NE(held.holder_state().find("holds 1 transits"), std::string::npos)
      << held.holder_state();
  EXPECT_TRUE(LogSays(loop, daemon, "held back by simulator 'stuck-fabric'")) << daemon.log();
  ::kill(sim.pid(), SIGCONT);
  sim.Stop();
}

}  // namespace
}  // namespace trestle::testing
