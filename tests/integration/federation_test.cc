// Several trestled processes sharing one real redis-server form one bridge
// (--federate): apps of either daemon reach each other through one ghost
// simulator attached to one of them, every message exactly once; client ids
// are unique across the bridge; each daemon's counts balance with
// from_peers and forwarded, and the bridge's sums match.
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
#include "trestle/app_client.h"
#include "trestle/event_loop.h"

namespace trestle::testing {
namespace {

std::vector<std::string> Federated(const RedisProcess& redis, int daemon_id,
                                   const std::string& run) {
  return {"--store", redis.url(2), "--federate", "--run", run, "--daemon-id",
          std::to_string(daemon_id)};
}

// accepted + from_peers + recovered = delivered + dropped + expired +
// lost_in_store + forwarded + in_flight.
void ExpectBalanced(const wire::Counters& t, const std::string& who) {
  EXPECT_EQ(t.accepted() + t.from_peers() + t.recovered(),
            t.delivered() + t.dropped() + t.expired() + t.lost_in_store() + t.forwarded() +
                t.in_flight())
      << who << ": " << t.ShortDebugString();
}

// A Redis command's integer reply on db 2 of `redis` (-1 on error).
long long RedisInteger(const RedisProcess& redis, const std::string& command) {
  redisContext* c = redisConnect("127.0.0.1", redis.port());
  freeReplyObject(redisCommand(c, "SELECT 2"));
  auto* r = static_cast<redisReply*>(redisCommand(c, command.c_str()));
  const long long n = r != nullptr && r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
  freeReplyObject(r);
  redisFree(c);
  return n;
}

// The value of row `name` in `trestle status`'s table ("" if absent).
std::string Field(const std::string& table, const std::string& name) {
  std::size_t at = 0;
  while ((at = table.find(name, at)) != std::string::npos) {
    const bool line_start = at == 0 || table[at - 1] == '\n';
    const std::size_t end = table.find('\n', at);
    const std::string line = table.substr(at, end - at);
    at += name.size();
    if (!line_start || line.size() <= name.size() || line[name.size()] != ' ') continue;
    const std::size_t value = line.find_first_not_of(' ', name.size());
    return value == std::string::npos ? "" : line.substr(value);
  }
  return "";
}

wire::Counters SettledTotals(AppClient& app) {
  return StatsWhen(app, [](const wire::StatsReply& s) { return s.total().in_flight() == 0; })
      .total();
}

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
        int total = 0;
        for (const auto& [payload, n] : seen) total += n;
        return total >= expect_total;
      },
      std::chrono::seconds(60)));
  loop.RunFor(std::chrono::milliseconds(300));  // a duplicate would arrive now
  return seen;
}

