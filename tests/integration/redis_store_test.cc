// trestled with its payloads in a real redis-server (store: redis://...):
// bytes survive (NULs included), keys are removed once delivered or dropped,
// traffic resumes after Redis restarts (also after a gap of refused
// connects), and a bad or unreachable store is a clear start-up error.
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "command_output.h"
#include "daemon_process.h"
#include "raw_connection.h"

namespace trestle::testing {
namespace {

long long DbSize(std::uint16_t port, int db) {
  redisContext* c = redisConnect("127.0.0.1", port);
  freeReplyObject(redisCommand(c, "SELECT %d", db));
  auto* r = static_cast<redisReply*>(redisCommand(c, "DBSIZE"));
  const long long n = r != nullptr ? r->integer : -1;
  freeReplyObject(r);
  redisFree(c);
  return n;
}

// DbSize once it equals `want`, or after 2 s: the daemon deletes keys
// asynchronously (its UNLINK may still be on its way when the app already
// has the delivery).
long long DbSizeOnceIs(std::uint16_t port, int db, long long want) {
  long long n = DbSize(port, db);
  for (int i = 0; i < 100 && n != want; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    n = DbSize(port, db);
  }
  return n;
}

// Deletes the key of each of `ids` behind the daemon's back (keys end in
// ":<id>"); returns how many it deleted.
int DeleteKeysOf(std::uint16_t port, const std::vector<std::uint64_t>& ids) {
  redisContext* c = redisConnect("127.0.0.1", port);
  auto* keys = static_cast<redisReply*>(redisCommand(c, "KEYS trestle:*"));
  int deleted = 0;
  for (std::size_t i = 0; keys != nullptr && i < keys->elements; ++i) {
    const std::string key(keys->element[i]->str, keys->element[i]->len);
    for (std::uint64_t id : ids) {
      if (key.ends_with(":" + std::to_string(id))) {
        auto* r = static_cast<redisReply*>(redisCommand(c, "DEL %b", key.data(), key.size()));
        deleted += r != nullptr && r->integer == 1;
        freeReplyObject(r);
      }
    }
  }
  freeReplyObject(keys);
  redisFree(c);
  return deleted;
}

void SendTo(RawSession& from, const std::string& dst, const std::string& payload,
            bool notify_drop = false) {
  wire::Frame f;
  f.mutable_send()->set_dst(dst);
  f.mutable_send()->set_payload(payload);
  f.mutable_send()->set_notify_drop(notify_drop);
  from.send.WriteFrame(f);
}

// Every accepted message has exactly one fate.
void ExpectCountsBalance(const wire::Counters& t) {
  EXPECT_EQ(t.accepted(),
            t.delivered() + t.dropped() + t.expired() + t.lost_in_store() + t.in_flight())
      << t.ShortDebugString();
}

TEST(RedisStore, PayloadsRoundTripThroughRedisAndLeaveNoKeys) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  DaemonProcess daemon({"--store", redis.url(3)});
  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  RawSession a(daemon.port(), "a", wire::ROLE_APP);
  ASSERT_TRUE(sim.ok && a.ok);

  const std::vector<std::string> payloads = {std::string(1 << 20, '\0'), "", "plain",
                                             std::string("a\0b\0c", 5)};
  for (const std::string& p : payloads) {
    wire::Frame f;
    f.mutable_send()->set_dst("a");
    f.mutable_send()->set_payload(p);
    f.mutable_send()->set_notify_drop(true);
    a.send.WriteFrame(f);
  }
  wire::TransitBatch all;
  while (all.transits_size() < 4) {
    auto batch = sim.recv.ReadFrame();
    ASSERT_TRUE(batch.has_value() && batch->has_transits());
    for (const auto& t : batch->transits().transits()) *all.add_transits() = t;
  }
  EXPECT_EQ(DbSize(redis.port(), 3), 4) << "the payloads wait in Redis, db 3";
  // Deliver three; drop "plain".
  wire::Frame out;
  for (const auto& t : all.transits()) {
    wire::Outcome* o = out.mutable_outcomes()->add_outcomes();
    o->set_id(t.id());
    o->set_status(t.id() == all.transits(2).id() ? wire::DROPPED : wire::DELIVERED);
  }
  sim.send.WriteFrame(out);
  std::vector<wire::Delivery> got;
  while (got.size() < 4) {
    auto batch = a.recv.ReadFrame();
    ASSERT_TRUE(batch.has_value() && batch->has_deliveries()) << got.size();
    for (const auto& d : batch->deliveries().deliveries()) got.push_back(d);
  }
  int delivered = 0, dropped = 0;
  for (const auto& d : got) {
    if (d.status() == wire::DROPPED) {
      ++dropped;
      EXPECT_EQ(d.id(), all.transits(2).id());
      continue;
    }
    ++delivered;
    for (std::size_t i = 0; i < payloads.size(); ++i) {
      if (all.transits(static_cast<int>(i)).id() == d.id()) {
        EXPECT_EQ(d.payload(), payloads[i]);
      }
    }
  }
  EXPECT_EQ(delivered, 3);
  EXPECT_EQ(dropped, 1);
  EXPECT_EQ(DbSizeOnceIs(redis.port(), 3, 0), 0) << "delivered and dropped payloads leave Redis";

