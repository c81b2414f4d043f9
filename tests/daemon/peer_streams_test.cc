// PeerStreams against a real redis-server on a free port, driven on a
// private libuv loop: entries appended to a daemon's stream reach its
// handler in order, and each append's outcome comes back with its own tag
// (at once while Redis is away); a payload written with its append is in Redis, with its
// TTL, before the entry; the acks of a loop pass go as one XACK, and
// afterwards nothing is pending; an entry held by several messages is
// acknowledged when the last of them is released.
#include "federation/peer_streams.h"

#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "daemon_process.h"
#include "test_loop.h"

namespace trestle::daemon {
namespace {

using testing::RedisProcess;

// What the handler was given: each entry's fields, joined by '|'.
struct Recorder final : PeerStreams::EntryHandler, PeerStreams::AppendHandler {
  void OnPeerEntry(PeerStreams::EntryId id, std::span<const std::string_view> fields,
                   bool /*replayed*/) override {
    ids.push_back(id);
    std::string joined;
    for (std::string_view f : fields) joined.append(f).push_back('|');
    entries.push_back(joined);
  }
  void OnAppended(const PeerStreams::AppendTag& tag, const absl::Status& status) override {
    appended.push_back(tag.message);
    if (!status.ok()) {
      ++failures;
      last_failure = std::string(status.message());
    }
  }
  std::vector<std::uint64_t> appended;  // the tags' messages, in order
  int failures = 0;
  std::string last_failure;
  std::vector<PeerStreams::EntryId> ids;
  std::vector<std::string> entries;
};

class PeerStreamsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(redis_.ok());
    ASSERT_TRUE(commands_.Open().ok());
    ASSERT_TRUE(streams_.Open(recorder_, recorder_).ok());
  }
  void TearDown() override {
    streams_.Close();
    commands_.Close();
    uv_run(loop_.get(), UV_RUN_NOWAIT);
  }
  bool RunUntil(const std::function<bool()>& done, int ms) {
    for (int waited = 0; !done() && waited < ms; ++waited) {
      uv_run(loop_.get(), UV_RUN_NOWAIT);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return done();
  }
  // `command`'s reply from db 2, as text (integers in decimal).
  std::string Redis(const std::string& command) {
    redisContext* c = redisConnect("127.0.0.1", redis_.port());
    freeReplyObject(redisCommand(c, "SELECT 2"));
    auto* r = static_cast<redisReply*>(redisCommand(c, command.c_str()));
    std::string text;
    if (r != nullptr && r->type == REDIS_REPLY_INTEGER) text = std::to_string(r->integer);
    if (r != nullptr && r->type == REDIS_REPLY_STRING) text.assign(r->str, r->len);
    if (r != nullptr && r->type == REDIS_REPLY_ARRAY) text = std::to_string(r->elements);
    freeReplyObject(r);
    redisFree(c);
    return text;
  }
  long long Calls(const std::string& command) {
    redisContext* c = redisConnect("127.0.0.1", redis_.port());
    auto* r = static_cast<redisReply*>(redisCommand(c, "INFO commandstats"));
    const std::string info(r->str, r->len);
    freeReplyObject(r);
    redisFree(c);
    const std::string key = "cmdstat_" + command + ":calls=";
    const std::size_t at = info.find(key);
    return at == std::string::npos ? 0 : std::stoll(info.substr(at + key.size()));
  }

  RedisProcess redis_;
  TestLoop loop_;
  RedisConnection commands_{loop_.get(), "bridge", redis_.url(2), {}};
  PeerStreams streams_{loop_.get(), commands_, redis_.url(2),
                       PeerStreams::Options{.run = "t", .daemon_id = 1, .block_ms = 50}};
  Recorder recorder_;
};

TEST_F(PeerStreamsTest, APayloadGoesWithItsEntryAndAPassOfAcksIsOneXack) {
  constexpr int kEntries = 50;
  const std::string payload("pay\0load", 8);
  for (int i = 0; i < kEntries; ++i) {
    const std::string n = std::to_string(i);
    const std::string key = "trestle:t:p:" + n;
    const std::string_view fields[] = {"k", "t", "id", n};
    streams_.WritePayload(key, payload, "60000");
    streams_.Append(1, fields, {}, {.message = static_cast<std::uint64_t>(i)});
  }
  ASSERT_TRUE(RunUntil([&] { return recorder_.ids.size() == kEntries; }, 5000))
      << recorder_.ids.size() << " of " << kEntries << " entries read";
  ASSERT_EQ(recorder_.appended.size(), static_cast<std::size_t>(kEntries));
  EXPECT_EQ(recorder_.failures, 0) << recorder_.last_failure;
  for (int i = 0; i < kEntries; ++i) EXPECT_EQ(recorder_.appended[i], i) << "answered in order";
  for (int i = 0; i < kEntries; ++i) {
    EXPECT_EQ(recorder_.entries[i], "k|t|id|" + std::to_string(i) + "|") << "in order";
  }
  EXPECT_EQ(Redis("STRLEN trestle:t:p:7"), "8");
  const long long ttl = std::stoll(Redis("PTTL trestle:t:p:7"));
  EXPECT_GT(ttl, 50'000);
  EXPECT_LE(ttl, 60'000);
  EXPECT_EQ(Calls("eval"), 0) << "a payload alone needs no script";

  EXPECT_EQ(Redis("XPENDING trestle:t:in:1 trestled - + 100"), std::to_string(kEntries));
  const long long xacks = Calls("xack");
  for (PeerStreams::EntryId id : recorder_.ids) streams_.Ack(id);
  EXPECT_TRUE(streams_.AckPending(recorder_.ids.front())) << "not yet confirmed";
  streams_.FlushAcks();  // what the end of a loop pass does
  ASSERT_TRUE(RunUntil([&] { return !streams_.AckPending(recorder_.ids.back()); }, 5000));
  EXPECT_EQ(Calls("xack") - xacks, 1) << "one XACK for the pass";
  EXPECT_EQ(Redis("XPENDING trestle:t:in:1 trestled - + 100"), "0");
}

// An entry that brought several messages stays pending until the last one
// held is released, and is then acknowledged once.
TEST_F(PeerStreamsTest, AnEntryIsAcknowledgedWhenItsLastHoldGoes) {
  const std::string_view fields[] = {"k", "M", "m", "three messages"};
  streams_.Append(1, fields, {}, {.message = 1});
  ASSERT_TRUE(RunUntil([&] { return recorder_.ids.size() == 1; }, 5000));
  const PeerStreams::EntryId entry = recorder_.ids[0];
  for (int i = 0; i < 3; ++i) streams_.Hold(entry);
  EXPECT_TRUE(streams_.Held(entry));
  streams_.Release(entry);
  streams_.Release(entry);
  streams_.FlushAcks();
  EXPECT_TRUE(streams_.Held(entry));
  EXPECT_FALSE(streams_.AckPending(entry)) << "acknowledged with a message still in hand";
  streams_.Release(entry);
  EXPECT_FALSE(streams_.Held(entry));
  EXPECT_TRUE(streams_.AckPending(entry));
  streams_.FlushAcks();
  ASSERT_TRUE(RunUntil([&] { return !streams_.AckPending(entry); }, 5000));
  EXPECT_EQ(Redis("XPENDING trestle:t:in:1 trestled - + 100"), "0");
  streams_.Release(entry);  // one release too many: nothing to do
  EXPECT_FALSE(streams_.AckPending(entry));
}

// Appends while Redis is away are answered at once, each with its own tag,
// as Unavailable naming the connection.
TEST_F(PeerStreamsTest, AppendsWhileRedisIsAwayFailAtOnceWithTheirOwnTags) {
  redis_.Stop();
  ASSERT_TRUE(RunUntil([&] { return !commands_.available(); }, 5000));
  const std::string_view fields[] = {"k", "t", "id", "1"};
  for (std::uint64_t m : {7u, 8u}) {
    streams_.Append(1, fields, {}, {.message = m});
    ASSERT_EQ(recorder_.appended.size(), m - 6) << "answered inside Append";
    EXPECT_EQ(recorder_.appended.back(), m);
  }
  EXPECT_EQ(recorder_.failures, 2);
  EXPECT_NE(recorder_.last_failure.find("bridge"), std::string::npos) << recorder_.last_failure;
}

}  // namespace
}  // namespace trestle::daemon