TEST(Federation, TwoDaemonsOneGhostAHundredAppsEachEveryMessageExactlyOnce) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  DaemonProcess a(Federated(redis, 1, "exactly-once"));
  DaemonProcess b(Federated(redis, 2, "exactly-once"));
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", a.address()});

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
  for (const auto& [payload, n] : seen) {
    EXPECT_EQ(n, 1) << "payload " << payload.substr(0, payload.find('\0')) << " arrived " << n
                    << " times";
  }
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " messages reached the wrong app, e.g. "
                             << wrong.begin()->second;

  const wire::Counters ta = SettledTotals(*on_a[0]);
  const wire::Counters tb = SettledTotals(*on_b[0]);
  ExpectBalanced(ta, "daemon 1");
  ExpectBalanced(tb, "daemon 2");
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
    status = RunCommand(absl::StrCat(TRESTLE_CLI_PATH, " status --admin ", a.admin_address(),
                                     " 2>&1"))
                 .text;
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

  // Nothing left in the streams once everything is delivered.
  redisContext* c = redisConnect("127.0.0.1", redis.port());
  freeReplyObject(redisCommand(c, "SELECT 2"));
  for (int d : {1, 2}) {
    auto* r = static_cast<redisReply*>(
        redisCommand(c, "XLEN trestle:exactly-once:in:%d", d));
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->integer, 0) << "entries left in daemon " << d << "'s stream";
    freeReplyObject(r);
    r = static_cast<redisReply*>(redisCommand(c, "XPENDING trestle:exactly-once:in:%d trestled", d));
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->type, REDIS_REPLY_ARRAY);
    EXPECT_EQ(r->element[0]->integer, 0) << "entries of daemon " << d << " not acknowledged";
    freeReplyObject(r);
  }
  redisFree(c);
}

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
  std::map<std::string, int> seen;
  for (auto& app : apps) app->OnMessage([&seen](Message&& m) { seen[m.payload]++; });
  auto send_round = [&](int round) {
    for (int i = 0; i < kApps; ++i) {
      for (int k = 0; k < 10; ++k) {
        auto id = apps[i]->Send(absl::StrCat("n-", (i + 1) % kApps),
                                absl::StrCat("round ", round, " from ", i, " #", k));
        ASSERT_TRUE(id.ok()) << id.status();
      }
    }
  };
  auto count = [&] {
    int total = 0;
    for (const auto& [payload, n] : seen) total += n;
    return total;
  };
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
  loop.RunFor(std::chrono::milliseconds(200));
  ::kill(a->pid(), SIGKILL);
  ::kill(ghost->pid(), SIGKILL);
  ghost->Wait(5000);
  a->Stop();
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
  for (const auto& [payload, n] : seen) EXPECT_EQ(n, 1) << payload << " arrived " << n << " times";
  const wire::Counters tb = SettledTotals(*apps[0]);
  ExpectBalanced(tb, "daemon 2");
  EXPECT_EQ(tb.delivered(), 2u * kApps * 10) << tb.ShortDebugString();
  EXPECT_EQ(tb.expired() + tb.lost_in_store() + tb.dropped(), 0u) << tb.ShortDebugString();
}

// An app's daemon is killed (SIGKILL) while it holds messages its apps sent
// (no simulator anywhere yet, so they wait in its queue and its journal).
// Restarted, it takes them up from its journal: each reaches its app
// exactly once, on this daemon and on the other, and the journal empties.
// Sessions opened after the restart get ids the first life never used.
TEST(Federation, AnAppsDaemonKilledWithMessagesInHandTakesThemUpFromItsJournal) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  const std::string run = "journal";
  DaemonProcess b(Federated(redis, 2, run));
  auto a = std::make_unique<DaemonProcess>(Federated(redis, 1, run));
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

  a = std::make_unique<DaemonProcess>(Federated(redis, 1, run));
  senders = ConnectApps(loop, a->address(), kApps, DeliveryMode::kPush, true, "s-");
  auto receivers_a = ConnectApps(loop, a->address(), kApps, DeliveryMode::kPush, true, "l-");
  ASSERT_EQ(receivers_a.size(), static_cast<std::size_t>(kApps));
  for (auto& app : receivers_a) app->OnMessage(record);
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", a->address()});
  auto count = [&] {
    int total = 0;
    for (const auto& [payload, n] : seen) total += n;
    return total;
  };
  EXPECT_TRUE(loop.RunUntil([&] { return count() >= static_cast<int>(kRound); },
                            std::chrono::seconds(30)));
  // The restarted daemon's new sessions send a second round.
  send_round(2);
  EXPECT_TRUE(loop.RunUntil([&] { return count() >= static_cast<int>(2 * kRound); },
                            std::chrono::seconds(30)));
  loop.RunFor(std::chrono::milliseconds(500));  // a duplicate would arrive now
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(2 * kRound));
  for (const auto& [payload, n] : seen) EXPECT_EQ(n, 1) << payload << " arrived " << n << " times";
  EXPECT_EQ(ids.size(), static_cast<std::size_t>(2 * kRound))
      << "message ids of the second life collide with the first's";

  const wire::Counters ta = SettledTotals(*senders[0]);
  ExpectBalanced(ta, "daemon 1");
  EXPECT_EQ(ta.recovered(), kRound) << ta.ShortDebugString();
  EXPECT_EQ(ta.accepted(), kRound) << ta.ShortDebugString();
  EXPECT_EQ(ta.delivered(), kRound) << "the l- apps' messages of both rounds";
  EXPECT_EQ(ta.forwarded(), kRound) << "the r- apps' messages of both rounds";
  EXPECT_EQ(ta.expired() + ta.lost_in_store() + ta.dropped(), 0u) << ta.ShortDebugString();
  const wire::Counters tb = SettledTotals(*receivers_b[0]);
  ExpectBalanced(tb, "daemon 2");
  EXPECT_EQ(tb.from_peers(), kRound);
  EXPECT_EQ(tb.delivered(), kRound);
  long long left = 0;
  for (int i = 0; i < 50 && (left = RedisInteger(redis, "XLEN trestle:journal:journal:1")) != 0;
       ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(left, 0) << "journal entries of finished messages left behind";
}

