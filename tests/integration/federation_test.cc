// Several trestled processes sharing one real redis-server form one bridge
// (--federate): apps of either daemon reach each other through one ghost
// simulator attached to one of them, every message exactly once; a payload
// by key crosses as a key; a message that stays on its daemon touches no
// Redis, one that crosses takes its payload along; client ids are unique across the bridge; each
// daemon's counts balance with from_peers and forwarded, and the bridge's
// sums match; the run leaves no keys behind. Faults (kills, Redis away,
// apps that come late or move) are in federation_faults_test.cc; drop
// reports and backpressure across daemons in federation_flow_test.cc.
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>
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
#include "command_output.h"
#include "daemon_process.h"
#include "federation_support.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"

namespace trestle::testing {
namespace {

// Sends `per_app` messages from every app of `from` to its partner in `to`
// (same index), all at once, and runs until every partner has them; returns
// how often each payload arrived.
std::map<std::string, int> SendAcross(EventLoop& loop,
                                      std::vector<std::unique_ptr<AppClient>>& from,
                                      std::vector<std::unique_ptr<AppClient>>& to,
                                      const std::string& to_prefix, int per_app,
                                      std::map<std::string, int>& seen, int expect_total) {
  for (std::size_t i = 0; i < from.size(); ++i) {
    for (int k = 0; k < per_app; ++k) {
      // NUL bytes inside: the payload must survive Redis and both daemons.
      std::string payload = absl::StrCat(from[i]->options().client_id, "#", k);
      payload.push_back('\0');
      payload += std::string(static_cast<std::size_t>(k), '\0');
      auto id = from[i]->Send(absl::StrCat(to_prefix, i), payload);
      EXPECT_TRUE(id.ok()) << id.status();
    }
  }
  (void)to;
  EXPECT_TRUE(loop.RunUntil(
      [&] {
        return Total(seen) >= expect_total;
      },
      std::chrono::seconds(60)));
  loop.RunFor(std::chrono::milliseconds(300));  // a duplicate would arrive now
  return seen;
}

TEST(Federation, TwoDaemonsOneGhostAHundredAppsEachEveryMessageExactlyOnce) {
  TwoDaemonsOneGhost bridge("exactly-once");
  auto& [redis, a, b, ghost] = bridge;
  ASSERT_TRUE(redis.ok());

  constexpr int kApps = 100;
  constexpr int kPerApp = 5;
  EventLoop loop;
  auto on_a = ConnectApps(loop, a.address(), kApps, DeliveryMode::kPush, true, "a-");
  auto on_b = ConnectApps(loop, b.address(), kApps, DeliveryMode::kPush, true, "b-");
  ASSERT_EQ(on_a.size(), static_cast<std::size_t>(kApps));
  ASSERT_EQ(on_b.size(), static_cast<std::size_t>(kApps));

  std::map<std::string, int> seen;
  std::map<std::string, std::string> wrong;  // payload -> who got it, if not its partner
  for (auto* side : {&on_a, &on_b}) {
    for (auto& app : *side) {
      AppClient* self = app.get();
      app->OnMessage([&seen, &wrong, self](Message&& m) {
        seen[m.payload]++;
        const std::string src_index = m.src.substr(2);
        if (m.dst != self->options().client_id || self->options().client_id.substr(2) != src_index ||
            m.src.substr(0, 2) == self->options().client_id.substr(0, 2)) {
          wrong[m.payload] = self->options().client_id;
        }
      });
    }
  }
  // Both directions at once: a -> b crosses from the simulator's daemon,
  // b -> a goes to it and back.
  SendAcross(loop, on_a, on_b, "b-", kPerApp, seen, 0);
  SendAcross(loop, on_b, on_a, "a-", kPerApp, seen, 2 * kApps * kPerApp);

  EXPECT_EQ(seen.size(), static_cast<std::size_t>(2 * kApps * kPerApp));
  ExpectEachOnce(seen);
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " messages reached the wrong app, e.g. "
                             << wrong.begin()->second;

  const wire::Counters ta = SettledTotals(*on_a[0]);
  const wire::Counters tb = SettledTotals(*on_b[0]);
  ExpectBalancedWithPeers(ta, "daemon 1");
  ExpectBalancedWithPeers(tb, "daemon 2");
  constexpr std::uint64_t kEach = kApps * kPerApp;
  EXPECT_EQ(ta.accepted(), kEach);
  EXPECT_EQ(tb.accepted(), kEach);
  // Daemon 2 has no simulator: it hands every send to daemon 1, which hands
  // daemon 2's apps their messages back.
  EXPECT_EQ(tb.forwarded(), kEach);
  EXPECT_EQ(ta.from_peers(), kEach);
  EXPECT_EQ(ta.forwarded(), kEach);
  EXPECT_EQ(tb.from_peers(), kEach);
  EXPECT_EQ(ta.delivered(), kEach);
  EXPECT_EQ(tb.delivered(), kEach);
  EXPECT_EQ(ta.dropped() + ta.expired() + ta.lost_in_store(), 0u);
  EXPECT_EQ(tb.dropped() + tb.expired() + tb.lost_in_store(), 0u);

  // The bridge-wide sums (trestle status), once both daemons have published
  // their settled counters.
  std::string status;
  for (int i = 0; i < 50; ++i) {
    status = StatusTable(a.admin_address());
    if (Field(status, "bridge delivered") == std::to_string(2 * kEach) &&
        Field(status, "bridge in flight") == "0") {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  EXPECT_NE(status.find("run 'exactly-once', this daemon 1, daemons 1, 2"), std::string::npos)
      << status;
  EXPECT_EQ(Field(status, "bridge accepted"), std::to_string(2 * kEach)) << status;
  EXPECT_EQ(Field(status, "bridge delivered"), std::to_string(2 * kEach)) << status;
  EXPECT_EQ(Field(status, "bridge in flight"), "0") << status;
  EXPECT_EQ(Field(status, "forwarded"), std::to_string(kEach)) << status;

  // Nothing left in the streams once everything is delivered (and the next
  // trim, within PeerStreams::kTrimPeriodMs of housekeeping, has run).
  redisContext* c = redisConnect("127.0.0.1", redis.port());
  freeReplyObject(redisCommand(c, "SELECT 2"));
  for (int d : {1, 2}) {
    const std::string xlen = absl::StrCat("XLEN trestle:exactly-once:in:", d);
    long long left = RedisInteger(redis, xlen);
    for (int i = 0; i < 40 && left != 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      left = RedisInteger(redis, xlen);
    }
    EXPECT_EQ(left, 0) << "entries left in daemon " << d << "'s stream";
    auto* r = static_cast<redisReply*>(redisCommand(c, "XPENDING trestle:exactly-once:in:%d trestled", d));
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->type, REDIS_REPLY_ARRAY);
    EXPECT_EQ(r->element[0]->integer, 0) << "entries of daemon " << d << " not acknowledged";
    freeReplyObject(r);
  }
  redisFree(c);
}

// Two tiers: a message between two apps of one daemon stays in that
// daemon's memory (no payload key, no journal entry, no stream entry) while
// its simulator holds it; a message that crosses takes its payload to Redis
// with its stream entry (a loop pass's messages to one daemon share one
// entry), both ways, and twice (between two apps of the daemon without the
// simulator); each arrives once and nothing is left.
TEST(Federation, AMessageThatStaysOnItsDaemonTouchesNoRedisAndOneThatCrossesTakesItsPayload) {
  const std::string run = "tiers";
  TwoDaemonsOneGhost bridge(run);
  auto& [redis, a, b, ghost] = bridge;
  ASSERT_TRUE(redis.ok());
  EventLoop loop;
  constexpr int kApps = 5;
  constexpr int kPerApp = 20;
  constexpr int kMessages = kApps * kPerApp;
  auto senders = ConnectApps(loop, a.address(), kApps, DeliveryMode::kPush, true, "s-");
  auto locals = ConnectApps(loop, a.address(), kApps, DeliveryMode::kPush, true, "l-");
  auto remotes = ConnectApps(loop, b.address(), kApps, DeliveryMode::kPush, true, "r-");
  ASSERT_EQ(remotes.size(), static_cast<std::size_t>(kApps));
  std::map<std::string, int> seen;
  CountPayloads(locals, seen);
  CountPayloads(remotes, seen);
  auto send = [&](std::vector<std::unique_ptr<AppClient>>& from, const char* to, int round) {
    for (int i = 0; i < kApps; ++i) {
      for (int k = 0; k < kPerApp; ++k) {
        std::string payload = absl::StrCat("round ", round, " to ", to, i, " #", k);
        payload.push_back('\0');
        ASSERT_TRUE(from[i]->Send(absl::StrCat(to, i), payload).ok());
      }
    }
  };
  loop.RunFor(std::chrono::milliseconds(700));  // daemon 2 hears of the simulator

  // Within daemon 1, held by its stopped simulator.
  const long long xadd_before = RedisCalls(redis, "xadd");
  const long long set_before = RedisCalls(redis, "set");
  ::kill(ghost.pid(), SIGSTOP);
  send(senders, "l-", 1);
  const wire::Counters held = StatsWhen(*senders[0], [&](const wire::StatsReply& s) {
                                return s.total().accepted() == kMessages;
                              }).total();
  ASSERT_EQ(held.accepted(), static_cast<std::uint64_t>(kMessages)) << held.ShortDebugString();
  for (const std::string& key : RunKeys(redis, run)) {
    EXPECT_EQ(key.find(":p:"), std::string::npos) << "payload key " << key << " in Redis";
    EXPECT_EQ(key.find(":journal:"), std::string::npos) << key << " in Redis";
  }
  ::kill(ghost.pid(), SIGCONT);
  EXPECT_TRUE(loop.RunUntil([&] { return Total(seen) >= kMessages; }, std::chrono::seconds(20)));
  EXPECT_EQ(RedisCalls(redis, "xadd"), xadd_before) << "a message within daemon 1 was appended";
  // The heartbeats SET their keys twice a second per daemon.
  EXPECT_LT(RedisCalls(redis, "set") - set_before, kMessages / 4)
      << "payloads within daemon 1 were written to Redis";

  // Across, both ways: daemon 1 hands deliveries to daemon 2, daemon 2
  // hands transits to daemon 1 (the simulator's), each with its payload.
  // Daemon 1 asks the registry where each receiver is once (the Locate
  // script's HGET), its deliveries that come meanwhile waiting for the answer.
  const long long locates_before = RedisCalls(redis, "hget");
  const auto crossing = std::chrono::steady_clock::now();
  send(senders, "r-", 2);
  send(remotes, "l-", 3);
  EXPECT_TRUE(
      loop.RunUntil([&] { return Total(seen) >= 3 * kMessages; }, std::chrono::seconds(30)));
  // An answer is used for a second: a machine slow enough to take longer
  // asks again, once per app per second.
  const long long seconds_crossing =
      1 + std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() -
                                                           crossing)
              .count();
  loop.RunFor(std::chrono::milliseconds(300));  // a duplicate would arrive now
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(3 * kMessages));
  ExpectEachOnce(seen);
  EXPECT_LE(RedisCalls(redis, "hget") - locates_before, kApps * seconds_crossing)
      << "registry questions for the " << kMessages << " deliveries to " << kApps << " apps";
  // Each app's sends arrive together, and the messages one loop pass hands
  // to a daemon share one stream entry.
  const long long xadds = RedisCalls(redis, "xadd") - xadd_before;
  EXPECT_GE(xadds, 2);
  EXPECT_LE(xadds, kMessages / 2) << "entries for " << 2 * kMessages << " crossing messages";
  const wire::Counters ta = SettledTotals(*senders[0]);
  ExpectBalancedWithPeers(ta, "daemon 1");
  EXPECT_EQ(ta.forwarded(), static_cast<std::uint64_t>(kMessages)) << ta.ShortDebugString();
  EXPECT_EQ(ta.from_peers(), static_cast<std::uint64_t>(kMessages)) << ta.ShortDebugString();
  const wire::Counters tb = SettledTotals(*remotes[0]);
  ExpectBalancedWithPeers(tb, "daemon 2");
  EXPECT_EQ(tb.delivered(), static_cast<std::uint64_t>(kMessages)) << tb.ShortDebugString();
  for (const std::string& key : RunKeys(redis, run)) {
    EXPECT_EQ(key.find(":p:"), std::string::npos) << "payload key " << key << " left behind";
  }

