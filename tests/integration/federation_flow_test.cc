// What flows back between the daemons of a federated bridge (several
// trestled processes sharing one real redis-server), rather than messages:
// drop reports reach a sender on another daemon (network drops and payloads
// lost in the store), and a full simulator queue on one daemon pauses the
// senders of another (transit backpressure). Each report arrives once, and
// each daemon's counts balance.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "app_fleet.h"
#include "daemon_process.h"
#include "federation_support.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"

namespace trestle::testing {
namespace {

// Transit backpressure across daemons: while the simulator (on daemon 1)
// takes nothing, its queue fills to its transit_queue_limit, and daemon 2
// stops reading the sender whose transits it hands to daemon 1, as daemon 1
// would stop reading a sender of its own: a steady stream stays mostly in
// the sender's socket, not in daemon 1's memory. Once the simulator is back,
// every message arrives exactly once and both daemons balance.
TEST(Federation, ASenderOnAnotherDaemonPausesWhileTheSimulatorsQueueIsFull) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  const std::string run = "backpressure";
  DaemonProcess a(Federated(redis, 1, run, {"--transit-queue-limit", "100"}));
  DaemonProcess b(Federated(redis, 2, run));
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--pull", "--daemon", a.address()});
  EventLoop loop;
  auto senders = ConnectApps(loop, b.address(), 1, DeliveryMode::kPush, true, "s-");
  auto receivers = ConnectApps(loop, a.address(), 1, DeliveryMode::kPush, true, "r-");
  ASSERT_EQ(receivers.size(), 1u);
  std::map<std::string, int> seen;
  CountPayloads(receivers, seen);
  loop.RunFor(std::chrono::milliseconds(700));  // daemon 2 hears of the simulator
  ASSERT_TRUE(senders[0]->Send("r-0", "first").ok());
  ASSERT_TRUE(loop.RunUntil([&] { return Total(seen) == 1; }, std::chrono::seconds(10)));

  // A steady stream, not one burst: daemon 2 hands on what it has read
  // before daemon 1's word can come back.
  ::kill(ghost.pid(), SIGSTOP);
  constexpr int kWaves = 40;
  constexpr int kPerWave = 500;
  constexpr int kMessages = kWaves * kPerWave;
  for (int w = 0; w < kWaves; ++w) {
    for (int k = 0; k < kPerWave; ++k) {
      ASSERT_TRUE(senders[0]->Send("r-0", absl::StrCat("wave ", w, " #", k)).ok());
    }
    loop.RunFor(std::chrono::milliseconds(25));
  }
  loop.RunFor(std::chrono::milliseconds(500));
  // Through the admin service: the paused sender's own connection is not
  // read now.
  const std::string status_b = StatusTable(b.admin_address());
  const std::string status_a = StatusTable(a.admin_address());
  const long long accepted_b = std::stoll("0" + Field(status_b, "accepted"));
  const long long from_peers_a = std::stoll("0" + Field(status_a, "from peers"));
  EXPECT_GT(accepted_b, 1) << status_b;
  EXPECT_LT(accepted_b, 1 + kMessages / 2) << "daemon 2 kept reading the sender:\n" << status_b;
  EXPECT_LT(from_peers_a, 1 + kMessages / 2) << status_a;
  EXPECT_EQ(Total(seen), 1) << "nothing can arrive while the simulator is stopped";

  ::kill(ghost.pid(), SIGCONT);
  EXPECT_TRUE(loop.RunUntil([&] { return Total(seen) >= 1 + kMessages; },
                            std::chrono::seconds(60)))
      << Total(seen) << " of " << 1 + kMessages << " arrived";
  loop.RunFor(std::chrono::milliseconds(300));  // a duplicate would arrive now
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(1 + kMessages));
  ExpectEachOnce(seen);
  const wire::Counters tb = SettledTotals(*senders[0]);
  ExpectBalancedWithPeers(tb, "daemon 2");
  EXPECT_EQ(tb.accepted(), 1u + kMessages) << tb.ShortDebugString();
  const wire::Counters ta = SettledTotals(*receivers[0]);
  ExpectBalancedWithPeers(ta, "daemon 1");
  EXPECT_EQ(ta.delivered(), 1u + kMessages) << ta.ShortDebugString();
}

