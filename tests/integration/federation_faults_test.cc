// A federated bridge (several trestled processes sharing one real
// redis-server) under faults: a daemon SIGKILLed and restarted (it replays
// its stream, takes its journal up), Redis restarted or down for a while,
// an app that attaches late or moves to another daemon. In every case each
// message reaches its app exactly once and each daemon's counts balance.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "app_fleet.h"
#include "daemon_process.h"
#include "federation_support.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"

namespace trestle::testing {
namespace {

// The simulator's daemon is killed (SIGKILL) while it holds every message of
// a batch: restarted, it replays its stream, and each message reaches its
// app exactly once; what was delivered before the kill is not replayed.
TEST(Federation, TheSimulatorsDaemonKilledMidRunLosesNothing) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  const std::string run = "killed";
  DaemonProcess b(Federated(redis, 2, run));
  auto a = std::make_unique<DaemonProcess>(Federated(redis, 1, run));
  auto ghost = std::make_unique<ChildProcess>(TRESTLE_SIM_PATH,
                                              std::vector<std::string>{"ghost", "--daemon",
                                                                       a->address()});
  constexpr int kApps = 20;
  EventLoop loop;
  auto apps = ConnectApps(loop, b.address(), kApps, DeliveryMode::kPush, true, "n-");
  ASSERT_EQ(apps.size(), static_cast<std::size_t>(kApps));
  auto probe = ConnectApps(loop, a->address(), 1, DeliveryMode::kPush, true, "probe-");
  ASSERT_EQ(probe.size(), 1u);
  std::map<std::string, int> seen;
  CountPayloads(apps, seen);
  auto send_round = [&](int round) {
    for (int i = 0; i < kApps; ++i) {
      for (int k = 0; k < 10; ++k) {
        auto id = apps[i]->Send(absl::StrCat("n-", (i + 1) % kApps),
                                absl::StrCat("round ", round, " from ", i, " #", k));
        ASSERT_TRUE(id.ok()) << id.status();
      }
    }
  };
  auto count = [&] { return Total(seen); };
  // Wait until daemon 2 has seen the simulator (its heartbeat), then a
  // first round goes through.
  send_round(1);
  ASSERT_TRUE(loop.RunUntil([&] { return count() == kApps * 10; }, std::chrono::seconds(30)));

  // The simulator stops answering; a second round is handed to daemon 1,
  // which holds it; then daemon 1 dies.
  ::kill(ghost->pid(), SIGSTOP);
  send_round(2);
  const wire::StatsReply handed = StatsWhen(*apps[0], [&](const wire::StatsReply& s) {
    return s.total().forwarded() == 2u * kApps * 10;
  });
  ASSERT_EQ(handed.total().forwarded(), 2u * kApps * 10) << handed.total().ShortDebugString();
  // Killed once it has taken every message of round 2 over and written it
  // to its (stopped) simulator.
  const wire::StatsReply taken = StatsWhen(*probe[0], [&](const wire::StatsReply& s) {
    return s.total().from_peers() == 2u * kApps * 10 && HeldBy(s, "ghost") == kApps * 10u;
  });
  ASSERT_EQ(HeldBy(taken, "ghost"), kApps * 10u) << taken.total().ShortDebugString();
  ::kill(a->pid(), SIGKILL);
  ::kill(ghost->pid(), SIGKILL);
  ghost->Wait(5000);
  a->Stop();
  probe.clear();
  ghost.reset();
  a.reset();
  EXPECT_EQ(count(), kApps * 10) << "nothing of round 2 can arrive while daemon 1 is down";