  // Between two apps of daemon 2, which has no simulator: the transit
  // crosses to daemon 1 and the delivery comes back, both in batches; the
  // delivery needs no script (only one taken up after a restart does).
  auto others = ConnectApps(loop, b.address(), kApps, DeliveryMode::kPush, true, "q-");
  ASSERT_EQ(others.size(), static_cast<std::size_t>(kApps));
  CountPayloads(others, seen);
  const long long evals_before = RedisCalls(redis, "eval");
  send(remotes, "q-", 4);
  EXPECT_TRUE(
      loop.RunUntil([&] { return Total(seen) >= 4 * kMessages; }, std::chrono::seconds(30)));
  loop.RunFor(std::chrono::milliseconds(300));
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(4 * kMessages));
  ExpectEachOnce(seen);
  // The heartbeats' scripts (twice a second per daemon) and one Locate per
  // receiver.
  EXPECT_LT(RedisCalls(redis, "eval") - evals_before, kMessages / 4)
      << "scripts for " << kMessages << " messages that crossed twice";
  ExpectBalancedWithPeers(SettledTotals(*remotes[0]), "daemon 2");
}

// A payload sent by key crosses to the receiver's daemon as a key: the
// receiving app takes it from Redis itself (GETDEL), and no daemon reads it.
TEST(Federation, APayloadByKeyCrossesDaemonsAsAKey) {
  TwoDaemonsOneGhost bridge("key-across", false, {"--payload-by-key-threshold", "1024"});
  auto& [redis, a, b, ghost] = bridge;
  ASSERT_TRUE(redis.ok());
  EventLoop loop;
  auto senders = ConnectApps(loop, a.address(), 1, DeliveryMode::kPush, true, "s-");
  auto receivers = ConnectApps(loop, b.address(), 1, DeliveryMode::kPush, true, "r-");
  ASSERT_EQ(receivers.size(), 1u);
  std::map<std::string, int> seen;
  CountPayloads(receivers, seen);
  const long long mget_before = RedisCalls(redis, "mget");
  constexpr int kMessages = 5;
  for (int k = 0; k < kMessages; ++k) {
    std::string payload(4096, '\0');
    payload[0] = static_cast<char>('a' + k);
    ASSERT_TRUE(senders[0]->Send("r-0", payload).ok());
  }
  EXPECT_TRUE(loop.RunUntil([&] { return seen.size() == kMessages; }, std::chrono::seconds(10)));
  loop.RunFor(std::chrono::milliseconds(300));
  ExpectEachOnce(seen);
  EXPECT_EQ(RedisCalls(redis, "getdel"), kMessages) << "the receiving app took each by key";
  EXPECT_EQ(RedisCalls(redis, "mget"), mget_before) << "no daemon read a payload";
}

