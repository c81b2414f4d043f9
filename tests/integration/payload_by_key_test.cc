// Payloads by key (docs/protocol.md): with a Redis store, the SDK writes a
// payload at or above the daemon's threshold to Redis itself and sends only
// its key; the receiving SDK takes it (GETDEL). Real redis-server, real
// trestled, real ghost; the tests look into Redis to see that the daemon
// never took the bytes, and that nothing is left behind.
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "app_fleet.h"
#include "daemon_process.h"
#include "raw_connection.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"

namespace trestle::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// A blocking hiredis connection for looking into the test's Redis.
class RedisLook {
 public:
  explicit RedisLook(const RedisProcess& redis, int db = 0)
      : ctx_(redisConnect("127.0.0.1", redis.port())) {
    EXPECT_TRUE(ctx_ != nullptr && ctx_->err == 0);
    if (db != 0) Integer("SELECT " + std::to_string(db));
  }
  ~RedisLook() { redisFree(ctx_); }
  // Keys matching `pattern`.
  std::vector<std::string> Keys(const std::string& pattern) {
    std::vector<std::string> keys;
    auto* r = static_cast<redisReply*>(redisCommand(ctx_, "KEYS %s", pattern.c_str()));
    if (r == nullptr) return keys;
    for (std::size_t i = 0; i < r->elements; ++i) {
      keys.emplace_back(r->element[i]->str, r->element[i]->len);
    }
    freeReplyObject(r);
    return keys;
  }
  // The one key that ends in ":<id>", or "" if none does.
  std::string KeyOf(std::uint64_t id) {
    for (const std::string& key : Keys("*:" + std::to_string(id))) return key;
    return "";
  }
  long long StrLen(const std::string& key) {
    auto* r = static_cast<redisReply*>(redisCommand(ctx_, "STRLEN %b", key.data(), key.size()));
    const long long n = r != nullptr ? r->integer : -1;
    if (r != nullptr) freeReplyObject(r);
    return n;
  }
  long long Integer(const std::string& command) {
    auto* r = static_cast<redisReply*>(redisCommand(ctx_, command.c_str()));
    const long long n = r != nullptr && r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
    if (r != nullptr) freeReplyObject(r);
    return n;
  }

 private:
  redisContext* ctx_;
};

// `size` bytes, mostly NUL, with the size and `tag` written in so that a
// mix-up shows.
std::string BinaryPayload(std::size_t size, int tag) {
  std::string p(size, '\0');
  const std::string head = absl::StrCat(tag, ":", size, ":");
  for (std::size_t i = 0; i < head.size() && i < size; ++i) p[i] = head[i];
  for (std::size_t i = head.size(); i < size; i += 4099) p[i] = static_cast<char>(i % 251);
  return p;
}

ClientOptions AppOptions(const DaemonProcess& daemon, const std::string& id) {
  ClientOptions o;
  o.daemon = daemon.address();
  o.client_id = id;
  return o;
}

// Nothing more arrives; running `app`'s loop meanwhile sends its last Ack.
void ExpectNoMore(AppClient& app) {
  absl::StatusOr<Message> m = app.Receive(milliseconds(300));
  EXPECT_EQ(m.status().code(), absl::StatusCode::kDeadlineExceeded)
      << "one more message: " << (m.ok() ? std::to_string(m->id) : m.status().ToString());
}

// `a` sends a Send by key to itself by hand (size `size`, and
// `inline_payload`, which should be empty); returns the daemon's answer: an
// Error, or nothing when it took the send.
std::optional<wire::Frame> SendByKey(RawSession& a, std::uint64_t size,
                                     const std::string& inline_payload = "") {
  wire::Frame f;
  wire::Send* s = f.mutable_send();
  s->set_dst("a");
  s->set_by_key(true);
  s->set_size(size);
  s->set_payload(inline_payload);
  a.send.WriteFrame(f);
  return a.send.ReadFrame(3000);
}

// The Error `answer` holds: its code, and whether its text has `part`.
void ExpectError(const std::optional<wire::Frame>& answer, wire::ErrorCode code,
                 const std::string& part) {
  ASSERT_TRUE(answer.has_value() && answer->has_error()) << "no Error";
  EXPECT_EQ(answer->error().code(), code) << answer->error().text();
  EXPECT_NE(answer->error().text().find(part), std::string::npos) << answer->error().text();
}