// The receivers' daemon is killed (SIGKILL) in the middle of a stream of
// deliveries from the other daemon; restarted, it replays its stream, the
// same app objects connect again (new sessions), and each message reaches
// its app exactly once: what the daemon had not finished comes again, and
// what an app had already taken is dropped by its SDK (docs/protocol.md,
// the duplicate window).
TEST(Federation, AReceiversDaemonKilledMidDeliveryDeliversEachMessageOnce) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  const std::string run = "receivers-killed";
  DaemonProcess b(Federated(redis, 2, run));
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", b.address()});
  auto a = std::make_unique<DaemonProcess>(Federated(redis, 1, run));
  constexpr int kApps = 10;
  constexpr int kPerApp = 100;
  constexpr int kTotal = kApps * kPerApp;
  EventLoop loop;
  auto receivers = ConnectApps(loop, a->address(), kApps, DeliveryMode::kPush, true, "r-");
  auto senders = ConnectApps(loop, b.address(), kApps, DeliveryMode::kPush, true, "s-");
  ASSERT_EQ(receivers.size(), static_cast<std::size_t>(kApps));
  ASSERT_EQ(senders.size(), static_cast<std::size_t>(kApps));
  std::map<std::string, int> seen;
  int total = 0;
  pid_t kill_at_quarter = a->pid();
  for (auto& app : receivers) {
    app->OnMessage([&](Message&& m) {
      seen[m.payload]++;
      total++;
      // Killed while the apps hold deliveries they have not acknowledged
      // yet (acks go out after this loop pass): those come again.
      if (total == kTotal / 4 && kill_at_quarter != 0) {
        ::kill(kill_at_quarter, SIGKILL);
        kill_at_quarter = 0;
      }
    });
  }
  for (int k = 0; k < kPerApp; ++k) {
    for (int i = 0; i < kApps; ++i) {
      ASSERT_TRUE(senders[i]->Send(absl::StrCat("r-", i), absl::StrCat("s-", i, " #", k)).ok());
    }
  }
  ASSERT_TRUE(loop.RunUntil([&] { return kill_at_quarter == 0; }, std::chrono::seconds(30)));
  const std::uint16_t port = a->port();
  a->Stop();
  a.reset();
  const int before = total;
  EXPECT_LT(before, kTotal) << "the kill came too late to test anything";
  loop.RunFor(std::chrono::milliseconds(200));

  // Restarted where the apps look for it.
  std::vector<std::string> same_port = Federated(redis, 1, run);
  same_port.insert(same_port.end(), {"--listen", absl::StrCat("127.0.0.1:", port)});
  a = std::make_unique<DaemonProcess>(same_port);
  int connected = 0;
  for (auto& app : receivers) {
    ASSERT_TRUE(app->ConnectAsync([&](absl::Status s) {
                     EXPECT_TRUE(s.ok()) << s;
                     connected++;
                   }).ok());
  }
  ASSERT_TRUE(loop.RunUntil([&] { return connected == kApps; }, std::chrono::seconds(20)));
  EXPECT_TRUE(loop.RunUntil([&] { return static_cast<int>(seen.size()) == kTotal; },
                            std::chrono::seconds(30)))
      << seen.size() << " of " << kTotal << " messages arrived (" << before
      << " before the kill)";
  loop.RunFor(std::chrono::milliseconds(500));  // a duplicate would arrive now
  EXPECT_EQ(total, kTotal) << "deliveries counted by the apps, duplicates included";
  for (const auto& [payload, n] : seen) EXPECT_EQ(n, 1) << payload << " arrived " << n << " times";
  const wire::Counters tb = SettledTotals(*senders[0]);
  ExpectBalanced(tb, "daemon 2");
  EXPECT_EQ(tb.forwarded(), static_cast<std::uint64_t>(kTotal)) << tb.ShortDebugString();
  const wire::Counters ta = SettledTotals(*receivers[0]);
  ExpectBalanced(ta, "daemon 1 after its restart");
  EXPECT_EQ(ta.expired() + ta.dropped(), 0u) << ta.ShortDebugString();
}