// A message for an app that never connects expires where it waits, counted
// expired, its payload key gone; once the daemons stop, every key and
// stream of the run goes with its TTL.
TEST(Federation, AnUndeliveredMessageExpiresAndTheRunLeavesNoKeysBehind) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  const std::string run = "ttl";
  const std::vector<std::string> short_ttl = {"--delivery-ttl-ms", "500", "--store-key-ttl-ms",
                                              "2000"};
  auto a = std::make_unique<DaemonProcess>(Federated(redis, 1, run, short_ttl));
  auto b = std::make_unique<DaemonProcess>(Federated(redis, 2, run, short_ttl));
  auto ghost = std::make_unique<ChildProcess>(
      TRESTLE_SIM_PATH, std::vector<std::string>{"ghost", "--daemon", a->address()});
  EventLoop loop;
  auto apps = ConnectApps(loop, b->address(), 1, DeliveryMode::kPush, true, "sender-");
  ASSERT_EQ(apps.size(), 1u);
  loop.RunFor(std::chrono::milliseconds(700));  // daemon 2 hears of the simulator
  ASSERT_TRUE(apps[0]->Send("nobody", std::string("gone\0soon", 9)).ok());
  const wire::Counters tb =
      StatsWhen(*apps[0], [](const wire::StatsReply& s) { return s.total().forwarded() == 1; })
          .total();
  EXPECT_EQ(tb.forwarded(), 1u) << tb.ShortDebugString();
  // Daemon 1 had the outcome, found "nobody" attached nowhere, and kept it
  // until delivery_ttl_ms.
  std::string status;
  for (int i = 0; i < 50 && Field(status, "bridge expired") != "1"; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    status = StatusTable(a->admin_address());
  }
  EXPECT_EQ(Field(status, "expired"), "1") << status;
  EXPECT_EQ(Field(status, "bridge expired"), "1") << status;
  EXPECT_EQ(Field(status, "bridge in flight"), "0") << status;
  for (const std::string& key : RunKeys(redis, run)) {
    EXPECT_EQ(key.find(":p:"), std::string::npos) << "payload key " << key << " left behind";
  }

  apps.clear();
  ghost.reset();
  a.reset();
  b.reset();
  std::vector<std::string> left = RunKeys(redis, run);
  for (int i = 0; i < 40 && !left.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    left = RunKeys(redis, run);
  }
  EXPECT_TRUE(left.empty()) << left.size() << " keys of the run outlived their TTL, e.g. "
                            << left.front();
}