// accepted = delivered + ... + in_flight, and nothing lost.
void ExpectAllDelivered(AppClient& app, std::uint64_t n) {
  const wire::Counters t = SettledStats(app).total();
  EXPECT_EQ(t.accepted(), n) << t.ShortDebugString();
  EXPECT_EQ(t.delivered(), n) << t.ShortDebugString();
  EXPECT_EQ(t.lost_in_store(), 0u);
  EXPECT_EQ(t.in_flight(), 0u);
}

TEST(PayloadByKey, BinaryPayloadsBelowAndAboveTheThresholdArriveOnceByteForByte) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  DaemonProcess daemon({"--store", redis.url(), "--payload-by-key-threshold", "4096"});
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon.address()});
  AppClient a(AppOptions(daemon, "a"));
  AppClient b(AppOptions(daemon, "b"));
  ASSERT_TRUE(a.Connect().ok());
  ASSERT_TRUE(b.Connect().ok());
  RedisLook look(redis);

  const std::vector<std::size_t> sizes = {1, 100, 4095, 4096, 4097, 65536, 1 << 20};
  std::map<std::uint64_t, std::string> sent;
  std::map<std::uint64_t, bool> by_key;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const std::string payload = BinaryPayload(sizes[i], static_cast<int>(i));
    absl::StatusOr<std::uint64_t> id = a.Send("b", payload);
    ASSERT_TRUE(id.ok()) << id.status();
    sent[*id] = payload;
    by_key[*id] = sizes[i] >= 4096;
  }
  // b has not read anything yet (its loop runs only in its calls): the
  // payloads sent by key wait in Redis, whole, under their ids, while the
  // daemon has long written their deliveries; the daemon never took them.
  std::this_thread::sleep_for(milliseconds(500));
  for (const auto& [id, payload] : sent) {
    const std::string key = look.KeyOf(id);
    if (by_key[id]) {
      ASSERT_FALSE(key.empty()) << "no key for message " << id << " sent by key";
      EXPECT_EQ(look.StrLen(key), static_cast<long long>(payload.size())) << key;
    }
  }
  std::map<std::uint64_t, int> arrived;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    absl::StatusOr<Message> m = b.Receive(seconds(10));
    ASSERT_TRUE(m.ok()) << m.status();
    arrived[m->id]++;
    ASSERT_TRUE(sent.count(m->id)) << m->id;
    EXPECT_EQ(m->payload.size(), sent[m->id].size());
    EXPECT_TRUE(m->payload == sent[m->id]) << "payload of message " << m->id << " differs";
    EXPECT_EQ(m->src, "a");
  }
  ExpectNoMore(b);
  for (const auto& [id, n] : arrived) EXPECT_EQ(n, 1) << id;
  ExpectAllDelivered(a, sizes.size());
  // Taken by b (GETDEL) or by the daemon (inline): no payload is left.
  EXPECT_TRUE(look.Keys("*").empty()) << look.Keys("*").front();
}

TEST(PayloadByKey, ThresholdZeroSendsEveryNonEmptyPayloadByKey) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  DaemonProcess daemon({"--store", redis.url(3), "--payload-by-key-threshold", "0"});
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon.address()});
  AppClient a(AppOptions(daemon, "a"));
  AppClient b(AppOptions(daemon, "b"));
  ASSERT_TRUE(a.Connect().ok());
  ASSERT_TRUE(b.Connect().ok());
  RedisLook look(redis, 3);

  absl::StatusOr<std::uint64_t> one = a.Send("b", std::string(1, '\0'));
  absl::StatusOr<std::uint64_t> empty = a.Send("b", "");
  ASSERT_TRUE(one.ok() && empty.ok());
  std::this_thread::sleep_for(milliseconds(300));
  EXPECT_EQ(look.StrLen(look.KeyOf(*one)), 1) << "a 1-byte payload went by key, in DB 3";
  std::map<std::uint64_t, std::string> got;
  for (int i = 0; i < 2; ++i) {
    absl::StatusOr<Message> m = b.Receive(seconds(10));
    ASSERT_TRUE(m.ok()) << m.status();
    got[m->id] = m->payload;
  }
  EXPECT_EQ(got[*one], std::string(1, '\0'));
  EXPECT_EQ(got[*empty], "");  // an empty payload goes inline
  ExpectNoMore(b);
  ExpectAllDelivered(a, 2);
  EXPECT_TRUE(look.Keys("*").empty());
}