// A payload lost in the store (its key deleted behind the daemons' backs)
// on the receiver's daemon: the report goes back to its sender on the
// simulator's daemon, LOST_IN_STORE, once for each message, and is counted
// once, where it was lost.
TEST(Federation, AReportOfAPayloadLostInTheStoreReachesItsSenderOnAnotherDaemon) {
  const std::string run = "lost-reports";
  TwoDaemonsOneGhost bridge(run);
  auto& [redis, a, b, ghost] = bridge;
  ASSERT_TRUE(redis.ok());
  EventLoop loop;
  auto senders = ConnectApps(loop, a.address(), 1, DeliveryMode::kPush, false, "s-");
  auto receivers = ConnectApps(loop, b.address(), 1, DeliveryMode::kPull, false, "r-");
  ASSERT_EQ(receivers.size(), 1u);
  std::vector<Message> reports;
  senders[0]->OnMessage([&](Message&& m) { reports.push_back(std::move(m)); });
  SendOptions notify;
  notify.notify_drop = true;
  constexpr int kMessages = 10;
  std::set<std::uint64_t> sent;
  for (int k = 0; k < kMessages; ++k) {
    auto id = senders[0]->Send("r-0", absl::StrCat("to be lost #", k), notify);
    ASSERT_TRUE(id.ok()) << id.status();
    sent.insert(*id);
  }
  // Handed to daemon 2, which holds them for r-0 (it has not asked yet),
  // their payloads in Redis.
  auto payload_keys = [&] {
    std::vector<std::string> keys;
    for (std::string& key : RunKeys(bridge.redis, run)) {
      if (key.find(":p:") != std::string::npos) keys.push_back(std::move(key));
    }
    return keys;
  };
  for (int i = 0; i < 100 && payload_keys().size() < kMessages; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const std::vector<std::string> keys = payload_keys();
  ASSERT_EQ(keys.size(), static_cast<std::size_t>(kMessages));
  for (const std::string& key : keys) {
    EXPECT_EQ(RedisInteger(redis, "DEL " + key), 1) << key;
  }
  // r-0 asks: daemon 2 finds every payload gone.
  EXPECT_EQ(receivers[0]->Receive(std::chrono::milliseconds(1'000)).status().code(),
            absl::StatusCode::kDeadlineExceeded);
  EXPECT_TRUE(loop.RunUntil([&] { return reports.size() >= kMessages; }, std::chrono::seconds(10)))
      << reports.size() << " of " << kMessages << " reports";
  loop.RunFor(std::chrono::milliseconds(300));  // a second report would arrive now
  for (const Message& m : reports) {
    EXPECT_TRUE(m.dropped && m.lost_in_store) << "report " << m.id;
    EXPECT_EQ(sent.erase(m.id), 1u) << "unexpected or repeated report " << m.id;
  }
  EXPECT_TRUE(sent.empty()) << sent.size() << " messages got no report";
  const wire::Counters tb = SettledTotals(*receivers[0]);
  ExpectBalancedWithPeers(tb, "daemon 2");
  EXPECT_EQ(tb.lost_in_store(), static_cast<std::uint64_t>(kMessages)) << tb.ShortDebugString();
  const wire::Counters ta = SettledTotals(*senders[0]);
  ExpectBalancedWithPeers(ta, "daemon 1");
  EXPECT_EQ(ta.lost_in_store(), 0u) << "counted where it was lost only";
  EXPECT_EQ(ta.forwarded(), static_cast<std::uint64_t>(kMessages)) << ta.ShortDebugString();
}

// The simulator drops everything: a sender on the other daemon than the
// simulator's gets a drop report for each message it asked one for, as a
// sender on the simulator's daemon does, and nothing else; the drops are
// counted once, where the simulator is, and both daemons balance.
TEST(Federation, ADropReportReachesItsSenderOnAnotherDaemon) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  const std::string run = "drop-reports";
  DaemonProcess a(Federated(redis, 1, run));
  DaemonProcess b(Federated(redis, 2, run));
  ChildProcess sim(TRESTLE_SIM_PATH, {"fabric", "--daemon", a.address(), "--topology", "ring:8",
                                      "--loss-rate", "1", "--seed", "7"});
  EventLoop loop;
  auto on_a = ConnectApps(loop, a.address(), 2, DeliveryMode::kPush, false, "a-");
  auto on_b = ConnectApps(loop, b.address(), 2, DeliveryMode::kPush, false, "b-");
  ASSERT_EQ(on_a.size() + on_b.size(), 4u);
  std::map<std::string, std::vector<Message>> got;
  for (auto* side : {&on_a, &on_b}) {
    for (auto& app : *side) {
      const std::string id = app->options().client_id;
      app->OnMessage([&got, id](Message&& m) { got[id].push_back(std::move(m)); });
    }
  }
  SendOptions notify;
  notify.notify_drop = true;
  std::set<std::uint64_t> from_b0, from_a1;
  for (int i = 0; i < 20; ++i) {
    auto id = on_b[0]->Send("a-0", absl::StrCat("b-0 #", i), notify);  // to the simulator's daemon
    ASSERT_TRUE(id.ok()) << id.status();
    from_b0.insert(*id);
  }
  for (int i = 0; i < 10; ++i) {
    auto id = on_a[1]->Send("b-1", absl::StrCat("a-1 #", i), notify);  // from it
    ASSERT_TRUE(id.ok()) << id.status();
    from_a1.insert(*id);
  }
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(on_b[1]->Send("a-1", "no report asked").ok());
  ASSERT_TRUE(loop.RunUntil([&] { return got["b-0"].size() >= 20 && got["a-1"].size() >= 10; },
                            std::chrono::seconds(20)))
      << "b-0 has " << got["b-0"].size() << " of 20 reports, a-1 " << got["a-1"].size() << " of 10";
  loop.RunFor(std::chrono::milliseconds(300));  // anything more would be wrong

  for (auto& [sender, ids] : {std::pair{"b-0", &from_b0}, std::pair{"a-1", &from_a1}}) {
    for (const Message& m : got[sender]) {
      EXPECT_TRUE(m.dropped) << sender << " got message " << m.id << " delivered";
      EXPECT_TRUE(m.payload.empty());
      EXPECT_EQ(m.src, sender);
      EXPECT_EQ(ids->erase(m.id), 1u) << sender << ": unexpected or repeated report " << m.id;
    }
  }
  EXPECT_TRUE(from_b0.empty() && from_a1.empty());
  EXPECT_TRUE(got["a-0"].empty() && got["b-1"].empty()) << "a receiver got something";

  const wire::Counters ta = SettledTotals(*on_a[0]);
  const wire::Counters tb = SettledTotals(*on_b[0]);
  ExpectBalancedWithPeers(ta, "daemon 1");
  ExpectBalancedWithPeers(tb, "daemon 2");
  EXPECT_EQ(ta.accepted(), 10u);
  EXPECT_EQ(ta.from_peers(), 25u);
  EXPECT_EQ(ta.dropped(), 35u);
  EXPECT_EQ(ta.forwarded(), 0u) << "a drop report is not a message handed on";
  EXPECT_EQ(tb.accepted(), 25u);
  EXPECT_EQ(tb.forwarded(), 25u);
  EXPECT_EQ(tb.from_peers(), 0u) << "a drop report is not a message taken over";
  EXPECT_EQ(tb.dropped(), 0u);
  EXPECT_EQ(ta.in_flight() + tb.in_flight(), 0u);
  EXPECT_EQ(sim.Stop(), 0);
}

}  // namespace
}  // namespace trestle::testing
