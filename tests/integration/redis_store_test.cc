// trestled with its payloads in a real redis-server (store: redis://...):
// bytes survive (NULs included), keys are removed once delivered or dropped,
// and a bad or unreachable store is a clear start-up error.
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include <array>
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
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
  EXPECT_EQ(DbSize(redis.port(), 3), 0) << "delivered and dropped payloads leave Redis";

  const wire::StatsReply stats = a.ctrl.Stats();
  const wire::Counters& t = stats.total();
  EXPECT_EQ(t.accepted(), 4u);
  EXPECT_EQ(t.delivered(), 3u);
  EXPECT_EQ(t.dropped(), 1u);
  EXPECT_EQ(t.in_flight(), 0u);
}

TEST(RedisStore, TheDaemonReconnectsAfterRedisComesBackAndTheCountsBalance) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  DaemonProcess daemon({"--store", redis.url()});
  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  RawSession a(daemon.port(), "a", wire::ROLE_APP);
  ASSERT_TRUE(sim.ok && a.ok);
  auto send = [&](const std::string& payload) {
    wire::Frame f;
    f.mutable_send()->set_dst("a");
    f.mutable_send()->set_payload(payload);
    a.send.WriteFrame(f);
  };
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
  send("before");
  EXPECT_EQ(relay_once(300), std::vector<std::string>{"before"});

  redis.Stop();
  send("while-down");  // refused by the store: counted as expired
  ASSERT_TRUE(redis.Restart());
  // The daemon retries after 100 ms, 200 ms, ...: within a few seconds a
  // send goes through again.
  bool back = false;
  for (int i = 0; i < 40 && !back; ++i) {
    send("after-" + std::to_string(i));
    for (const std::string& p : relay_once(200)) back = back || p.rfind("after-", 0) == 0;
  }
  EXPECT_TRUE(back) << "no send went through after Redis came back";
  EXPECT_TRUE(daemon.running());

  const wire::Counters t = a.ctrl.Stats().total();
  EXPECT_GE(t.expired(), 1u) << "the send while Redis was down";
  EXPECT_GE(t.delivered(), 2u);
  EXPECT_EQ(t.in_flight(), 0u);
  EXPECT_EQ(t.accepted(), t.delivered() + t.dropped() + t.expired() + t.in_flight());
}

std::string RunDaemon(const std::string& args, int* code) {
  std::string out;
  FILE* p = popen((std::string(TRESTLED_BINARY) + " " + args + " 2>&1").c_str(), "r");
  std::array<char, 4096> buf;
  while (std::size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  *code = WEXITSTATUS(pclose(p));
  return out;
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