TEST(PayloadByKey, AnAppThatDoesNotTakePayloadsByKeyGetsThemInline) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  DaemonProcess daemon({"--store", redis.url(), "--payload-by-key-threshold", "1KiB"});
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon.address()});
  AppClient a(AppOptions(daemon, "a"));
  ClientOptions old_sdk = AppOptions(daemon, "old");
  old_sdk.payload_by_key = false;  // its Hello says nothing of payloads by key
  AppClient old(old_sdk);
  ASSERT_TRUE(a.Connect().ok());
  ASSERT_TRUE(old.Connect().ok());
  RedisLook look(redis);

  const std::string payload = BinaryPayload(300'000, 7);
  absl::StatusOr<std::uint64_t> id = a.Send("old", payload);
  ASSERT_TRUE(id.ok()) << id.status();
  // The daemon reads the payload for it (and deletes the key) before
  // writing the delivery, whether or not the app reads yet.
  const auto deadline = std::chrono::steady_clock::now() + seconds(10);
  while (!look.Keys("*").empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(milliseconds(20));
  }
  EXPECT_TRUE(look.Keys("*").empty()) << "the daemon did not take the payload for an old app";
  absl::StatusOr<Message> m = old.Receive(seconds(10));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->id, *id);
  EXPECT_TRUE(m->payload == payload);
  ExpectNoMore(old);
  ExpectAllDelivered(a, 1);
}

TEST(PayloadByKey, ASendByKeyIsRefusedNamingTheProblem) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  DaemonProcess daemon({"--store", redis.url()});
  RawSession a(daemon.port(), "a", wire::ROLE_APP);
  ASSERT_TRUE(a.ok);
  ASSERT_TRUE(a.welcome.has_payload_store());
  const wire::PayloadStoreInfo& store = a.welcome.payload_store();
  EXPECT_EQ(store.url(), redis.url());
  EXPECT_EQ(store.by_key_threshold(), 65536u);
  EXPECT_TRUE(store.by_key());
  EXPECT_EQ(store.key_prefix().rfind("trestle:", 0), 0u) << store.key_prefix();

  const std::uint64_t first = (a.welcome.id_prefix() << 32) | a.welcome.next_send_seq();
  auto missing = SendByKey(a, 5);
  ExpectError(missing, wire::NOT_FOUND, "'" + absl::StrCat(store.key_prefix(), first) + "'");
  EXPECT_EQ(missing->error().ref_id(), first);

  // Written with another size than announced.
  RedisLook look(redis);
  const std::string key2 = absl::StrCat(store.key_prefix(), first + 1);
  look.Integer("SET " + key2 + " abc");
  ExpectError(SendByKey(a, 5), wire::BAD_REQUEST, "'" + key2 + "' in " + redis.url() +
                                                     " holds 3 bytes, but Send.size announced 5");
  ExpectError(SendByKey(a, 3, "abc"), wire::BAD_REQUEST, "carries a payload of 3 bytes");

  const wire::Counters t = a.ctrl.Stats().total();
  EXPECT_EQ(t.rejected(), 3u);
  EXPECT_EQ(t.accepted(), 0u);
  EXPECT_EQ(t.in_flight(), 0u);
}

TEST(PayloadByKey, NoStoreForClientsWithMemoryOrWhenSwitchedOff) {
  {
    DaemonProcess daemon;
    RawSession a(daemon.port(), "a", wire::ROLE_APP);
    ASSERT_TRUE(a.ok);
    EXPECT_FALSE(a.welcome.has_payload_store());
    ExpectError(SendByKey(a, 10), wire::BAD_REQUEST, "payload store is memory");
  }
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  DaemonProcess daemon({"--store", redis.url(), "--payload-by-key", "false",
                        "--store-client-url", "redis://redis.example:6380/0"});
  RawSession a(daemon.port(), "a", wire::ROLE_APP);
  ASSERT_TRUE(a.ok);
  ASSERT_TRUE(a.welcome.has_payload_store());
  EXPECT_FALSE(a.welcome.payload_store().by_key());
  EXPECT_EQ(a.welcome.payload_store().url(), "redis://redis.example:6380/0");
  ExpectError(SendByKey(a, 10), wire::BAD_REQUEST, "payload_by_key: false");

  // The SDK then sends everything inline.
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon.address()});
  AppClient app(AppOptions(daemon, "sdk"));
  ASSERT_TRUE(app.Connect().ok());
  const std::string payload = BinaryPayload(200'000, 1);
  ASSERT_TRUE(app.Send("sdk", payload).ok());
  absl::StatusOr<Message> m = app.Receive(seconds(10));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(m->payload == payload);
}