  // Restarted, daemon 1 replays its pending entries to a new simulator.
  a = std::make_unique<DaemonProcess>(Federated(redis, 1, run));
  ghost = std::make_unique<ChildProcess>(TRESTLE_SIM_PATH, std::vector<std::string>{
                                                               "ghost", "--daemon", a->address()});
  EXPECT_TRUE(loop.RunUntil([&] { return count() >= 2 * kApps * 10; }, std::chrono::seconds(30)));
  loop.RunFor(std::chrono::milliseconds(500));  // a duplicate would arrive now
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(2 * kApps * 10));
  ExpectEachOnce(seen);
  const wire::Counters tb = SettledTotals(*apps[0]);
  ExpectBalancedWithPeers(tb, "daemon 2");
  EXPECT_EQ(tb.delivered(), 2u * kApps * 10) << tb.ShortDebugString();
  EXPECT_EQ(tb.expired() + tb.lost_in_store() + tb.dropped(), 0u) << tb.ShortDebugString();
}

// An app's daemon with a journal (--journal true) is killed (SIGKILL) while
// it holds messages its apps sent (no simulator anywhere yet, so they wait
// in its queue and its journal).
// Restarted, it takes them up from its journal: each reaches its app
// exactly once, on this daemon and on the other, and the journal empties.
// Sessions opened after the restart get ids the first life never used.
TEST(Federation, AnAppsDaemonKilledWithMessagesInHandTakesThemUpFromItsJournal) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  const std::string run = "journal";
  DaemonProcess b(Federated(redis, 2, run));
  const std::vector<std::string> journal = {"--journal", "true"};
  auto a = std::make_unique<DaemonProcess>(Federated(redis, 1, run, journal));
  constexpr int kApps = 10;
  constexpr int kPerPeer = 5;  // to each of two peers
  EventLoop loop;
  auto receivers_b = ConnectApps(loop, b.address(), kApps, DeliveryMode::kPush, true, "r-");
  auto senders = ConnectApps(loop, a->address(), kApps, DeliveryMode::kPush, true, "s-");
  ASSERT_EQ(senders.size(), static_cast<std::size_t>(kApps));
  std::map<std::string, int> seen;
  std::map<std::uint64_t, int> ids;
  auto record = [&](Message&& m) {
    seen[m.payload]++;
    ids[m.id]++;
  };
  for (auto& app : receivers_b) app->OnMessage(record);
  auto send_round = [&](int round) {
    for (int i = 0; i < kApps; ++i) {
      for (int k = 0; k < kPerPeer; ++k) {
        for (const char* to : {"r-", "l-"}) {
          std::string payload = absl::StrCat("round ", round, " s-", i, " to ", to, i, " #", k);
          payload.push_back('\0');
          auto id = senders[i]->Send(absl::StrCat(to, i), payload);
          ASSERT_TRUE(id.ok()) << id.status();
        }
      }
    }
  };
  constexpr std::uint64_t kRound = 2 * kApps * kPerPeer;
  send_round(1);
  const wire::Counters held = StatsWhen(*senders[0], [&](const wire::StatsReply& s) {
                                return s.total().accepted() == kRound;
                              }).total();
  ASSERT_EQ(held.accepted(), kRound) << held.ShortDebugString();
  for (int i = 0; i < 50 && RedisInteger(redis, "XLEN trestle:journal:journal:1") < static_cast<long long>(kRound); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(RedisInteger(redis, "XLEN trestle:journal:journal:1"), static_cast<long long>(kRound))
      << "every message waiting on daemon 1 is in its journal";

  ::kill(a->pid(), SIGKILL);
  a->Stop();
  a.reset();
  senders.clear();
  loop.RunFor(std::chrono::milliseconds(100));

  a = std::make_unique<DaemonProcess>(Federated(redis, 1, run, journal));
  senders = ConnectApps(loop, a->address(), kApps, DeliveryMode::kPush, true, "s-");
  auto receivers_a = ConnectApps(loop, a->address(), kApps, DeliveryMode::kPush, true, "l-");
  ASSERT_EQ(receivers_a.size(), static_cast<std::size_t>(kApps));
  for (auto& app : receivers_a) app->OnMessage(record);
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", a->address()});
  auto count = [&] { return Total(seen); };
  EXPECT_TRUE(loop.RunUntil([&] { return count() >= static_cast<int>(kRound); },
                            std::chrono::seconds(30)));
  // The restarted daemon's new sessions send a second round.
  send_round(2);
  EXPECT_TRUE(loop.RunUntil([&] { return count() >= static_cast<int>(2 * kRound); },
                            std::chrono::seconds(30)));
  loop.RunFor(std::chrono::milliseconds(500));  // a duplicate would arrive now
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(2 * kRound));
  ExpectEachOnce(seen);
  EXPECT_EQ(ids.size(), static_cast<std::size_t>(2 * kRound))
      << "message ids of the second life collide with the first's";

  const wire::Counters ta = SettledTotals(*senders[0]);
  ExpectBalancedWithPeers(ta, "daemon 1");
  EXPECT_EQ(ta.recovered(), kRound) << ta.ShortDebugString();
  EXPECT_EQ(ta.accepted(), kRound) << ta.ShortDebugString();
  EXPECT_EQ(ta.delivered(), kRound) << "the l- apps' messages of both rounds";
  EXPECT_EQ(ta.forwarded(), kRound) << "the r- apps' messages of both rounds";
  EXPECT_EQ(ta.expired() + ta.lost_in_store() + ta.dropped(), 0u) << ta.ShortDebugString();
  const wire::Counters tb = SettledTotals(*receivers_b[0]);
  ExpectBalancedWithPeers(tb, "daemon 2");
  EXPECT_EQ(tb.from_peers(), kRound);
  EXPECT_EQ(tb.delivered(), kRound);
  long long left = 0;
  for (int i = 0; i < 50 && (left = RedisInteger(redis, "XLEN trestle:journal:journal:1")) != 0;
       ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(left, 0) << "journal entries of finished messages left behind";
}