  const wire::StatsReply stats = a.ctrl.Stats();
  const wire::Counters& t = stats.total();
  EXPECT_EQ(t.accepted(), 4u);
  EXPECT_EQ(t.delivered(), 3u);
  EXPECT_EQ(t.dropped(), 1u);
  EXPECT_EQ(t.in_flight(), 0u);
}

// Stops Redis, sends while it is down, waits `gap_ms` (the daemon's
// reconnects are refused meanwhile), starts it again on the same port, and
// checks that traffic resumes within seconds and the counts balance.
void RestartRedisAndExpectTrafficBack(int gap_ms) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  DaemonProcess daemon({"--store", redis.url()});
  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  RawSession a(daemon.port(), "a", wire::ROLE_APP);
  ASSERT_TRUE(sim.ok && a.ok);
  // Answers whatever transits arrive within `ms`; returns the payloads that
  // reach the app within `ms` after that.
  auto relay_once = [&](int ms) {
    AnswerTransits(sim, 1000, wire::DELIVERED, ms);
    std::vector<std::string> got;
    while (auto batch = a.recv.ReadFrame(ms)) {
      for (const auto& d : batch->deliveries().deliveries()) got.push_back(d.payload());
    }
    return got;
  };
  SendTo(a, "a", "before");
  EXPECT_EQ(relay_once(300), std::vector<std::string>{"before"});

  redis.Stop();
  SendTo(a, "a", "while-down");
  std::this_thread::sleep_for(std::chrono::milliseconds(gap_ms));
  ASSERT_TRUE(redis.Restart());
  // The daemon retries after 100 ms, doubling up to 5 s, each attempt
  // bounded by a 1 s connect timeout: within ~7 s a send goes through again.
  bool back = false;
  for (int i = 0; i < 40 && !back; ++i) {
    SendTo(a, "a", "after-" + std::to_string(i));
    for (const std::string& p : relay_once(250)) back = back || p.rfind("after-", 0) == 0;
  }
  EXPECT_TRUE(back) << "no send went through after Redis came back";
  EXPECT_TRUE(daemon.running());
  // Drain the Errors for the sends the store refused.
  while (a.send.ReadFrame(100)) {
  }

  const wire::Counters t = a.ctrl.Stats().total();
  // The send while Redis was down was refused with an Error to its sender:
  // never accepted, never silently in flight.
  EXPECT_GE(t.rejected(), 1u) << "the send while Redis was down";
  EXPECT_EQ(t.expired(), 0u);
  EXPECT_GE(t.delivered(), 2u);
  EXPECT_EQ(t.in_flight(), 0u) << "sends stuck in flight";
  ExpectCountsBalance(t);
}

TEST(RedisStore, TheDaemonReconnectsAfterRedisComesBackAndTheCountsBalance) {
  RestartRedisAndExpectTrafficBack(0);
}

// Issue 9, defect 1: Redis comes back only after a while, so the daemon's
// reconnects are refused in between. hiredis 0.14's libuv adapter dropped
// that error, the daemon waited on its first reconnect forever, and every
// Send after it stayed in flight.
TEST(RedisStore, TrafficResumesAfterARedisRestartWithAGapOfRefusedConnects) {
  RestartRedisAndExpectTrafficBack(1500);
}

// The data plane's reaction to a refused Put (issue 9, defect 1): an Error
// (UNAVAILABLE, naming the store) to the sender, counted as rejected, never
// accepted.
TEST(RedisStore, ASendTheStoreCannotTakeGetsAnErrorNamingTheStore) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  DaemonProcess daemon({"--store", redis.url()});
  RawSession a(daemon.port(), "a", wire::ROLE_APP);
  ASSERT_TRUE(a.ok);
  redis.Stop();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the daemon notices
  SendTo(a, "a", "nowhere to keep it");
  auto error = a.send.ReadFrame(3000);
  ASSERT_TRUE(error.has_value() && error->has_error()) << "the refused send was silent";
  EXPECT_EQ(error->error().code(), wire::UNAVAILABLE);
  EXPECT_NE(error->error().text().find(redis.url()), std::string::npos) << error->error().text();
  EXPECT_NE(error->error().ref_id(), 0u);
  const wire::Counters t = a.ctrl.Stats().total();
  EXPECT_EQ(t.rejected(), 1u);
  EXPECT_EQ(t.accepted(), 0u);
  EXPECT_EQ(t.in_flight(), 0u);
}