// A malformed entry in a daemon's stream is named in its log, acknowledged
// and skipped; the daemon goes on serving (its clients outliving the
// handshake deadline).
TEST(Federation, AMalformedStreamEntryIsSkippedAndTrafficGoesOn) {
  // A short handshake deadline as well: a federated Hello is answered only
  // after its claim, and the deadline must not close it afterwards.
  TwoDaemonsOneGhost bridge("bad", false, {"--handshake-timeout-ms", "200"});
  auto& [redis, a, b, ghost] = bridge;
  ASSERT_TRUE(redis.ok());
  redisContext* c = redisConnect("127.0.0.1", redis.port());
  freeReplyObject(redisCommand(c, "SELECT 2"));
  freeReplyObject(redisCommand(c, "XADD trestle:bad:in:1 * k t id notanumber src x dst y"));
  freeReplyObject(redisCommand(c, "XADD trestle:bad:in:1 * hello world"));

  EventLoop loop;
  auto on_a = ConnectApps(loop, a.address(), 1, DeliveryMode::kPush, true, "a-");
  auto on_b = ConnectApps(loop, b.address(), 1, DeliveryMode::kPush, true, "b-");
  ASSERT_EQ(on_a.size() + on_b.size(), 2u);
  int got = 0;
  on_a[0]->OnMessage([&](Message&& m) { got += m.payload == "after the bad entries"; });
  loop.RunFor(std::chrono::milliseconds(700));
  ASSERT_TRUE(on_b[0]->Send("a-0", "after the bad entries").ok());
  EXPECT_TRUE(loop.RunUntil([&] { return got == 1; }, std::chrono::seconds(10)));
  // The good entry is acknowledged once a-0 has acknowledged the delivery.
  long long pending = -1;
  for (int i = 0; i < 50 && pending != 0; ++i) {
    auto* r = static_cast<redisReply*>(redisCommand(c, "XPENDING trestle:bad:in:1 trestled"));
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->type, REDIS_REPLY_ARRAY);
    pending = r->element[0]->integer;
    freeReplyObject(r);
    if (pending != 0) loop.RunFor(std::chrono::milliseconds(50));  // the app's Ack goes out
  }
  EXPECT_EQ(pending, 0) << "entries of daemon 1's stream were never acknowledged";
  redisFree(c);
}

