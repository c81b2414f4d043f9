// RedisConnection against a real redis-server on a free port, driven on a
// private libuv loop: commands round-trip with binary arguments, every reply
// handler runs exactly once (also when hiredis refuses the command, when the
// connection is down, and at Close), the state callback follows the
// connection across a Redis restart (a refused reconnect fails at once), and
// the reply watchdog gives up on a Redis that stopped answering.
#include "store/redis_connection.h"

#include <gtest/gtest.h>
#include <hiredis/hiredis.h>
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "daemon_process.h"
#include "test_loop.h"

namespace trestle::daemon {
namespace {

using testing::RedisProcess;

// What one reply handler was given.
struct Answer {
  absl::Status status;
  int type = -1;  // REDIS_REPLY_*, or -1 without a reply
  std::string text;
};

// Records the answers of the commands it made callbacks for, in order.
struct Answers {
  std::vector<Answer> got;
  int issued = 0;
  RedisConnection::ReplyCallback Callback() {
    ++issued;
    return [this](const absl::Status& status, const redisReply* reply) {
      Answer a;
      a.status = status;
      if (reply != nullptr) {
        a.type = reply->type;
        a.text = reply->type == REDIS_REPLY_INTEGER ? std::to_string(reply->integer)
                                                    : std::string(reply->str, reply->len);
      }
      got.push_back(std::move(a));
    };
  }
};

// The other form of handler: an object the caller owns.
struct CountingHandler final : RedisConnection::ReplyHandler {
  void OnRedisReply(const absl::Status& s, const redisReply* reply) override {
    ++runs;
    status = s;
    had_reply = reply != nullptr;
  }
  int runs = 0;
  absl::Status status;
  bool had_reply = false;
};

void ExpectUnavailable(const absl::Status& s, const std::string& url, const std::string& why) {
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
  EXPECT_NE(s.message().find("test " + url + " is unavailable: "), std::string::npos) << s;
  EXPECT_NE(s.message().find(why), std::string::npos) << s;
}

class RedisConnectionTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(redis_.ok()); }

  // Opens a connection named "test" whose state changes go to states_.
  std::unique_ptr<RedisConnection> Open(RedisConnection::Options options = {}) {
    auto c = std::make_unique<RedisConnection>(loop_.get(), "test", redis_.url(2), options);
    c->SetStateCallback([this](bool up) { states_.push_back(up); });
    const absl::Status s = c->Open();
    EXPECT_TRUE(s.ok()) << s;
    return c;
  }
  static void Send(RedisConnection& c, std::initializer_list<std::string_view> argv,
                   RedisConnection::ReplyCallback done) {
    c.Send(std::span<const std::string_view>(argv.begin(), argv.size()), std::move(done));
  }