// The data plane's reaction to TakeResult::kMissing (issue 9, defect 7):
// payloads deleted from Redis while their messages are in transit fail
// those messages only. They are counted as lost_in_store (not
// expired), and senders that asked for drop reports get one (status
// LOST_IN_STORE); the rest of the batch is delivered.
TEST(RedisStore, PayloadsLostInRedisFailOnlyTheirMessagesAndAreReported) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  DaemonProcess daemon({"--store", redis.url()});
  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  RawSession a(daemon.port(), "a", wire::ROLE_APP);
  RawSession b(daemon.port(), "b", wire::ROLE_APP);
  ASSERT_TRUE(sim.ok && a.ok && b.ok);
  // p0..p3 from a to b; p1 and p2 lose their payloads, and only p1 asked
  // for a drop report.
  for (int i = 0; i < 4; ++i) SendTo(a, "b", "p" + std::to_string(i), /*notify_drop=*/i < 2);
  wire::TransitBatch all;
  while (all.transits_size() < 4) {
    auto batch = sim.recv.ReadFrame();
    ASSERT_TRUE(batch.has_value() && batch->has_transits());
    for (const auto& t : batch->transits().transits()) *all.add_transits() = t;
  }
  const std::uint64_t lost_reported = all.transits(1).id();
  ASSERT_EQ(DeleteKeysOf(redis.port(), {lost_reported, all.transits(2).id()}), 2);
  wire::Frame out;
  for (const auto& t : all.transits()) {
    wire::Outcome* o = out.mutable_outcomes()->add_outcomes();
    o->set_id(t.id());
    o->set_status(wire::DELIVERED);
  }
  sim.send.WriteFrame(out);

  std::vector<std::string> got;
  while (got.size() < 2) {
    auto batch = b.recv.ReadFrame();
    ASSERT_TRUE(batch.has_value() && batch->has_deliveries()) << got.size();
    for (const auto& d : batch->deliveries().deliveries()) {
      EXPECT_EQ(d.status(), wire::DELIVERED);
      got.push_back(d.payload());
    }
  }
  EXPECT_EQ(got, (std::vector<std::string>{"p0", "p3"}));
  auto report = a.recv.ReadFrame(3000);
  ASSERT_TRUE(report.has_value() && report->has_deliveries()) << "no drop report to the sender";
  ASSERT_EQ(report->deliveries().deliveries_size(), 1);
  EXPECT_EQ(report->deliveries().deliveries(0).id(), lost_reported);
  EXPECT_EQ(report->deliveries().deliveries(0).status(), wire::LOST_IN_STORE);
  EXPECT_FALSE(a.recv.ReadFrame(300).has_value()) << "a report for a send that did not ask";

  const wire::Counters t = a.ctrl.Stats().total();
  EXPECT_EQ(t.accepted(), 4u);
  EXPECT_EQ(t.delivered(), 2u);
  EXPECT_EQ(t.lost_in_store(), 2u);
  EXPECT_EQ(t.expired(), 0u);
  EXPECT_EQ(t.in_flight(), 0u);
  ExpectCountsBalance(t);
  EXPECT_EQ(DbSizeOnceIs(redis.port(), 0, 0), 0);
}

std::string RunDaemon(const std::string& args, int* code) {
  const CommandOutput out = RunCommand(std::string(TRESTLED_BINARY) + " " + args + " 2>&1");
  *code = out.exit_code;
  return out.text;
}

TEST(RedisStore, BadOrUnreachableStoreIsAClearStartupError) {
  int code = 0;
  std::string out = RunDaemon("--listen 127.0.0.1:0 --admin-listen '' --store redis:/nope", &code);
  EXPECT_EQ(code, 2);
  EXPECT_NE(out.find("store: 'redis:/nope'"), std::string::npos) << out;
  // Port 1 on loopback: nothing listens there.
  out = RunDaemon("--listen 127.0.0.1:0 --admin-listen '' --store redis://127.0.0.1:1", &code);
  EXPECT_EQ(code, 1);
  EXPECT_NE(out.find("cannot reach redis://127.0.0.1:1"), std::string::npos) << out;
}

}  // namespace
}  // namespace trestle::testing