TEST(Federation, AClientIdIsUniqueAcrossTheBridgeAndTheRefusalNamesTheDaemon) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  DaemonProcess a(Federated(redis, 1, "ids"));
  DaemonProcess b(Federated(redis, 2, "ids"));
  EventLoop loop;
  auto first = ConnectApps(loop, a.address(), 1, DeliveryMode::kPush, true, "node-");
  ASSERT_EQ(first.size(), 1u);

  ClientOptions options;
  options.daemon = b.address();
  options.client_id = "node-0";
  AppClient second(loop, options);
  absl::Status s = second.Connect();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("'node-0' is attached to daemon 1"), std::string::npos) << s;

  // Another run on the same Redis is another bridge: the id is free there.
  DaemonProcess other(Federated(redis, 1, "other-run"));
  options.daemon = other.address();
  AppClient elsewhere(loop, options);
  EXPECT_TRUE(elsewhere.Connect().ok());

  // Once it leaves daemon 1, daemon 2 may take it.
  first.clear();
  bool taken = false;
  for (int i = 0; i < 50 && !taken; ++i) {
    options.daemon = b.address();
    AppClient again(loop, options);
    taken = again.Connect().ok();
    if (!taken) loop.RunFor(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(taken) << "node-0 stayed claimed by daemon 1 after it left";
}

TEST(Federation, RefusesToStartWithoutRedisOrWithoutALockstepCoordinator) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  const std::string daemon = absl::StrCat(TRESTLED_PATH, " --listen 127.0.0.1:0 --admin-listen '' ");
  CommandOutput memory = RunCommand(daemon + "--federate 2>&1");
  EXPECT_NE(memory.exit_code, 0);
  EXPECT_NE(memory.text.find("federate: needs a Redis store"), std::string::npos) << memory.text;
  const std::string federated =
      absl::StrCat(daemon, "--store ", redis.url(2), " --federate --daemon-id 1 ");
  CommandOutput lockstep = RunCommand(federated + "--time-mode lockstep 2>&1");
  EXPECT_NE(lockstep.exit_code, 0);
  EXPECT_NE(lockstep.text.find("lockstep_coordinator: a lockstep run across daemons (federate) "
                               "needs it on every daemon"),
            std::string::npos)
      << lockstep.text;
  CommandOutput per_node = RunCommand(federated + "--sim-assignment per-node 2>&1");
  EXPECT_NE(per_node.exit_code, 0);
  EXPECT_NE(per_node.text.find("federate: sim_assignment must be system"), std::string::npos)
      << per_node.text;

  // Redis unreachable at start: a clear error naming the address.
  redis.Stop();
  CommandOutput down = RunCommand(federated + "2>&1");
  EXPECT_NE(down.exit_code, 0);
  EXPECT_NE(down.text.find(redis.url(2)), std::string::npos) << down.text;
}

}  // namespace
}  // namespace trestle::testing
