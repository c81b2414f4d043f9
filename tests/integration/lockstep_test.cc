// Lockstep time end to end: real trestled (--time-mode lockstep), the real
// fabric adapter (lookahead > 0, flow model: a network with state), ns-3, or ghost
// (zero lookahead), and apps in threads of their own whose wall-clock timing
// is perturbed on purpose. Checked: the same run gives the same trace and
// the same per-app history every time; every app receives in t_deliver
// order and never before its own clock; a run that can do nothing more ends
// in Quiescent for everyone; late joiners start at the bound; mixed modes
// are refused at Hello.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <algorithm>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "command_output.h"
#include "daemon_process.h"
#include "lockstep_experiments.h"
#include "sdk_test_options.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"
#include "trestle/status.h"
#include "trestle/platform/read_file.h"

namespace trestle::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          absl::StrCat("lockstep_", ::getpid(), "_", name))
      .string();
}

struct RunResult {
  std::vector<History> histories;
  std::string trace;
  wire::LockstepStats lockstep;
  wire::Counters totals;
};

RunResult RunGossip(const std::vector<std::string>& sim_args, int apps, int rounds) {
  const std::string trace = TempPath(absl::StrCat("trace_", ::testing::UnitTest::GetInstance()
                                                                ->current_test_info()
                                                                ->name()));
  RunResult result;
  {
    DaemonProcess daemon({"--time-mode", "lockstep", "--lockstep-apps", std::to_string(apps),
                          "--trace", trace});
    std::vector<std::string> args = sim_args;
    args.insert(args.begin() + 1, {"--daemon", daemon.address()});
    ChildProcess sim(TRESTLE_SIM_PATH, args);
    result.histories.resize(apps);
    std::vector<std::thread> threads;
    for (int i = 0; i < apps; ++i) {
      threads.emplace_back(
          [&, i] { result.histories[i] = RunGossipApp(daemon.address(), i, apps, rounds); });
    }
    for (std::thread& t : threads) t.join();
    // The coordinator's own account, read by an app that joins at the end.
    AppClient observer(LockstepOptions(daemon.address(), "observer"));
    if (observer.Connect().ok()) {
      absl::StatusOr<wire::StatsReply> stats = observer.Stats(seconds(5));
      EXPECT_TRUE(stats.ok()) << stats.status();
      if (stats.ok()) {
        result.lockstep = stats->lockstep();
        result.totals = stats->total();
      }
      observer.Close(seconds(5)).IgnoreError();
    }
    sim.Stop();
    EXPECT_EQ(daemon.Stop(), 0);
  }
  result.trace = platform::ReadFile(trace).value_or("");
  std::filesystem::remove(trace);
  return result;
}

// Causality: no transit reached a simulator behind a Grant it had; every
// app received in t_deliver order and its clock never went back; every app
// ended quiescent; the counters balance with nothing left in flight.
void ExpectCausal(const RunResult& run) {
  EXPECT_TRUE(run.lockstep.started());
  EXPECT_GT(run.lockstep.grants(), 0u);
  EXPECT_EQ(run.lockstep.transits_behind_grant(), 0u);
  EXPECT_EQ(run.lockstep.quiescent(), run.histories.size());
  EXPECT_EQ(run.totals.accepted(), run.totals.delivered());
  EXPECT_EQ(run.totals.in_flight(), 0u);
  for (std::size_t i = 0; i < run.histories.size(); ++i) {
    const History& h = run.histories[i];
    EXPECT_EQ(h.end.rfind("quiescent at ", 0), 0u) << "app-" << i << " ended with " << h.end;
    std::uint64_t last = 0;
    std::uint64_t clock = 0;
    for (const std::string& e : h.events) {
      const std::size_t now_at = e.rfind(" now ");
      const std::uint64_t now = now_at == std::string::npos ? std::stoull(e.substr(e.find('@') + 1))
                                                            : std::stoull(e.substr(now_at + 5));
      EXPECT_GE(now, clock) << "app-" << i << "'s clock went back: " << e;
      clock = now;
      if (e.rfind("wake@", 0) == 0) continue;
      const std::uint64_t t = std::stoull(e.substr(e.find('@') + 1));
      EXPECT_GE(t, last) << "app-" << i << " received out of t_deliver order: " << e;
      EXPECT_GE(now, t) << "app-" << i << " is behind a delivery it took: " << e;
      last = t;
    }
  }
}