// How many times Redis has run `command` (INFO commandstats).
long long RedisCalls(const RedisProcess& redis, const std::string& command) {
  redisContext* c = redisConnect("127.0.0.1", redis.port());
  auto* r = static_cast<redisReply*>(redisCommand(c, "INFO commandstats"));
  long long calls = 0;
  if (r != nullptr && r->type == REDIS_REPLY_STRING) {
    const std::string info(r->str, r->len);
    const std::string key = "cmdstat_" + command + ":calls=";
    if (std::size_t at = info.find(key); at != std::string::npos) {
      calls = std::stoll(info.substr(at + key.size()));
    }
  }
  freeReplyObject(r);
  redisFree(c);
  return calls;
}

// A payload sent by key crosses to the receiver's daemon as a key: the
// receiving app takes it from Redis itself (GETDEL), and no daemon reads it.
TEST(Federation, APayloadByKeyCrossesDaemonsAsAKey) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  auto args = [&](int id) {
    std::vector<std::string> a = Federated(redis, id, "key-across");
    a.insert(a.end(), {"--payload-by-key-threshold", "1024"});
    return a;
  };
  DaemonProcess a(args(1));
  DaemonProcess b(args(2));
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", a.address()});
  EventLoop loop;
  auto senders = ConnectApps(loop, a.address(), 1, DeliveryMode::kPush, true, "s-");
  auto receivers = ConnectApps(loop, b.address(), 1, DeliveryMode::kPush, true, "r-");
  ASSERT_EQ(receivers.size(), 1u);
  std::map<std::string, int> seen;
  receivers[0]->OnMessage([&seen](Message&& m) { seen[m.payload]++; });
  const long long mget_before = RedisCalls(redis, "mget");
  constexpr int kMessages = 5;
  for (int k = 0; k < kMessages; ++k) {
    std::string payload(4096, '\0');
    payload[0] = static_cast<char>('a' + k);
    ASSERT_TRUE(senders[0]->Send("r-0", payload).ok());
  }
  EXPECT_TRUE(loop.RunUntil([&] { return seen.size() == kMessages; }, std::chrono::seconds(10)));
  loop.RunFor(std::chrono::milliseconds(300));
  for (const auto& [payload, n] : seen) EXPECT_EQ(n, 1);
  EXPECT_EQ(RedisCalls(redis, "getdel"), kMessages) << "the receiving app took each by key";
  EXPECT_EQ(RedisCalls(redis, "mget"), mget_before) << "no daemon read a payload";
}

// Keys of the run in Redis db 2 (KEYS: fine on a test's private server).
std::vector<std::string> RunKeys(const RedisProcess& redis, const std::string& run) {
  redisContext* c = redisConnect("127.0.0.1", redis.port());
  freeReplyObject(redisCommand(c, "SELECT 2"));
  auto* r = static_cast<redisReply*>(redisCommand(c, "KEYS trestle:%s:*", run.c_str()));
  std::vector<std::string> keys;
  for (std::size_t i = 0; r != nullptr && i < r->elements; ++i) {
    keys.emplace_back(r->element[i]->str, r->element[i]->len);
  }
  freeReplyObject(r);
  redisFree(c);
  return keys;
}