// The receivers' daemon is killed (SIGKILL) at a point the test chooses: it
// has written every message of a round to its apps, and their loop has not
// run since, so none is acknowledged (and none read). The apps' connections
// go with it, and what it wrote with them. Restarted, it replays its stream:
// every message of the round reaches new apps of the same ids, once.
TEST(Federation, DeliveriesNotYetAcknowledgedWhenTheirDaemonIsKilledComeAgain) {
  ReceiversBridge bridge("unacknowledged");
  ASSERT_TRUE(bridge.redis.ok());
  DaemonProcess& b = bridge.senders;
  std::unique_ptr<DaemonProcess>& a = bridge.receivers;
  constexpr int kApps = 10;
  constexpr int kPerApp = 50;
  constexpr int kTotal = kApps * kPerApp;
  EventLoop loop;  // the senders and a probe of daemon 1
  auto held = std::make_unique<EventLoop>();  // the receivers: not run after they connect
  auto receivers = ConnectApps(*held, a->address(), kApps, DeliveryMode::kPush, true, "r-");
  auto probe = ConnectApps(loop, a->address(), 1, DeliveryMode::kPush, true, "probe-");
  auto senders = ConnectApps(loop, b.address(), kApps, DeliveryMode::kPush, true, "s-");
  ASSERT_EQ(receivers.size(), static_cast<std::size_t>(kApps));
  ASSERT_EQ(probe.size(), 1u);
  ASSERT_EQ(senders.size(), static_cast<std::size_t>(kApps));
  for (int k = 0; k < kPerApp; ++k) {
    for (int i = 0; i < kApps; ++i) {
      ASSERT_TRUE(senders[i]->Send(absl::StrCat("r-", i), absl::StrCat("s-", i, " #", k)).ok());
    }
  }
  const wire::StatsReply written = StatsWhen(*probe[0], [&](const wire::StatsReply& s) {
    return HeldBy(s, "r-") == static_cast<std::uint64_t>(kTotal);
  });
  ASSERT_EQ(HeldBy(written, "r-"), static_cast<std::uint64_t>(kTotal))
      << "daemon 1 wrote every message and heard no acknowledgement: "
      << written.total().ShortDebugString();
  ::kill(a->pid(), SIGKILL);
  a->Stop();
  a.reset();
  probe.clear();
  receivers.clear();
  held.reset();

  bridge.Restart();
  receivers = ConnectApps(loop, a->address(), kApps, DeliveryMode::kPush, true, "r-");
  ASSERT_EQ(receivers.size(), static_cast<std::size_t>(kApps));
  std::map<std::string, int> seen;
  CountPayloads(receivers, seen);
  EXPECT_TRUE(loop.RunUntil([&] { return static_cast<int>(seen.size()) == kTotal; },
                            std::chrono::seconds(30)))
      << seen.size() << " of " << kTotal << " messages arrived after the restart";
  const wire::Counters ta = SettledTotals(*receivers[0]);
  EXPECT_EQ(Total(seen), kTotal);
  ExpectEachOnce(seen);
  ExpectBalancedWithPeers(ta, "daemon 1 after its restart");
  EXPECT_EQ(ta.from_peers(), static_cast<std::uint64_t>(kTotal)) << ta.ShortDebugString();
  EXPECT_EQ(ta.delivered(), static_cast<std::uint64_t>(kTotal)) << ta.ShortDebugString();
  EXPECT_EQ(ta.expired() + ta.dropped() + ta.lost_in_store(), 0u) << ta.ShortDebugString();
}