void ExpectSameRuns(const std::vector<std::string>& sim_args, int apps, int rounds, int runs) {
  const RunResult first = RunGossip(sim_args, apps, rounds);
  ExpectCausal(first);
  const std::vector<std::string> first_trace = SortedLines(first.trace);
  ASSERT_GT(first_trace.size(), static_cast<std::size_t>(apps * rounds)) << first.trace;
  const double messages = static_cast<double>(first.totals.delivered());
  std::printf("lockstep: %.0f messages, %.2f grants, %.2f reached, %.2f clocks per message\n",
              messages, first.lockstep.grants() / messages, first.lockstep.reached() / messages,
              first.lockstep.clocks() / messages);
  for (int run = 1; run < runs; ++run) {
    const RunResult again = RunGossip(sim_args, apps, rounds);
    ExpectCausal(again);
    EXPECT_EQ(SortedLines(again.trace), first_trace) << "run " << run << ": another trace";
    // The same verdict from `trestle trace diff`.
    const std::string a = TempPath("diff_a.csv"), b = TempPath("diff_b.csv");
    std::ofstream(a) << first.trace;
    std::ofstream(b) << again.trace;
    const CommandOutput diff = RunCommand(std::string(TRESTLE_CLI_PATH) + " trace diff " + a + " " + b);
    EXPECT_EQ(diff.exit_code, 0) << diff.text;
    EXPECT_EQ(diff.text, absl::StrCat("identical (", first_trace.size() - 1, " messages)\n"));
    std::filesystem::remove(a);
    std::filesystem::remove(b);
    for (int i = 0; i < apps; ++i) {
      EXPECT_EQ(again.histories[i].events, first.histories[i].events)
          << "run " << run << ": app-" << i << " saw another history";
      EXPECT_EQ(again.histories[i].end, first.histories[i].end);
    }
  }
}

TEST(Lockstep, TheFlowModelGivesIdenticalTracesAndHistoriesEveryRun) {
  ExpectSameRuns({"fabric", "--topology", "dragonfly:p=2,a=4,h=2,g=5", "--model", "flow",
                  "--link-bw", "100Gbps", "--link-latency", "100ns"},
                 16, 6, 5);
}

TEST(Lockstep, Ns3GivesIdenticalTracesAndHistoriesEveryRun) {
  ExpectSameRuns({"ns3", "--topology", "switch:8,link_bw=10Gbps,link_latency=1us"}, 8, 5, 5);
}

TEST(Lockstep, ZeroLookaheadStillProgressesAndRepeats) {
  // The ghost delivers at t_send: every step is a zero-lookahead delta step.
  ExpectSameRuns({"ghost"}, 6, 4, 3);
}

TEST(Lockstep, TraceDiffShowsTheFirstDifferenceByMessage) {
  const std::string header = "src,seq,dst,size,tclass,t_send,t_deliver,outcome,delivery_seq\n";
  const std::string a = TempPath("a.csv"), b = TempPath("b.csv"), c = TempPath("c.csv");
  std::ofstream(a) << header << "app-1,1,app-2,10,0,5,105,delivered,1\n"
                   << "app-0,2,app-1,10,0,7,107,delivered,1\n";
  // The same messages, ended in another order: identical.
  std::ofstream(b) << header << "app-0,2,app-1,10,0,7,107,delivered,1\n"
                   << "app-1,1,app-2,10,0,5,105,delivered,1\n";
  // One t_deliver differs.
  std::ofstream(c) << header << "app-1,1,app-2,10,0,5,106,delivered,1\n"
                   << "app-0,2,app-1,10,0,7,107,delivered,1\n";
  const std::string cli = std::string(TRESTLE_CLI_PATH) + " trace diff ";
  CommandOutput same = RunCommand(cli + a + " " + b);
  EXPECT_EQ(same.exit_code, 0);
  EXPECT_EQ(same.text, "identical (2 messages)\n");
  CommandOutput differ = RunCommand(cli + a + " " + c);
  EXPECT_EQ(differ.exit_code, 1);
  EXPECT_NE(differ.text.find("message app-1#1 differs"), std::string::npos) << differ.text;
  EXPECT_NE(differ.text.find("app-1,1,app-2,10,0,5,106,delivered,1"), std::string::npos);
  EXPECT_NE(differ.text.find("1 of 2 / 2 messages differ"), std::string::npos) << differ.text;
  for (const std::string& f : {a, b, c}) std::filesystem::remove(f);
}