// A message for an app that never connects expires where it waits, counted
// expired, its payload key gone; once the daemons stop, every key and
// stream of the run goes with its TTL.
TEST(Federation, AnUndeliveredMessageExpiresAndTheRunLeavesNoKeysBehind) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  const std::string run = "ttl";
  std::vector<std::string> short_ttl = {"--delivery-ttl-ms", "500", "--store-key-ttl-ms", "2000"};
  std::vector<std::string> args_a = Federated(redis, 1, run);
  std::vector<std::string> args_b = Federated(redis, 2, run);
  args_a.insert(args_a.end(), short_ttl.begin(), short_ttl.end());
  args_b.insert(args_b.end(), short_ttl.begin(), short_ttl.end());
  auto a = std::make_unique<DaemonProcess>(args_a);
  auto b = std::make_unique<DaemonProcess>(args_b);
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
    status = RunCommand(absl::StrCat(TRESTLE_CLI_PATH, " status --admin ", a->admin_address(),
                                     " 2>&1"))
                 .text;
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

// A message for an app attached nowhere waits on the daemon that has its
// outcome; when the app attaches to another daemon later, the message is
// handed on to it and delivered there, once.
TEST(Federation, AMessageForAnAppThatAttachesLaterToAnotherDaemonFindsIt) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  const std::string run = "late";
  DaemonProcess a(Federated(redis, 1, run));
  DaemonProcess b(Federated(redis, 2, run));
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", a.address()});
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
  late[0]->OnMessage([&seen](Message&& m) { seen[m.payload]++; });
  EXPECT_TRUE(loop.RunUntil([&] { return seen.size() == 5; }, std::chrono::seconds(10)));
  loop.RunFor(std::chrono::milliseconds(300));
  for (const auto& [payload, n] : seen) EXPECT_EQ(n, 1) << payload << " arrived " << n << " times";
  const wire::Counters ta = SettledTotals(*senders[0]);
  ExpectBalanced(ta, "daemon 1");
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
  // It leaves daemon 2 and comes back on daemon 3 at once.
  ASSERT_TRUE(first[0]->Close(std::chrono::seconds(5)).ok());
  first.clear();
  auto second = ConnectApps(loop, c.address(), 1, DeliveryMode::kPush, true, "mover-");
  ASSERT_EQ(second.size(), 1u);
  second[0]->OnMessage(record);
  for (int k = 0; k < 5; ++k) ASSERT_TRUE(senders[0]->Send("mover-0", absl::StrCat("on c #", k)).ok());
  EXPECT_TRUE(loop.RunUntil([&] { return seen.size() == 10; }, std::chrono::seconds(10)))
      << seen.size() << " of 10 arrived";
  loop.RunFor(std::chrono::milliseconds(300));
  for (const auto& [payload, n] : seen) EXPECT_EQ(n, 1) << payload << " arrived " << n << " times";
  const wire::Counters tc = SettledTotals(*second[0]);
  EXPECT_EQ(tc.delivered(), 5u) << tc.ShortDebugString();
  EXPECT_EQ(tc.expired() + tc.lost_in_store(), 0u) << tc.ShortDebugString();
}

