// Lockstep time across daemons (docs/federation.md, "Lockstep across
// daemons"): the gossip experiment of lockstep_test run on one daemon, and
// then spread over two federated daemons sharing a real redis-server, the
// simulator (the real fabric adapter, flow model) on the coordinator. Every
// app must see the same history, and the daemons' traces together must be
// the one daemon's trace: the layout of the bridge changes nothing in
// virtual time. Also: a peer's app waits, wakes, joins late at the run's
// bound and ends quiescent; the apps of a killed peer leave the run; a
// simulator is refused on a peer daemon.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "daemon_process.h"
#include "lockstep_experiments.h"
#include "sdk_test_options.h"
#include "trestle/app_client.h"
#include "trestle/sim_client.h"
#include "trestle/status.h"
#include "trestle/platform/read_file.h"

namespace trestle::testing {
namespace {

using std::chrono::seconds;

const std::vector<std::string> kFlowModel = {
    "fabric",    "--topology", "dragonfly:p=2,a=4,h=2,g=5", "--model",        "flow",
    "--link-bw", "100Gbps",    "--link-latency",            "100ns"};

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          absl::StrCat("federation_lockstep_", ::getpid(), "_", name))
      .string();
}

std::vector<std::string> LockstepDaemon(const RedisProcess& redis, int id,
                                        std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"--store", redis.url(3), "--federate", "--run", "lockstep",
                                   "--daemon-id", std::to_string(id), "--time-mode", "lockstep",
                                   "--lockstep-coordinator", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

// The delivered lines of the traces at `paths`, sorted (their
// delivery_seq is each app's own numbering, the same on any layout).
std::vector<std::string> DeliveredLines(const std::vector<std::string>& paths) {
  std::string all;
  for (const std::string& path : paths) {
    all += platform::ReadFile(path).value_or("");
    std::filesystem::remove(path);
  }
  std::vector<std::string> lines = SortedLines(all);
  std::erase_if(lines,
                [](const std::string& l) { return l.find(",delivered,") == std::string::npos; });
  return lines;
}

struct Layout {
  std::vector<History> histories;
  std::vector<std::string> delivered;
  wire::LockstepStats lockstep;
  std::vector<wire::Counters> totals;  // per daemon
};

// The coordinator's and the daemons' own accounts, read by an app that
// joins each at the end.
void ReadStats(const std::string& daemon, Layout* out, bool coordinator) {
  AppClient observer(LockstepOptions(daemon, absl::StrCat("observer-", out->totals.size())));
  ASSERT_TRUE(observer.Connect().ok());
  absl::StatusOr<wire::StatsReply> stats = observer.Stats(seconds(5));
  ASSERT_TRUE(stats.ok()) << stats.status();
  if (coordinator) out->lockstep = stats->lockstep();
  out->totals.push_back(stats->total());
  observer.Close(seconds(5)).IgnoreError();
}

// `apps` gossip apps; app i on daemons[i * daemons.size() / apps]; the
// simulator on daemons[0], the run's coordinator.
Layout RunGossip(const std::vector<DaemonProcess*>& daemons, int apps, int rounds) {
  Layout out;
  std::vector<std::string> sim_args = kFlowModel;
  sim_args.insert(sim_args.begin() + 1, {"--daemon", daemons[0]->address()});
  ChildProcess sim(TRESTLE_SIM_PATH, sim_args);
  out.histories.resize(apps);
  std::vector<std::thread> threads;
  for (int i = 0; i < apps; ++i) {
    const std::string address = daemons[i * daemons.size() / apps]->address();
    threads.emplace_back(
        [&, i, address] { out.histories[i] = RunGossipApp(address, i, apps, rounds); });
  }
  for (std::thread& t : threads) t.join();
  for (std::size_t d = 0; d < daemons.size(); ++d) ReadStats(daemons[d]->address(), &out, d == 0);
  sim.Stop();
  return out;
}

TEST(FederationLockstep, TwoDaemonsGiveWhatOneDaemonGives) {
  constexpr int kApps = 8;
  constexpr int kRounds = 5;
  const std::string lockstep_apps = std::to_string(kApps);

  const std::string one_trace = TempPath("one.csv");
  Layout one;
  {
    DaemonProcess daemon({"--time-mode", "lockstep", "--lockstep-apps", lockstep_apps, "--trace",
                          one_trace});
    one = RunGossip({&daemon}, kApps, kRounds);
    EXPECT_EQ(daemon.Stop(), 0);
  }
  one.delivered = DeliveredLines({one_trace});

  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  const std::string trace_1 = TempPath("d1.csv"), trace_2 = TempPath("d2.csv");
  Layout two;
  {
    DaemonProcess coordinator(
        LockstepDaemon(redis, 1, {"--lockstep-apps", lockstep_apps, "--trace", trace_1}));
    DaemonProcess peer(LockstepDaemon(redis, 2, {"--trace", trace_2}));
    two = RunGossip({&coordinator, &peer}, kApps, kRounds);
    EXPECT_EQ(peer.Stop(), 0);
    EXPECT_EQ(coordinator.Stop(), 0);
  }
  two.delivered = DeliveredLines({trace_1, trace_2});

  // The experiment ran, and the same way.
  ASSERT_GT(one.delivered.size(), static_cast<std::size_t>(kApps * kRounds));
  EXPECT_EQ(one.lockstep.transits_behind_grant(), 0u);
  EXPECT_EQ(two.lockstep.transits_behind_grant(), 0u);
  EXPECT_TRUE(two.lockstep.started());
  EXPECT_EQ(two.lockstep.quiescent(), one.lockstep.quiescent());
  for (int i = 0; i < kApps; ++i) {
    EXPECT_EQ(one.histories[i].end.rfind("quiescent at ", 0), 0u)
        << "app-" << i << " on one daemon ended with " << one.histories[i].end;
    EXPECT_EQ(two.histories[i].events, one.histories[i].events)
        << "app-" << i << " (on daemon " << (i * 2 / kApps + 1) << ") saw another history";
    EXPECT_EQ(two.histories[i].end, one.histories[i].end) << "app-" << i;
  }
  EXPECT_EQ(two.delivered, one.delivered) << "the two daemons' traces differ from the one's";

  // Exactly once, and each daemon's counts balance: half the apps are on
  // the peer, so messages crossed both ways.
  const wire::Counters& c = two.totals[0];
  const wire::Counters& p = two.totals[1];
  EXPECT_EQ(c.accepted() + p.accepted(), one.totals[0].accepted());
  EXPECT_EQ(c.delivered() + p.delivered(), one.totals[0].delivered());
  EXPECT_GT(p.from_peers(), 0u);
  EXPECT_GT(c.from_peers(), 0u);
  for (const wire::Counters& t : two.totals) {
    EXPECT_EQ(t.in_flight(), 0u) << t.ShortDebugString();
    EXPECT_EQ(t.accepted() + t.from_peers() + t.recovered(),
              t.delivered() + t.dropped() + t.expired() + t.lost_in_store() + t.forwarded())
        << t.ShortDebugString();
  }
}

// An app of the peer daemon: held until the model has its message, woken
// at its virtual time, and quiescent with the others; a late joiner there
// starts at the run's bound.
TEST(FederationLockstep, AnAppOnAPeerDaemonWaitsWakesAndEndsQuiescent) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  DaemonProcess coordinator(LockstepDaemon(redis, 1, {"--lockstep-apps", "2"}));
  DaemonProcess peer(LockstepDaemon(redis, 2));
  ChildProcess sim(TRESTLE_SIM_PATH, {"fabric", "--daemon", coordinator.address(), "--topology",
                                      "ring:4", "--link-bw", "400Gbps", "--link-latency", "1us"});
  AppClient a(LockstepOptions(coordinator.address(), "a"));
  ASSERT_TRUE(a.Connect().ok());
  // b is on the peer: the coordinator holds, releases and wakes through it.
  AppClient b(LockstepOptions(peer.address(), "b"));
  ASSERT_GT(ExpectEarlySendWaitsForTheRun(a, b), 0u);

  // b answers and waits; a gets the answer once b's report says it waits.
  ASSERT_TRUE(b.Send("a", "reply").ok());
  const std::uint64_t sent_at = b.Now();
  absl::StatusOr<std::optional<Message>> b_waits;
  std::thread tw([&] { b_waits = b.ReceiveUntil(sent_at + 1'000'000, seconds(10)); });
  absl::StatusOr<Message> reply = a.Receive(seconds(10));
  // Both wait for the same virtual time, and both are woken at it.
  absl::StatusOr<std::optional<Message>> a_waits =
      a.ReceiveUntil(sent_at + 1'000'000, seconds(10));
  tw.join();
  ASSERT_TRUE(a_waits.ok()) << a_waits.status();
  EXPECT_FALSE(a_waits->has_value());
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(reply->payload, "reply");
  EXPECT_GE(reply->t_deliver, sent_at + 1000);
  ASSERT_TRUE(b_waits.ok()) << b_waits.status();
  EXPECT_FALSE(b_waits->has_value());
  EXPECT_EQ(b.Now(), sent_at + 1'000'000);

  // A late joiner on the peer starts at the run's bound.
  AppClient c(LockstepOptions(peer.address(), "c"));
  ASSERT_TRUE(c.Connect().ok());
  EXPECT_GE(c.Now(), sent_at + 1'000'000) << "joined after time moved on";

  // Everyone blocked, nothing in flight, no wake time: quiescent, on both.
  std::atomic<int> quiescent{0};
  std::thread tb([&] { quiescent += IsQuiescent(b.Receive(seconds(10)).status()); });
  std::thread tc([&] { quiescent += IsQuiescent(c.Receive(seconds(10)).status()); });
  absl::StatusOr<Message> end = a.Receive(seconds(10));
  tb.join();
  tc.join();
  EXPECT_TRUE(IsQuiescent(end.status())) << end.status();
  EXPECT_EQ(quiescent.load(), 2);
  sim.Stop();
}