TEST(Lockstep, DeliveriesWaitForTheModelAndMoveTheClock) {
  DaemonProcess daemon({"--time-mode", "lockstep", "--lockstep-apps", "2"});
  ChildProcess sim(TRESTLE_SIM_PATH, {"fabric", "--daemon", daemon.address(), "--topology",
                                      "ring:4", "--link-bw", "400Gbps", "--link-latency", "1us"});
  AppClient a(LockstepOptions(daemon.address(), "a"));
  ASSERT_TRUE(a.Connect().ok());
  AppClient b(LockstepOptions(daemon.address(), "b"));
  ASSERT_GT(ExpectEarlySendWaitsForTheRun(a, b), 0u);

  // A Send below the clock is refused by the SDK.
  SendOptions past;
  past.t_send = 5;
  EXPECT_EQ(b.Send("a", "past", past).status().code(), absl::StatusCode::kInvalidArgument);

  // A late joiner starts at the run's bound, never before it.
  AppClient c(LockstepOptions(daemon.address(), "c"));
  ASSERT_TRUE(c.Connect().ok());
  EXPECT_GE(c.Now(), 1000u) << "joined after time moved on";

  // Everyone blocked, nothing in flight, no wake time: quiescent.
  std::atomic<int> quiescent{0};
  std::thread ta([&] { quiescent += IsQuiescent(a.Receive(seconds(10)).status()); });
  std::thread tc([&] { quiescent += IsQuiescent(c.Receive(seconds(10)).status()); });
  absl::StatusOr<Message> end = b.Receive(seconds(10));
  ta.join();
  tc.join();
  EXPECT_TRUE(IsQuiescent(end.status())) << end.status();
  EXPECT_EQ(quiescent.load(), 2);
  sim.Stop();
}

// The fabric adapter's lookahead is its fastest path (1,100 ns here), its
// self lookahead the endpoint delay (0): a message an app sends itself is due
// at once, so a delivery due later must not be handed to it first, even
// when that delivery is final before the app sends.
TEST(Lockstep, ANoteToItselfComesBeforeWhatIsDueLater) {
  DaemonProcess daemon({"--time-mode", "lockstep", "--lockstep-apps", "2"});
  ChildProcess sim(TRESTLE_SIM_PATH,
                   {"fabric", "--daemon", daemon.address(), "--model", "flow", "--topology",
                    "switch:2,link_bw=400Gbps,link_latency=500ns,switch_latency=100ns"});
  AppClient a(LockstepOptions(daemon.address(), "a"));
  AppClient b(LockstepOptions(daemon.address(), "b"));
  ASSERT_TRUE(a.Connect().ok());
  ASSERT_TRUE(b.Connect().ok());
  // 100,000 B at 50 B/ns: its transfer ends at 2,000, it arrives at 3,100.
  ASSERT_TRUE(b.Send("a", std::string(100000, 'b')).ok());
  std::thread tb([&] { EXPECT_TRUE(IsQuiescent(b.Receive(seconds(10)).status())); });
  // a reports its clock at 2,500 and waits: the model passes 2,000, so the
  // message at 3,100 is final well before a sends its note at 2,500.
  std::this_thread::sleep_for(milliseconds(5));
  a.Advance(2500);
  std::this_thread::sleep_for(milliseconds(200));
  ASSERT_TRUE(a.Send("a", "note").ok());
  absl::StatusOr<Message> first = a.Receive(seconds(10));
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->src, "a") << "b's message, due at 3,100, came first";
  EXPECT_EQ(first->t_deliver, 2500u);
  absl::StatusOr<Message> second = a.Receive(seconds(10));
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->src, "b");
  EXPECT_EQ(second->t_deliver, 3100u);
  EXPECT_TRUE(IsQuiescent(a.Receive(seconds(10)).status()));
  tb.join();
  auto stats = a.Stats(seconds(5));
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->lockstep().transits_behind_grant(), 0u);
  sim.Stop();
  EXPECT_EQ(daemon.Stop(), 0);
}

TEST(Lockstep, AnAppThatLeavesStopsHoldingTheOthersBack) {
  DaemonProcess daemon({"--time-mode", "lockstep"});
  ChildProcess sim(TRESTLE_SIM_PATH, {"fabric", "--daemon", daemon.address(), "--topology",
                                      "switch:4", "--link-latency", "1us"});
  AppClient a(LockstepOptions(daemon.address(), "a"));
  ASSERT_TRUE(a.Connect().ok());
  {
    AppClient slow(LockstepOptions(daemon.address(), "slow"));
    ASSERT_TRUE(slow.Connect().ok());
    // slow never reports past 0 while it is here: a's wake at 1 ms waits.
    absl::StatusOr<std::optional<Message>> waited = a.ReceiveUntil(1'000'000, milliseconds(300));
    EXPECT_EQ(waited.status().code(), absl::StatusCode::kDeadlineExceeded) << waited.status();
    ASSERT_TRUE(slow.Close(seconds(5)).ok());
  }
  absl::StatusOr<std::optional<Message>> woke = a.ReceiveUntil(1'000'000, seconds(10));
  ASSERT_TRUE(woke.ok()) << woke.status();
  EXPECT_FALSE(woke->has_value());
  EXPECT_EQ(a.Now(), 1'000'000u);
  sim.Stop();
}