TEST(PayloadByKey, RedisGoneSendsByKeyFailFastNamingTheUrlAndUseNoId) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  DaemonProcess daemon({"--store", redis.url(), "--payload-by-key-threshold", "1KiB"});
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon.address()});
  AppClient a(AppOptions(daemon, "a"));
  ASSERT_TRUE(a.Connect().ok());
  const std::string payload = BinaryPayload(10'000, 2);
  absl::StatusOr<std::uint64_t> before = a.Send("a", payload);
  ASSERT_TRUE(before.ok()) << before.status();
  absl::StatusOr<Message> m = a.Receive(seconds(10));
  ASSERT_TRUE(m.ok() && m->payload == payload);

  redis.Stop();
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::uint64_t> during = a.Send("a", payload);
  const auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(during.ok());
  EXPECT_EQ(during.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(during.status().message().find(redis.url()), std::string::npos) << during.status();
  std::printf("a send by key with Redis gone failed after %.1f ms\n",
              std::chrono::duration<double, std::milli>(took).count());
  // Failing again, at once, within the retry delay.
  absl::StatusOr<std::uint64_t> again = a.Send("a", payload);
  EXPECT_EQ(again.status().code(), absl::StatusCode::kUnavailable);
  // No id was used: the next send that reaches the daemon gets the next one.
  ASSERT_TRUE(redis.Restart());
  std::this_thread::sleep_for(milliseconds(500));  // the SDK's retry delay; the daemon reconnects
  absl::StatusOr<std::uint64_t> after = absl::UnavailableError("not sent");
  for (int i = 0; i < 50 && !after.ok(); ++i) {
    after = a.Send("a", payload);
    if (!after.ok()) std::this_thread::sleep_for(milliseconds(200));
  }
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(*after, *before + 1);
}

TEST(PayloadByKey, AcrossTwoFederatedDaemonsEveryPayloadArrivesOnce) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  auto federated = [&](int id) {
    return std::vector<std::string>{"--store", redis.url(2), "--federate", "--run", "bykey",
                                    "--daemon-id", std::to_string(id),
                                    "--payload-by-key-threshold", "1KiB"};
  };
  DaemonProcess d1(federated(1));
  DaemonProcess d2(federated(2));
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", d1.address()});
  EventLoop loop;
  auto on1 = ConnectApps(loop, d1.address(), 4, DeliveryMode::kPush, false, "x-");
  auto on2 = ConnectApps(loop, d2.address(), 4, DeliveryMode::kPush, false, "y-");
  ASSERT_EQ(on1.size(), 4u);
  ASSERT_EQ(on2.size(), 4u);
  std::map<std::string, int> seen;
  for (auto* side : {&on1, &on2}) {
    for (auto& app : *side) app->OnMessage([&](Message&& m) { seen[m.payload]++; });
  }
  std::vector<std::string> payloads;
  for (int i = 0; i < 4; ++i) {
    for (int k = 0; k < 6; ++k) {
      const std::size_t size = k % 2 == 0 ? 200 + k : 70'000 + 1000 * k;  // inline, by key
      payloads.push_back(BinaryPayload(size, 100 * i + k));
      ASSERT_TRUE(on1[i]->Send(absl::StrCat("y-", i), payloads.back()).ok());
      payloads.push_back(BinaryPayload(size, 1000 + 100 * i + k));
      ASSERT_TRUE(on2[i]->Send(absl::StrCat("x-", i), payloads.back()).ok());
    }
  }
  EXPECT_TRUE(loop.RunUntil([&] { return seen.size() == payloads.size(); }, seconds(30)));
  loop.RunFor(milliseconds(300));
  for (const std::string& p : payloads) EXPECT_EQ(seen[p], 1) << p.substr(0, 12);
  EXPECT_EQ(seen.size(), payloads.size());
  wire::Counters t1 = SettledStats(*on1[0]).total();
  wire::Counters t2 = SettledStats(*on2[0]).total();
  EXPECT_EQ(t1.accepted() + t2.accepted(), payloads.size());
  EXPECT_EQ(t1.lost_in_store() + t2.lost_in_store(), 0u);
  RedisLook look(redis, 2);
  EXPECT_TRUE(look.Keys("trestle:bykey:p:*").empty()) << look.Keys("trestle:bykey:p:*").front();
}

}  // namespace
}  // namespace trestle::testing