// A drop report in lockstep time for a sender on a peer daemon: the
// coordinator releases it in the sender's order, it crosses, and the sender
// gets it (DROPPED, its message's id); then the run ends quiescent, which
// it can only do if the peer's app counts the report as a delivery seen.
TEST(FederationLockstep, ADropReportReachesItsSenderOnAPeerDaemon) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  DaemonProcess coordinator(LockstepDaemon(redis, 1, {"--lockstep-apps", "2"}));
  DaemonProcess peer(LockstepDaemon(redis, 2));
  ChildProcess sim(TRESTLE_SIM_PATH, {"fabric", "--daemon", coordinator.address(), "--topology",
                                      "ring:4", "--link-latency", "1us", "--loss-rate", "1",
                                      "--seed", "7"});
  AppClient a(LockstepOptions(coordinator.address(), "a"));
  AppClient b(LockstepOptions(peer.address(), "b"));
  ASSERT_TRUE(a.Connect().ok());
  ASSERT_TRUE(b.Connect().ok());
  SendOptions notify;
  notify.notify_drop = true;
  absl::StatusOr<std::uint64_t> sent = b.Send("a", "lost", notify);
  ASSERT_TRUE(sent.ok()) << sent.status();
  absl::StatusOr<Message> a_end;
  std::thread ta([&] { a_end = a.Receive(seconds(10)); });
  absl::StatusOr<Message> report = b.Receive(seconds(10));
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->dropped);
  EXPECT_FALSE(report->lost_in_store);
  EXPECT_EQ(report->id, *sent);
  absl::StatusOr<Message> b_end = b.Receive(seconds(10));
  ta.join();
  EXPECT_TRUE(IsQuiescent(b_end.status())) << b_end.status();
  EXPECT_TRUE(IsQuiescent(a_end.status())) << a_end.status();
  sim.Stop();
}