// Four apps on one loop pass a token round a ring 20 times in callback mode
// (AwaitNext), each on a connection of its own or, with `multiplex`, a lane
// each of one connection: every hop costs 100 ns of compute and the ring's
// latency, and the run ends quiescent for all four.
void TokenRingOnOneLoop(bool multiplex) {
  DaemonProcess daemon({"--time-mode", "lockstep", "--lockstep-apps", "4"});
  ChildProcess sim(TRESTLE_SIM_PATH, {"fabric", "--daemon", daemon.address(), "--topology",
                                      "ring:4", "--link-latency", "1us"});
  EventLoop loop;
  std::vector<std::unique_ptr<AppClient>> apps;
  int connected = 0;
  for (int i = 0; i < 4; ++i) {
    ClientOptions options = LockstepOptions(daemon.address(), absl::StrCat("app-", i));
    options.multiplex = multiplex;
    apps.push_back(std::make_unique<AppClient>(loop, options));
    ASSERT_TRUE(apps.back()->ConnectAsync([&](absl::Status s) { connected += s.ok(); }).ok());
  }
  ASSERT_TRUE(loop.RunUntil([&] { return connected == 4; }, seconds(10)));
  // A token goes round the ring 20 times; each hop costs 100 ns of compute.
  std::vector<std::uint64_t> arrivals;
  int quiescent = 0;
  int woken = 0;
  for (int i = 0; i < 4; ++i) {
    AppClient& app = *apps[i];
    app.OnMessage([&, i](Message&& m) {
      arrivals.push_back(m.t_deliver);
      EXPECT_EQ(app.Now(), m.t_deliver);
      app.Advance(100);
      if (arrivals.size() < 20) {
        EXPECT_TRUE(app.Send(absl::StrCat("app-", (i + 1) % 4), m.payload).ok());
      }
      EXPECT_TRUE(app.AwaitNext().ok());
    });
    app.OnQuiescent([&] { quiescent++; });
    app.OnWake([&](std::uint64_t) { woken++; });
  }
  ASSERT_TRUE(apps[0]->Send("app-1", "token").ok());
  for (auto& app : apps) ASSERT_TRUE(app->AwaitNext().ok());
  ASSERT_TRUE(loop.RunUntil([&] { return quiescent == 4; }, seconds(20)))
      << arrivals.size() << " hops, " << quiescent << " quiescent";
  ASSERT_EQ(arrivals.size(), 20u);
  for (std::size_t k = 1; k < arrivals.size(); ++k) {
    EXPECT_GE(arrivals[k], arrivals[k - 1] + 100 + 1000) << "hop " << k;
  }
  EXPECT_EQ(woken, 0);
  sim.Stop();
}

TEST(Lockstep, AppsSharingOneLoopWaitWithAwaitNext) { TokenRingOnOneLoop(false); }

TEST(Lockstep, AppsOnLanesOfOneConnectionWaitWithAwaitNext) { TokenRingOnOneLoop(true); }

// On a shared connection (one socket for ctrl, send and recv) the SDK takes
// Wake and Quiescent as recv frames, as on a recv connection of its own.
TEST(Lockstep, WakeAndQuiescentReachAnAppOnASharedConnection) {
  DaemonProcess daemon({"--time-mode", "lockstep", "--lockstep-apps", "1"});
  ChildProcess sim(TRESTLE_SIM_PATH, {"fabric", "--daemon", daemon.address(), "--topology",
                                      "switch:2", "--link-latency", "1us"});
  ClientOptions options = LockstepOptions(daemon.address(), "shared");
  options.shared_connection = true;
  AppClient app(options);
  ASSERT_TRUE(app.Connect().ok());
  absl::StatusOr<std::optional<Message>> woke = app.ReceiveUntil(app.Now() + 2'000, seconds(10));
  ASSERT_TRUE(woke.ok()) << woke.status();
  EXPECT_FALSE(woke->has_value());
  EXPECT_EQ(app.Now(), 2'000u);
  EXPECT_TRUE(IsQuiescent(app.Receive(seconds(10)).status()));
  sim.Stop();
}

TEST(Lockstep, MixedTimeModesAreRefusedAtHello) {
  DaemonProcess virtual_daemon({"--time-mode", "virtual"});
  AppClient lockstep_app(LockstepOptions(virtual_daemon.address(), "a"));
  absl::Status s = lockstep_app.Connect();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_NE(s.message().find("time_mode is virtual"), std::string::npos) << s;

  DaemonProcess lockstep_daemon({"--time-mode", "lockstep"});
  AppClient plain_app(TestClientOptions(lockstep_daemon.address(), "b"));
  s = plain_app.Connect();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_NE(s.message().find("lockstep"), std::string::npos) << s;

  AppClient app(LockstepOptions(virtual_daemon.address(), "c"));
  EXPECT_FALSE(app.ReceiveUntil(10, milliseconds(10)).ok());
}

}  // namespace
}  // namespace trestle::testing