// The receivers' daemon is killed (SIGKILL) in the middle of a stream of
// deliveries from the other daemon, at a point the test chooses: the first
// half is delivered and acknowledged (its entries too), the second written
// to the apps and not acknowledged (their loop has not run since). Then the
// apps read what reached them, the daemon restarts and replays its stream,
// the same app objects connect again (new sessions), and each message
// reaches its app exactly once: the second half comes again, and what an
// app had already taken is dropped by its SDK (docs/protocol.md, the
// duplicate window); the first half does not come again.
TEST(Federation, AReceiversDaemonKilledMidDeliveryDeliversEachMessageOnce) {
  ReceiversBridge bridge("receivers-killed");
  ASSERT_TRUE(bridge.redis.ok());
  RedisProcess& redis = bridge.redis;
  const std::string& run = bridge.run;
  DaemonProcess& b = bridge.senders;
  std::unique_ptr<DaemonProcess>& a = bridge.receivers;
  constexpr int kApps = 10;
  constexpr int kPerRound = 50;  // per app
  constexpr int kRound = kApps * kPerRound;
  EventLoop loop;        // the senders and a probe of daemon 1
  EventLoop apps_loop;   // the receivers and another probe of daemon 1
  auto receivers = ConnectApps(apps_loop, a->address(), kApps, DeliveryMode::kPush, true, "r-");
  auto probe_apps = ConnectApps(apps_loop, a->address(), 1, DeliveryMode::kPush, true, "pa-");
  auto probe = ConnectApps(loop, a->address(), 1, DeliveryMode::kPush, true, "probe-");
  auto senders = ConnectApps(loop, b.address(), kApps, DeliveryMode::kPush, true, "s-");
  ASSERT_EQ(receivers.size(), static_cast<std::size_t>(kApps));
  ASSERT_EQ(senders.size(), static_cast<std::size_t>(kApps));
  ASSERT_EQ(probe.size() + probe_apps.size(), 2u);
  std::map<std::string, int> seen;
  CountPayloads(receivers, seen);
  auto send_round = [&](int round) {
    for (int k = 0; k < kPerRound; ++k) {
      for (int i = 0; i < kApps; ++i) {
        ASSERT_TRUE(senders[i]
                        ->Send(absl::StrCat("r-", i), absl::StrCat("round ", round, " s-", i, " #", k))
                        .ok());
      }
    }
    const wire::Counters sent = StatsWhen(*senders[0], [&](const wire::StatsReply& s) {
                                  return s.total().accepted() ==
                                         static_cast<std::uint64_t>(round * kRound);
                                }).total();
    ASSERT_EQ(sent.accepted(), static_cast<std::uint64_t>(round * kRound));
  };
  const std::string stream = absl::StrCat("trestle:", run, ":in:1");

  // Round 1: delivered, acknowledged, and its entries acknowledged in Redis.
  send_round(1);
  ASSERT_TRUE(apps_loop.RunUntil([&] { return Total(seen) == kRound; }, std::chrono::seconds(30)));
  const wire::Counters first = StatsWhen(*probe_apps[0], [&](const wire::StatsReply& s) {
                                 return s.total().delivered() == static_cast<std::uint64_t>(kRound);
                               }).total();
  ASSERT_EQ(first.delivered(), static_cast<std::uint64_t>(kRound)) << first.ShortDebugString();
  for (int i = 0; i < 100 && RedisPendingEntries(redis, stream) != 0; ++i) {
    apps_loop.RunFor(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(RedisPendingEntries(redis, stream), 0) << "round 1's entries are acknowledged";

  // Round 2: written to the apps, none acknowledged; then the kill.
  send_round(2);
  const wire::StatsReply written = StatsWhen(*probe[0], [&](const wire::StatsReply& s) {
    return HeldBy(s, "r-") == static_cast<std::uint64_t>(kRound);
  });
  ASSERT_EQ(HeldBy(written, "r-"), static_cast<std::uint64_t>(kRound))
      << written.total().ShortDebugString();
  const std::uint16_t port = a->port();
  ::kill(a->pid(), SIGKILL);
  a->Stop();
  a.reset();
  probe.clear();
  probe_apps.clear();
  // The apps take what reached them (any part of round 2: the verdict is
  // the same), and find their daemon gone.
  apps_loop.RunFor(std::chrono::milliseconds(200));
  const int before = Total(seen);

  // Restarted where the apps look for it.
  bridge.Restart({"--listen", absl::StrCat("127.0.0.1:", port)});
  int connected = 0;
  for (auto& app : receivers) {
    ASSERT_TRUE(app->ConnectAsync([&](absl::Status s) {
                     EXPECT_TRUE(s.ok()) << s;
                     connected++;
                   }).ok());
  }
  ASSERT_TRUE(apps_loop.RunUntil([&] { return connected == kApps; }, std::chrono::seconds(20)));
  EXPECT_TRUE(apps_loop.RunUntil([&] { return static_cast<int>(seen.size()) == 2 * kRound; },
                                 std::chrono::seconds(30)))
      << seen.size() << " of " << 2 * kRound << " messages arrived (" << before
      << " before the restart)";
  // Every message of round 2 comes again, and is acknowledged, whether or
  // not its first copy had reached the app.
  const wire::Counters ta = StatsWhen(*receivers[0], [&](const wire::StatsReply& s) {
                              return s.total().delivered() == static_cast<std::uint64_t>(kRound) &&
                                     s.total().in_flight() == 0;
                            }).total();
  EXPECT_EQ(Total(seen), 2 * kRound) << "deliveries counted by the apps, duplicates included";
  ExpectEachOnce(seen);
  ExpectBalancedWithPeers(ta, "daemon 1 after its restart");
  EXPECT_EQ(ta.from_peers(), static_cast<std::uint64_t>(kRound)) << ta.ShortDebugString();
  EXPECT_EQ(ta.delivered(), static_cast<std::uint64_t>(kRound)) << ta.ShortDebugString();
  EXPECT_EQ(ta.expired() + ta.dropped() + ta.lost_in_store(), 0u) << ta.ShortDebugString();
  const wire::Counters tb = SettledTotals(*senders[0]);
  ExpectBalancedWithPeers(tb, "daemon 2");
  EXPECT_EQ(tb.forwarded(), static_cast<std::uint64_t>(2 * kRound)) << tb.ShortDebugString();
}

// A message for an app attached nowhere waits on the daemon that has its
// outcome; when the app attaches to another daemon later, the message is
// handed on to it and delivered there, once.
TEST(Federation, AMessageForAnAppThatAttachesLaterToAnotherDaemonFindsIt) {
  TwoDaemonsOneGhost bridge("late");
  auto& [redis, a, b, ghost] = bridge;
  ASSERT_TRUE(redis.ok());
  EventLoop loop;
  auto senders = ConnectApps(loop, a.address(), 1, DeliveryMode::kPush, true, "early-");
  ASSERT_EQ(senders.size(), 1u);
  for (int k = 0; k < 5; ++k) {
    ASSERT_TRUE(senders[0]->Send("late-0", absl::StrCat("for later #", k)).ok());
  }
  // Daemon 1 has the outcomes, and nobody to give them to yet.
  loop.RunFor(std::chrono::milliseconds(800));
  auto late = ConnectApps(loop, b.address(), 1, DeliveryMode::kPush, true, "late-");
  ASSERT_EQ(late.size(), 1u);
  std::map<std::string, int> seen;
  CountPayloads(late, seen);
  EXPECT_TRUE(loop.RunUntil([&] { return seen.size() == 5; }, std::chrono::seconds(10)));
  loop.RunFor(std::chrono::milliseconds(300));
  ExpectEachOnce(seen);
  const wire::Counters ta = SettledTotals(*senders[0]);
  ExpectBalancedWithPeers(ta, "daemon 1");
  EXPECT_EQ(ta.forwarded(), 5u) << ta.ShortDebugString();
  EXPECT_EQ(ta.expired(), 0u) << ta.ShortDebugString();
  const wire::Counters tb = SettledTotals(*late[0]);
  EXPECT_EQ(tb.from_peers(), 5u) << tb.ShortDebugString();
  EXPECT_EQ(tb.delivered(), 5u) << tb.ShortDebugString();
}

// An app that moves from one daemon to another keeps getting its messages,
// once each: the simulator's daemon may still have its old daemon cached for
// a second, and that daemon hands them on again.
TEST(Federation, AnAppThatMovesToAnotherDaemonKeepsGettingItsMessages) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  const std::string run = "moving";
  DaemonProcess a(Federated(redis, 1, run));
  DaemonProcess b(Federated(redis, 2, run));
  DaemonProcess c(Federated(redis, 3, run));
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", a.address()});
  EventLoop loop;
  auto senders = ConnectApps(loop, a.address(), 1, DeliveryMode::kPush, true, "s-");
  auto first = ConnectApps(loop, b.address(), 1, DeliveryMode::kPush, true, "mover-");
  ASSERT_EQ(first.size(), 1u);
  std::map<std::string, int> seen;
  auto record = [&seen](Message&& m) { seen[m.payload]++; };
  first[0]->OnMessage(record);
  for (int k = 0; k < 5; ++k) ASSERT_TRUE(senders[0]->Send("mover-0", absl::StrCat("on b #", k)).ok());
  ASSERT_TRUE(loop.RunUntil([&] { return seen.size() == 5; }, std::chrono::seconds(10)));
  // It leaves daemon 2 and comes back on daemon 3 at once: as soon as
  // daemon 2 has given its id back to the registry, a moment after the Bye
  // (until then daemon 3 refuses it, ALREADY_EXISTS naming daemon 2).
  ASSERT_TRUE(first[0]->Close(std::chrono::seconds(5)).ok());
  first.clear();
  ClientOptions options;
  options.daemon = c.address();
  options.client_id = "mover-0";
  options.shared_connection = true;
  auto second = std::make_unique<AppClient>(loop, options);
  absl::Status moved = second->Connect();
  for (int i = 0; i < 100 && absl::IsAlreadyExists(moved); ++i) {
    loop.RunFor(std::chrono::milliseconds(10));
    moved = second->Connect();
  }
  ASSERT_TRUE(moved.ok()) << moved;
  second->OnMessage(record);
  for (int k = 0; k < 5; ++k) ASSERT_TRUE(senders[0]->Send("mover-0", absl::StrCat("on c #", k)).ok());
  EXPECT_TRUE(loop.RunUntil([&] { return seen.size() == 10; }, std::chrono::seconds(10)))
      << seen.size() << " of 10 arrived";
  loop.RunFor(std::chrono::milliseconds(300));
  ExpectEachOnce(seen);
  const wire::Counters tc = SettledTotals(*second);
  EXPECT_EQ(tc.delivered(), 5u) << tc.ShortDebugString();
  EXPECT_EQ(tc.expired() + tc.lost_in_store(), 0u) << tc.ShortDebugString();
}

// Redis is restarted (its data kept in an append-only file, as in
// production) while messages of both daemons are held by a paused
// simulator: the daemons reconnect, and every message of before, during and
// after reaches its app exactly once.
TEST(Federation, RedisRestartedMidRunLosesNothingAndDuplicatesNothing) {
  TwoDaemonsOneGhost bridge("redis-restart", /*append_only=*/true);
  auto& [redis, a, b, ghost] = bridge;
  ASSERT_TRUE(redis.ok());
  constexpr int kApps = 10;
  constexpr int kPerApp = 5;
  EventLoop loop;
  auto on_a = ConnectApps(loop, a.address(), kApps, DeliveryMode::kPush, true, "a-");
  auto on_b = ConnectApps(loop, b.address(), kApps, DeliveryMode::kPush, true, "b-");
  ASSERT_EQ(on_b.size(), static_cast<std::size_t>(kApps));
  std::map<std::string, int> seen;
  CountPayloads(on_a, seen);
  CountPayloads(on_b, seen);
  auto send_round = [&](int round) {
    for (int i = 0; i < kApps; ++i) {
      for (int k = 0; k < kPerApp; ++k) {
        ASSERT_TRUE(on_a[i]->Send(absl::StrCat("b-", i), absl::StrCat(round, " a", i, "#", k)).ok());
        ASSERT_TRUE(on_b[i]->Send(absl::StrCat("a-", i), absl::StrCat(round, " b", i, "#", k)).ok());
      }
    }
  };
  auto count = [&] { return Total(seen); };
  constexpr int kRound = 2 * kApps * kPerApp;
  loop.RunFor(std::chrono::milliseconds(700));  // daemon 2 hears of the simulator
  send_round(1);
  ASSERT_TRUE(loop.RunUntil([&] { return count() == kRound; }, std::chrono::seconds(30)));

  ::kill(ghost.pid(), SIGSTOP);
  send_round(2);
  const wire::Counters before = StatsWhen(*on_b[0], [&](const wire::StatsReply& s) {
                                  return s.total().forwarded() == static_cast<std::uint64_t>(kRound);
                                }).total();
  ASSERT_EQ(before.forwarded(), static_cast<std::uint64_t>(kRound)) << before.ShortDebugString();
  ASSERT_TRUE(redis.Restart());
  ::kill(ghost.pid(), SIGCONT);
  EXPECT_TRUE(loop.RunUntil([&] { return count() >= 2 * kRound; }, std::chrono::seconds(30)));

  // Once both daemons have heartbeats again, a third round.
  for (int i = 0; i < 50; ++i) {
    bool fresh = true;
    for (DaemonProcess* d : {&a, &b}) {
      const std::string bridge = Field(StatusTable(d->admin_address()), "bridge");
      fresh = fresh && (bridge.find("(as of 0.") != std::string::npos);
    }
    if (fresh) break;
    loop.RunFor(std::chrono::milliseconds(100));
  }
  send_round(3);
  EXPECT_TRUE(loop.RunUntil([&] { return count() >= 3 * kRound; }, std::chrono::seconds(30)));
  loop.RunFor(std::chrono::milliseconds(500));  // a duplicate would arrive now
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(3 * kRound));
  ExpectEachOnce(seen);
  for (auto* side : {&on_a, &on_b}) {
    const wire::Counters t = SettledTotals(*(*side)[0]);
    ExpectBalancedWithPeers(t, side == &on_a ? "daemon 1" : "daemon 2");
    EXPECT_EQ(t.accepted(), static_cast<std::uint64_t>(3 * kRound / 2)) << t.ShortDebugString();
    EXPECT_EQ(t.delivered(), static_cast<std::uint64_t>(3 * kRound / 2)) << t.ShortDebugString();
    EXPECT_EQ(t.rejected() + t.expired() + t.lost_in_store() + t.dropped(), 0u)
        << t.ShortDebugString();
  }
}