// A peer daemon killed mid-run: once its heartbeat expires its apps leave
// the run, and the coordinator's apps go on (here: to quiescence) instead
// of waiting for them for ever.
TEST(FederationLockstep, TheAppsOfAKilledPeerDaemonLeaveTheRun) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  DaemonProcess coordinator(LockstepDaemon(redis, 1, {"--lockstep-apps", "2"}));
  auto peer = std::make_unique<DaemonProcess>(LockstepDaemon(redis, 2));
  ChildProcess sim(TRESTLE_SIM_PATH, {"fabric", "--daemon", coordinator.address(), "--topology",
                                      "ring:4", "--link-latency", "1us"});
  AppClient a(LockstepOptions(coordinator.address(), "a"));
  AppClient b(LockstepOptions(peer->address(), "b"));
  ASSERT_TRUE(a.Connect().ok());
  ASSERT_TRUE(b.Connect().ok());
  b.Advance(5'000);
  ASSERT_TRUE(b.Send("a", "from b").ok());
  // b runs on (it never waits), so a's first message is held behind b's clock.
  absl::StatusOr<Message> held = a.Receive(std::chrono::milliseconds(500));
  EXPECT_EQ(held.status().code(), absl::StatusCode::kDeadlineExceeded) << held.status();

  ::kill(peer->pid(), SIGKILL);
  peer.reset();
  // b leaves with its daemon's heartbeat (3 s): a gets what b sent, then
  // is quiescent.
  absl::StatusOr<Message> m = a.Receive(seconds(15));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->payload, "from b");
  absl::StatusOr<Message> end = a.Receive(seconds(15));
  EXPECT_TRUE(IsQuiescent(end.status())) << end.status();
  sim.Stop();
}

// No coordinator answers: the app's Connect fails, naming it, before the
// SDK's own connect timeout.
TEST(FederationLockstep, AJoinTheCoordinatorDoesNotAnswerFailsNamingIt) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  DaemonProcess peer(LockstepDaemon(redis, 2));
  AppClient b(LockstepOptions(peer.address(), "b"));
  const absl::Status s = b.Connect();
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
  EXPECT_NE(s.message().find("lockstep: daemon 1, the coordinator of this run "
                             "(lockstep_coordinator), did not answer this app's join within "
                             "3000 ms"),
            std::string::npos)
      << s;
}

TEST(FederationLockstep, ASimulatorOnAPeerDaemonIsRefusedNamingTheCoordinator) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  DaemonProcess peer(LockstepDaemon(redis, 2));
  ClientOptions options = TestClientOptions(peer.address(), "sim");
  options.lockstep = true;
  SimClient sim(options);
  const absl::Status s = sim.Connect();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_NE(s.message().find("daemon 2 relays its apps to daemon 1, the coordinator of this "
                             "lockstep run (lockstep_coordinator): attach the simulator to "
                             "daemon 1"),
            std::string::npos)
      << s;
}

}  // namespace
}  // namespace trestle::testing