  // Runs the loop until `done()`, for at most about `ms`; returns done().
  bool RunUntil(const std::function<bool()>& done, int ms) {
    for (int waited = 0; !done() && waited < ms; ++waited) {
      uv_run(loop_.get(), UV_RUN_NOWAIT);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return done();
  }

  // Declared before the connections: handlers and the state callback run
  // as they close.
  RedisProcess redis_;
  TestLoop loop_;
  Answers answers_;
  std::vector<bool> states_;
};

TEST_F(RedisConnectionTest, CommandsRoundTripWithBinaryArgumentsInOrder) {
  auto c = Open();
  ASSERT_TRUE(c->available());
  EXPECT_EQ(states_, std::vector<bool>{true}) << "the first connection is reported too";
  std::string value(1 << 16, '\0');
  for (std::size_t i = 0; i < value.size(); ++i) value[i] = static_cast<char>(i % 251);
  const std::string key("k\0ey\r\n", 6);

  Send(*c, {"SET", key, value}, answers_.Callback());
  Send(*c, {"GET", key}, answers_.Callback());
  Send(*c, {"STRLEN", key}, answers_.Callback());
  Send(*c, {"INCR", key}, answers_.Callback());  // an error reply, still a reply
  CountingHandler handler;
  c->Send(std::vector<std::string_view>{"PING"}, &handler);
  ASSERT_TRUE(RunUntil([&] { return answers_.got.size() == 4 && handler.runs > 0; }, 5000));

  for (const Answer& a : answers_.got) EXPECT_TRUE(a.status.ok()) << a.status;
  EXPECT_EQ(answers_.got[0].text, "OK");
  EXPECT_EQ(answers_.got[1].type, REDIS_REPLY_STRING);
  EXPECT_TRUE(answers_.got[1].text == value) << "the value came back changed";
  EXPECT_EQ(answers_.got[2].text, "65536");
  EXPECT_EQ(answers_.got[3].type, REDIS_REPLY_ERROR);
  EXPECT_NE(answers_.got[3].text.find("not an integer"), std::string::npos);
  EXPECT_TRUE(handler.status.ok() && handler.had_reply) << handler.status;

  // A second connection to the same Redis (and DB) sees the key.
  auto other = Open();
  Send(*other, {"EXISTS", key}, answers_.Callback());
  ASSERT_TRUE(RunUntil([&] { return answers_.got.size() == 5; }, 5000));
  EXPECT_EQ(answers_.got[4].text, "1");
  EXPECT_EQ(answers_.issued, 5);
  EXPECT_EQ(handler.runs, 1);
}

// While hiredis tears a lost connection down it answers the pending
// commands (no reply) and refuses new ones: a command sent from such an
// answer completes at once. So do commands sent while the connection is
// down, and an empty command.
TEST_F(RedisConnectionTest, ARefusedCommandCompletesOnceAndAtOnce) {
  auto c = Open();
  Answers refused;
  int ping_runs = 0;
  Send(*c, {"QUIT"}, answers_.Callback());  // Redis answers, then closes
  Send(*c, {"PING"}, [&](const absl::Status& s, const redisReply* reply) {
    ++ping_runs;
    EXPECT_EQ(reply, nullptr);
    ExpectUnavailable(s, redis_.url(2), "connection lost");
    Send(*c, {"PING"}, refused.Callback());
    EXPECT_EQ(refused.got.size(), 1u) << "a refused command waits";
  });
  ASSERT_TRUE(RunUntil([&] { return ping_runs > 0; }, 5000));
  ASSERT_EQ(refused.got.size(), 1u);
  ExpectUnavailable(refused.got[0].status, redis_.url(2), "could not queue");
  EXPECT_EQ(answers_.got.size(), 1u);

  ASSERT_FALSE(c->available());
  EXPECT_EQ(states_, (std::vector<bool>{true, false}));
  Send(*c, {"PING"}, refused.Callback());
  ASSERT_EQ(refused.got.size(), 2u) << "a command waits while the connection is down";
  ExpectUnavailable(refused.got[1].status, redis_.url(2), "");
  ExpectUnavailable(c->status(), redis_.url(2), "");

  Send(*c, {}, refused.Callback());
  ASSERT_EQ(refused.got.size(), 3u);
  EXPECT_EQ(refused.got[2].status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(RunUntil([&] { return c->available(); }, 5000)) << "no reconnect";
  EXPECT_EQ(ping_runs, 1);
  EXPECT_EQ(refused.got.size(), 3u);
}

// The state callback reports the loss once, not per refused reconnect, and
// the return once; a user that keeps state in Redis re-creates it from
// there (the restarted server has none).
TEST_F(RedisConnectionTest, TheStateCallbackFollowsARestartWithAGap) {
  auto c = std::make_unique<RedisConnection>(loop_.get(), "test", redis_.url(2),
                                             RedisConnection::Options{.reconnect_max_delay_ms = 400});
  int marks = 0;
  c->SetStateCallback([&](bool up) {
    states_.push_back(up);
    if (up) Send(*c, {"SET", "marker", std::to_string(++marks)}, answers_.Callback());
  });
  ASSERT_TRUE(c->Open().ok());
  ASSERT_TRUE(RunUntil([&] { return answers_.got.size() == 1; }, 5000));

  redis_.Stop();
  ASSERT_TRUE(RunUntil([&] { return !c->available(); }, 5000));
  RunUntil([] { return false; }, 1500);  // reconnects are refused meanwhile
  EXPECT_EQ(states_, (std::vector<bool>{true, false}));
  ASSERT_TRUE(redis_.Restart());

  ASSERT_TRUE(RunUntil([&] { return answers_.got.size() == 2; }, 8000)) << "not back";
  EXPECT_EQ(states_, (std::vector<bool>{true, false, true}));
  Send(*c, {"GET", "marker"}, answers_.Callback());
  ASSERT_TRUE(RunUntil([&] { return answers_.got.size() == 3; }, 5000));
  EXPECT_EQ(answers_.got[2].text, "2") << "the state re-created on reconnect is missing";
  EXPECT_EQ(marks, 2);
}

// Redis stops answering (SIGSTOP) with a command outstanding: the command
// fails after the reply timeout and the connection is reported down, once,
// while reconnects time out (TCP connects, SELECT gets no answer); it is
// back once Redis resumes.
TEST_F(RedisConnectionTest, TheReplyWatchdogGivesUpOnAStoppedRedis) {
  auto c = Open({.connect_timeout_ms = 300, .reply_timeout_ms = 300,
                 .reconnect_max_delay_ms = 300});
  Send(*c, {"INFO", "server"}, answers_.Callback());
  ASSERT_TRUE(RunUntil([&] { return answers_.got.size() == 1; }, 5000));
  const std::string& info = answers_.got[0].text;
  const auto at = info.find("process_id:");
  ASSERT_NE(at, std::string::npos) << info;
  const pid_t pid = std::atoi(info.c_str() + at + 11);
  ASSERT_EQ(kill(pid, SIGSTOP), 0);
  struct Resume {
    pid_t pid;
    ~Resume() { kill(pid, SIGCONT); }
  } resume{pid};

  Send(*c, {"PING"}, answers_.Callback());
  EXPECT_TRUE(c->available());
  ASSERT_TRUE(RunUntil([&] { return answers_.got.size() == 2; }, 3000))
      << "a command outstanding on a stopped Redis never completed";
  ExpectUnavailable(answers_.got[1].status, redis_.url(2), "no reply for");
  EXPECT_FALSE(c->available());
  RunUntil([] { return false; }, 1000);  // reconnects time out
  EXPECT_EQ(states_, (std::vector<bool>{true, false}));

  kill(pid, SIGCONT);
  ASSERT_TRUE(RunUntil([&] { return c->available(); }, 8000));
  EXPECT_EQ(states_, (std::vector<bool>{true, false, true}));
  Send(*c, {"PING"}, answers_.Callback());
  ASSERT_TRUE(RunUntil([&] { return answers_.got.size() == 3; }, 3000));
  EXPECT_EQ(answers_.got[2].text, "PONG");
}

// A reconnect to a Redis that is down is refused; the socket's error reaches
// hiredis (redis_loop_adapter.h), so the attempt fails at once and the next
// one follows after the reconnect delay. Debian's libuv adapter dropped that
// error: each attempt then waited out connect_timeout_ms, here 20 s, and the
// connection came back that long after Redis did.
TEST_F(RedisConnectionTest, ARefusedReconnectFailsAtOnceNotAfterTheConnectTimeout) {
  auto c = Open({.connect_timeout_ms = 20'000, .reconnect_min_delay_ms = 50,
                 .reconnect_max_delay_ms = 100});
  redis_.Stop();
  ASSERT_TRUE(RunUntil([&] { return !c->available(); }, 5000));
  RunUntil([] { return false; }, 500);  // a few refused attempts
  ASSERT_TRUE(redis_.Restart());
  EXPECT_TRUE(RunUntil([&] { return c->available(); }, 5000))
      << "not back within 5 s of Redis: a refused attempt waited for its connect timeout";
  EXPECT_EQ(states_, (std::vector<bool>{true, false, true}));
}

TEST_F(RedisConnectionTest, CloseCompletesPendingCommandsWithoutAStateChange) {
  auto c = Open();
  Send(*c, {"PING"}, answers_.Callback());
  c->Close();
  ASSERT_EQ(answers_.got.size(), 1u) << "Close() left a command pending";
  ExpectUnavailable(answers_.got[0].status, redis_.url(2), "closed");
  Send(*c, {"PING"}, answers_.Callback());
  ASSERT_EQ(answers_.got.size(), 2u);
  EXPECT_FALSE(c->available());
  EXPECT_EQ(states_, std::vector<bool>{true});
  EXPECT_EQ(c->Open().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace trestle::daemon