// While Redis is down, apps of the daemon with the simulator keep talking
// to each other (payloads in its memory); messages that must cross to the
// other daemon wait, and go once Redis is back. Nothing is refused, lost or
// delivered twice.
TEST(Federation, WhileRedisIsDownTrafficWithinADaemonFlowsAndCrossTrafficWaits) {
  TwoDaemonsOneGhost bridge("redis-down", /*append_only=*/true);
  auto& [redis, a, b, ghost] = bridge;
  ASSERT_TRUE(redis.ok());
  EventLoop loop;
  auto on_a = ConnectApps(loop, a.address(), 2, DeliveryMode::kPush, true, "a-");
  auto on_b = ConnectApps(loop, b.address(), 1, DeliveryMode::kPush, true, "b-");
  ASSERT_EQ(on_a.size(), 2u);
  ASSERT_EQ(on_b.size(), 1u);
  std::map<std::string, int> seen;
  CountPayloads(on_a, seen);
  CountPayloads(on_b, seen);
  auto count = [&](const std::string& prefix) {
    int total = 0;
    for (const auto& [payload, n] : seen) total += payload.rfind(prefix, 0) == 0 ? n : 0;
    return total;
  };
  loop.RunFor(std::chrono::milliseconds(700));  // daemon 2 hears of the simulator
  ASSERT_TRUE(on_b[0]->Send("a-0", "before").ok());
  ASSERT_TRUE(loop.RunUntil([&] { return count("before") == 1; }, std::chrono::seconds(10)));

  redis.Stop();
  loop.RunFor(std::chrono::milliseconds(200));
  for (int k = 0; k < 20; ++k) {
    ASSERT_TRUE(on_a[0]->Send("a-1", absl::StrCat("within #", k)).ok());
  }
  for (int k = 0; k < 5; ++k) {
    ASSERT_TRUE(on_a[1]->Send("b-0", absl::StrCat("across from a #", k)).ok());
    ASSERT_TRUE(on_b[0]->Send("a-0", absl::StrCat("across from b #", k)).ok());
  }
  EXPECT_TRUE(loop.RunUntil([&] { return count("within") == 20; }, std::chrono::seconds(10)))
      << count("within") << " of 20 messages within daemon 1 arrived while Redis was down";
  EXPECT_EQ(count("across"), 0) << "nothing can cross while Redis is down";

  ASSERT_TRUE(redis.Restart());
  EXPECT_TRUE(loop.RunUntil([&] { return count("across") == 10; }, std::chrono::seconds(20)))
      << count("across") << " of 10 messages crossed after Redis came back";
  loop.RunFor(std::chrono::milliseconds(500));  // a duplicate would arrive now
  ExpectEachOnce(seen);
  for (auto* side : {&on_a, &on_b}) {
    const wire::Counters t = SettledTotals(*(*side)[0]);
    ExpectBalancedWithPeers(t, side == &on_a ? "daemon 1" : "daemon 2");
    EXPECT_EQ(t.rejected() + t.expired() + t.lost_in_store() + t.dropped(), 0u)
        << t.ShortDebugString();
    EXPECT_EQ(t.in_flight(), 0u) << t.ShortDebugString();
  }
}

}  // namespace
}  // namespace trestle::testing