// Redis is restarted (its data kept in an append-only file, as in
// production) while messages of both daemons are held by a paused
// simulator: the daemons reconnect, and every message of before, during and
// after reaches its app exactly once.
TEST(Federation, RedisRestartedMidRunLosesNothingAndDuplicatesNothing) {
  RedisProcess redis(/*append_only=*/true);
  ASSERT_TRUE(redis.ok());
  const std::string run = "redis-restart";
  DaemonProcess a(Federated(redis, 1, run));
  DaemonProcess b(Federated(redis, 2, run));
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", a.address()});
  constexpr int kApps = 10;
  constexpr int kPerApp = 5;
  EventLoop loop;
  auto on_a = ConnectApps(loop, a.address(), kApps, DeliveryMode::kPush, true, "a-");
  auto on_b = ConnectApps(loop, b.address(), kApps, DeliveryMode::kPush, true, "b-");
  ASSERT_EQ(on_b.size(), static_cast<std::size_t>(kApps));
  std::map<std::string, int> seen;
  for (auto* side : {&on_a, &on_b}) {
    for (auto& app : *side) app->OnMessage([&seen](Message&& m) { seen[m.payload]++; });
  }
  auto send_round = [&](int round) {
    for (int i = 0; i < kApps; ++i) {
      for (int k = 0; k < kPerApp; ++k) {
        ASSERT_TRUE(on_a[i]->Send(absl::StrCat("b-", i), absl::StrCat(round, " a", i, "#", k)).ok());
        ASSERT_TRUE(on_b[i]->Send(absl::StrCat("a-", i), absl::StrCat(round, " b", i, "#", k)).ok());
      }
    }
  };
  auto count = [&] {
    int total = 0;
    for (const auto& [payload, n] : seen) total += n;
    return total;
  };
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
      const std::string status =
          RunCommand(absl::StrCat(TRESTLE_CLI_PATH, " status --admin ", d->admin_address(), " 2>&1"))
              .text;
      const std::string bridge = Field(status, "bridge");
      fresh = fresh && (bridge.find("(as of 0.") != std::string::npos);
    }
    if (fresh) break;
    loop.RunFor(std::chrono::milliseconds(100));
  }
  send_round(3);
  EXPECT_TRUE(loop.RunUntil([&] { return count() >= 3 * kRound; }, std::chrono::seconds(30)));
  loop.RunFor(std::chrono::milliseconds(500));  // a duplicate would arrive now
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(3 * kRound));
  for (const auto& [payload, n] : seen) EXPECT_EQ(n, 1) << payload << " arrived " << n << " times";
  for (auto* side : {&on_a, &on_b}) {
    const wire::Counters t = SettledTotals(*(*side)[0]);
    ExpectBalanced(t, side == &on_a ? "daemon 1" : "daemon 2");
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
  RedisProcess redis(/*append_only=*/true);
  ASSERT_TRUE(redis.ok());
  const std::string run = "redis-down";
  DaemonProcess a(Federated(redis, 1, run));
  DaemonProcess b(Federated(redis, 2, run));
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", a.address()});
  EventLoop loop;
  auto on_a = ConnectApps(loop, a.address(), 2, DeliveryMode::kPush, true, "a-");
  auto on_b = ConnectApps(loop, b.address(), 1, DeliveryMode::kPush, true, "b-");
  ASSERT_EQ(on_a.size(), 2u);
  ASSERT_EQ(on_b.size(), 1u);
  std::map<std::string, int> seen;
  for (auto* side : {&on_a, &on_b}) {
    for (auto& app : *side) app->OnMessage([&seen](Message&& m) { seen[m.payload]++; });
  }
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
  for (const auto& [payload, n] : seen) EXPECT_EQ(n, 1) << payload << " arrived " << n << " times";
  for (auto* side : {&on_a, &on_b}) {
    const wire::Counters t = SettledTotals(*(*side)[0]);
    ExpectBalanced(t, side == &on_a ? "daemon 1" : "daemon 2");
    EXPECT_EQ(t.rejected() + t.expired() + t.lost_in_store() + t.dropped(), 0u)
        << t.ShortDebugString();
    EXPECT_EQ(t.in_flight(), 0u) << t.ShortDebugString();
  }
}

// A malformed entry in a daemon's stream is named in its log, acknowledged
// and skipped; the daemon goes on serving (its clients outliving the
// handshake deadline).
TEST(Federation, AMalformedStreamEntryIsSkippedAndTrafficGoesOn) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  // A short handshake deadline as well: a federated Hello is answered only
  // after its claim, and the deadline must not close it afterwards.
  std::vector<std::string> args_a = Federated(redis, 1, "bad");
  std::vector<std::string> args_b = Federated(redis, 2, "bad");
  for (auto* args : {&args_a, &args_b}) {
    args->insert(args->end(), {"--handshake-timeout-ms", "200"});
  }
  DaemonProcess a(args_a);
  DaemonProcess b(args_b);
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", a.address()});
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

TEST(Federation, RefusesToStartWithoutRedisOrWithLockstep) {
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
  EXPECT_NE(lockstep.text.find("federate: lockstep time"), std::string::npos) << lockstep.text;
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
