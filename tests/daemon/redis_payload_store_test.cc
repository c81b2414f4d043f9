// RedisPayloadStore against a real redis-server on a free port, driven on a
// private libuv loop: payloads round-trip, keys carry their TTL, a missing
// payload fails only its own message, and a lost, refused or hung Redis makes
// every call complete (kUnavailable naming the URL) until the store is back.
#include "store/redis_payload_store.h"

#include <gtest/gtest.h>
#include <hiredis/hiredis.h>
#include <signal.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <uv.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "daemon_process.h"

namespace trestle::daemon {
namespace {

using testing::RedisProcess;
using TakeResult = PayloadStore::TakeResult;

// A blocking client on the side, to look at and tamper with what the store
// keeps.
class RedisClient {
 public:
  explicit RedisClient(std::uint16_t port) : c_(redisConnect("127.0.0.1", port)) {}
  ~RedisClient() { redisFree(c_); }
  // The reply to one command as text: a string, an integer, a status or an
  // error ("ERR ..."), "nil", or the elements joined by ','.
  std::string Run(const std::vector<std::string>& args) {
    std::vector<const char*> argv;
    std::vector<std::size_t> len;
    for (const std::string& a : args) {
      argv.push_back(a.data());
      len.push_back(a.size());
    }
    auto* r = static_cast<redisReply*>(
        redisCommandArgv(c_, static_cast<int>(argv.size()), argv.data(), len.data()));
    std::string text = r == nullptr ? "no reply" : Text(r);
    freeReplyObject(r);
    return text;
  }
  long long Integer(const std::vector<std::string>& args) { return std::atoll(Run(args).c_str()); }
  std::vector<std::string> Keys() {
    std::vector<std::string> keys;
    std::stringstream all(Run({"KEYS", "trestle:*"}));
    for (std::string k; std::getline(all, k, ',');) keys.push_back(k);
    return keys;
  }
  pid_t ServerPid() {
    const std::string info = Run({"INFO", "server"});
    const auto at = info.find("process_id:");
    return at == std::string::npos ? -1 : std::atoi(info.c_str() + at + 11);
  }

 private:
  static std::string Text(const redisReply* r) {
    switch (r->type) {
      case REDIS_REPLY_INTEGER:
        return std::to_string(r->integer);
      case REDIS_REPLY_NIL:
        return "nil";
      case REDIS_REPLY_ARRAY: {
        std::string out;
        for (std::size_t i = 0; i < r->elements; ++i) {
          if (i > 0) out += ',';
          out += Text(r->element[i]);
        }
        return out;
      }
      default:
        return std::string(r->str, r->len);
    }
  }
  redisContext* c_;
};

// The answers to a sequence of Puts.
struct PutLog {
  int issued = 0;
  int answered = 0;
  int ok = 0;
  std::vector<absl::Status> errors;
  PayloadStore::PutCallback Callback() {
    ++issued;
    return [this](const absl::Status& s) {
      ++answered;
      if (s.ok()) {
        ++ok;
      } else {
        errors.push_back(s);
      }
    };
  }
};

// The answer to one TakeBatch, and how often it came.
struct TakeLog {
  int answers = 0;
  absl::Status status;
  std::vector<std::string> payloads;
  std::vector<TakeResult> results;
  PayloadStore::TakeCallback Callback() {
    return [this](const absl::Status& s, std::span<std::string> p,
                  std::span<const TakeResult> r) {
      ++answers;
      status = s;
      payloads.assign(p.begin(), p.end());
      results.assign(r.begin(), r.end());
    };
  }
};

class RedisPayloadStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(redis_.ok());
    uv_loop_init(&loop_);
  }
  void TearDown() override {
    if (store_ != nullptr) store_->Close();
    store_.reset();
    uv_run(&loop_, UV_RUN_NOWAIT);  // close callbacks
    EXPECT_EQ(uv_loop_close(&loop_), 0) << "the store left a handle open";
  }

  void OpenStore(RedisPayloadStore::Options options = {}) {
    store_ = std::make_unique<RedisPayloadStore>(&loop_, redis_.url(), options);
    absl::Status s = store_->Open();
    ASSERT_TRUE(s.ok()) << s;
    ASSERT_TRUE(store_->available());
  }

  // Runs the loop until `done()` or `timeout_ms`; returns done().
  bool RunUntil(const std::function<bool()>& done, int timeout_ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (!done() && std::chrono::steady_clock::now() < deadline) {
      uv_run(&loop_, UV_RUN_NOWAIT);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return done();
  }
  void RunFor(int ms) { RunUntil([] { return false; }, ms); }

  // Puts `payloads` under ids 1..n and waits for all of them.
  void PutAll(const std::vector<std::string>& payloads) {
    PutLog log;
    for (std::size_t i = 0; i < payloads.size(); ++i) {
      store_->Put(i + 1, std::string(payloads[i]), log.Callback());
    }
    ASSERT_TRUE(RunUntil([&] { return log.answered == log.issued; }, 5000));
    ASSERT_EQ(log.ok, log.issued);
  }

  // Declared before the store, so that callbacks the store runs as it
  // closes still find them.
  PutLog puts_;
  TakeLog take_;
  RedisProcess redis_;
  RedisClient side_{redis_.port()};
  uv_loop_t loop_;
  std::unique_ptr<RedisPayloadStore> store_;
};

void ExpectUnavailableNaming(const absl::Status& s, const std::string& url) {
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
  EXPECT_NE(s.message().find(url), std::string::npos) << s;
}

TEST_F(RedisPayloadStoreTest, PayloadsRoundTripBinarySafeAndLeaveNoKey) {
  OpenStore();
  const std::vector<std::string> payloads = {std::string(1 << 20, '\0'), "",
                                             std::string("a\0b\0c", 5)};
  PutAll(payloads);
  EXPECT_EQ(store_->size(), 3u);
  EXPECT_EQ(side_.Keys().size(), 3u);

  const std::vector<std::uint64_t> ids = {3, 1, 2};
  store_->TakeBatch(ids, take_.Callback());
  ASSERT_TRUE(RunUntil([&] { return take_.answers > 0; }, 5000));
  ASSERT_TRUE(take_.status.ok()) << take_.status;
  EXPECT_EQ(take_.payloads, (std::vector<std::string>{payloads[2], payloads[0], payloads[1]}));
  EXPECT_EQ(take_.results, std::vector<TakeResult>(3, TakeResult::kTaken));
  EXPECT_EQ(store_->size(), 0u);
  EXPECT_TRUE(RunUntil([&] { return side_.Keys().empty(); }, 2000)) << "taken keys stay in Redis";
  EXPECT_EQ(take_.answers, 1);
}

TEST_F(RedisPayloadStoreTest, EraseRemovesTheKey) {
  OpenStore();
  PutAll({"x", "y"});
  store_->Erase(1);
  store_->Erase(99);  // unknown: ignored
  store_->Flush();    // erases go once per loop pass
  EXPECT_TRUE(RunUntil([&] { return side_.Keys().size() == 1; }, 2000));
  store_->TakeBatch(std::vector<std::uint64_t>{1, 2}, take_.Callback());
  ASSERT_TRUE(RunUntil([&] { return take_.answers > 0; }, 5000));
  ASSERT_TRUE(take_.status.ok()) << take_.status;
  EXPECT_EQ(take_.results, (std::vector<TakeResult>{TakeResult::kMissing, TakeResult::kTaken}));
  EXPECT_EQ(take_.payloads[1], "y");
}

// The shared store of a federated bridge: a take leaves the payload in
// Redis (kKept) until the message is finished and erased, so that a daemon
// killed between the take and the app's Ack finds it again.
TEST_F(RedisPayloadStoreTest, AStoreThatKeepsTakenPayloadsDeletesThemOnlyWhenErased) {
  RedisPayloadStore::Options options;
  options.keep_taken = true;
  OpenStore(options);
  PutAll({"x", "y"});
  store_->TakeBatch(std::vector<std::uint64_t>{1, 2}, take_.Callback());
  ASSERT_TRUE(RunUntil([&] { return take_.answers > 0; }, 5000));
  ASSERT_TRUE(take_.status.ok()) << take_.status;
  EXPECT_EQ(take_.results, (std::vector<TakeResult>{TakeResult::kKept, TakeResult::kKept}));
  EXPECT_EQ(take_.payloads[0], "x");
  EXPECT_EQ(store_->size(), 2u);
  store_->Erase(1);
  EXPECT_EQ(store_->size(), 1u);
  store_->Flush();
  EXPECT_TRUE(RunUntil([&] { return side_.Keys().size() == 1; }, 2000));
  take_ = {};
  store_->TakeBatch(std::vector<std::uint64_t>{1, 2}, take_.Callback());
  ASSERT_TRUE(RunUntil([&] { return take_.answers > 0; }, 5000));
  // The first take's commands went before this one's on the same connection.
  EXPECT_EQ(take_.results, (std::vector<TakeResult>{TakeResult::kMissing, TakeResult::kKept}))
      << "a take deleted a kept payload, or an erase did not";
  EXPECT_EQ(take_.payloads[1], "y");
}

// Issue 8, item 9: a daemon that dies must not leave keys behind forever.
TEST_F(RedisPayloadStoreTest, KeysCarryTheTtlAndVanishAfterIt) {
  RedisPayloadStore::Options options;
  options.key_ttl_ms = 800;
  OpenStore(options);
  PutAll({"short-lived", "too"});
  const std::vector<std::string> keys = side_.Keys();
  ASSERT_EQ(keys.size(), 2u);
  for (const std::string& k : keys) {
    const long long ttl = side_.Integer({"PTTL", k});
    EXPECT_GT(ttl, 0) << k;
    EXPECT_LE(ttl, 800) << k;
  }
  // Nothing deletes them but their TTL.
  std::this_thread::sleep_for(std::chrono::milliseconds(900));
  for (const std::string& k : keys) EXPECT_EQ(side_.Integer({"EXISTS", k}), 0) << k;
  store_->TakeBatch(std::vector<std::uint64_t>{1, 2}, take_.Callback());
  ASSERT_TRUE(RunUntil([&] { return take_.answers > 0; }, 5000));
  ASSERT_TRUE(take_.status.ok()) << take_.status;
  EXPECT_EQ(take_.results, std::vector<TakeResult>(2, TakeResult::kMissing));
  EXPECT_EQ(store_->size(), 0u);
}

TEST_F(RedisPayloadStoreTest, ZeroTtlKeepsKeysWithoutExpiry) {
  RedisPayloadStore::Options options;
  options.key_ttl_ms = 0;
  OpenStore(options);
  PutAll({"kept"});
  const std::vector<std::string> keys = side_.Keys();
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(side_.Integer({"PTTL", keys[0]}), -1);
}

// Issue 9, defect 7: a payload missing from Redis fails its own message, and
// the rest of the batch is delivered.
TEST_F(RedisPayloadStoreTest, MissingPayloadsFailOnlyTheirOwnMessages) {
  OpenStore();
  PutAll({"p1", "p2", "p3", "p4", "p5"});
  const std::vector<std::string> keys = side_.Keys();
  ASSERT_EQ(keys.size(), 5u);
  // Behind the store's back: ids 2 and 4 go.
  for (const std::string& k : keys) {
    if (k.ends_with(":2") || k.ends_with(":4")) {
      EXPECT_EQ(side_.Integer({"DEL", k}), 1);
    }
  }
  store_->TakeBatch(std::vector<std::uint64_t>{1, 2, 3, 4, 5}, take_.Callback());
  ASSERT_TRUE(RunUntil([&] { return take_.answers > 0; }, 5000));
  ASSERT_TRUE(take_.status.ok()) << take_.status;
  EXPECT_EQ(take_.results, (std::vector<TakeResult>{TakeResult::kTaken, TakeResult::kMissing,
                                                    TakeResult::kTaken, TakeResult::kMissing,
                                                    TakeResult::kTaken}));
  EXPECT_EQ(take_.payloads[0], "p1");
  EXPECT_EQ(take_.payloads[2], "p3");
  EXPECT_EQ(take_.payloads[4], "p5");
  EXPECT_EQ(store_->size(), 0u);
  EXPECT_TRUE(RunUntil([&] { return side_.Keys().empty(); }, 2000));
}

// Issue 9, defect 7: a connection lost mid-batch fails the batch (the caller
// retries), and the batch's payloads are still there for the retry.
TEST_F(RedisPayloadStoreTest, ABatchWhoseConnectionIsLostFailsWholeAndKeepsItsPayloads) {
  OpenStore();
  PutAll({"a", "b", "c"});
  // Redis closes the store's connection; the store learns of it only when
  // its loop next runs, after this batch is queued.
  ASSERT_EQ(side_.Integer({"CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"}), 1);
  const std::vector<std::uint64_t> ids = {1, 2, 3};
  store_->TakeBatch(ids, take_.Callback());
  ASSERT_TRUE(RunUntil([&] { return take_.answers > 0; }, 5000));
  ExpectUnavailableNaming(take_.status, redis_.url());
  EXPECT_TRUE(take_.payloads.empty());
  EXPECT_FALSE(store_->available());
  EXPECT_EQ(side_.Keys().size(), 3u) << "a failed batch must not delete its payloads";

  ASSERT_TRUE(RunUntil([&] { return store_->available(); }, 5000)) << "no reconnect";
  TakeLog retry;
  store_->TakeBatch(ids, retry.Callback());
  ASSERT_TRUE(RunUntil([&] { return retry.answers > 0; }, 5000));
  ASSERT_TRUE(retry.status.ok()) << retry.status;
  EXPECT_EQ(retry.payloads, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(take_.answers, 1);
  EXPECT_EQ(retry.answers, 1);
}

// Issue 8, item 9: a command hiredis refuses to queue completes its call at
// once. While hiredis tears a lost connection down it answers the pending
// commands, and refuses new ones; a take issued from such an answer used to
// stay incomplete forever.
TEST_F(RedisPayloadStoreTest, ACommandHiredisCannotQueueCompletesItsCallOnce) {
  OpenStore();
  PutAll({"a", "b"});
  ASSERT_EQ(side_.Integer({"CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"}), 1);
  int put_answers = 0;
  store_->Put(7, "pending when the connection goes", [&](const absl::Status& s) {
    ++put_answers;
    ExpectUnavailableNaming(s, redis_.url());
    store_->TakeBatch(std::vector<std::uint64_t>{1, 2}, take_.Callback());
    store_->Put(8, "from the answer", puts_.Callback());
  });
  ASSERT_TRUE(RunUntil([&] { return put_answers > 0; }, 5000));
  RunFor(50);
  EXPECT_EQ(put_answers, 1);
  ASSERT_EQ(take_.answers, 1) << "the take issued during the teardown never completed";
  ExpectUnavailableNaming(take_.status, redis_.url());
  EXPECT_NE(take_.status.message().find("could not queue"), std::string::npos) << take_.status;
  ASSERT_EQ(puts_.answered, 1);
  ExpectUnavailableNaming(puts_.errors.at(0), redis_.url());
}

// Issue 9, defect 1: with Redis down long enough for connects to be
// refused, hiredis 0.14's libuv adapter swallowed the error and the store
// waited on that connect forever; every Put after it stayed unanswered.
TEST_F(RedisPayloadStoreTest, ServesAgainAfterRedisRestartsWithAGapAndLogsOnce) {
  std::ostringstream log;
  auto logger = std::make_shared<spdlog::logger>(
      "store-test", std::make_shared<spdlog::sinks::ostream_sink_st>(log));
  auto previous = spdlog::default_logger();
  spdlog::set_default_logger(logger);
  struct Restore {
    std::shared_ptr<spdlog::logger> logger;
    ~Restore() { spdlog::set_default_logger(logger); }
  } restore{previous};

  OpenStore();
  store_->Put(1, "before", puts_.Callback());
  ASSERT_TRUE(RunUntil([&] { return puts_.ok == 1; }, 2000));

  redis_.Stop();
  // Down for 1.5 s: the store notices, and its reconnects are refused. Puts
  // and takes meanwhile fail before they return.
  bool noticed = false;
  for (int i = 0; i < 15; ++i) {
    RunFor(100);
    noticed = noticed || !store_->available();
    const int answered = puts_.answered;
    store_->Put(100 + i, "while-down", puts_.Callback());
    if (!store_->available()) {
      EXPECT_EQ(puts_.answered, answered + 1) << "a Put waits";
    }
  }
  EXPECT_TRUE(noticed) << "available() stayed true with Redis down";
  store_->TakeBatch(std::vector<std::uint64_t>{1}, take_.Callback());
  EXPECT_EQ(take_.answers, 1) << "a take waits while Redis is down";
  ExpectUnavailableNaming(take_.status, redis_.url());
  RunFor(100);
  EXPECT_EQ(puts_.answered, puts_.issued) << "a Put stays unanswered while Redis is down";
  ASSERT_TRUE(redis_.Restart());

  // Within a few seconds (at most the 5 s backoff plus a connect timeout) a
  // Put goes through again.
  const int ok_before = puts_.ok;
  std::uint64_t id = 1000;
  ASSERT_TRUE(RunUntil(
      [&] {
        if (puts_.ok > ok_before) return true;
        if (puts_.answered == puts_.issued) store_->Put(id++, "after", puts_.Callback());
        return false;
      },
      12000))
      << "no Put went through after Redis came back; answered " << puts_.answered << " of "
      << puts_.issued;
  EXPECT_TRUE(store_->available());
  EXPECT_EQ(puts_.answered, puts_.issued);
  for (const absl::Status& s : puts_.errors) ExpectUnavailableNaming(s, redis_.url());

  // One line when lost and one when back, however many sends and attempts
  // there were in between.
  const std::string text = log.str();
  auto count = [&](const std::string& what) {
    int n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("connection lost"), 1) << text;
  EXPECT_EQ(count("connection back after"), 1) << text;
  EXPECT_EQ(count(redis_.url()), 2) << text;
}

// Redis stops answering (SIGSTOP) with commands outstanding: they fail
// after the reply timeout, reconnects time out while it is stopped (TCP
// connects, SELECT gets no answer), and the store is back once it resumes.
TEST_F(RedisPayloadStoreTest, AHungRedisFailsPendingCallsAfterTheReplyTimeout) {
  RedisPayloadStore::Options options;
  options.connect_timeout_ms = 300;
  options.reply_timeout_ms = 300;
  OpenStore(options);
  const pid_t pid = side_.ServerPid();
  ASSERT_GT(pid, 0);
  ASSERT_EQ(kill(pid, SIGSTOP), 0);
  struct Resume {
    pid_t pid;
    ~Resume() { kill(pid, SIGCONT); }
  } resume{pid};

  store_->Put(1, "never answered", puts_.Callback());
  store_->TakeBatch(std::vector<std::uint64_t>{1}, take_.Callback());
  EXPECT_TRUE(store_->available());
  ASSERT_TRUE(RunUntil([&] { return puts_.answered == 1 && take_.answers == 1; }, 3000))
      << "calls outstanding on a hung Redis never complete";
  ExpectUnavailableNaming(puts_.errors.at(0), redis_.url());
  EXPECT_NE(puts_.errors[0].message().find("no reply"), std::string::npos) << puts_.errors[0];
  ExpectUnavailableNaming(take_.status, redis_.url());
  EXPECT_FALSE(store_->available());
  RunFor(1000);  // reconnects: TCP connects, SELECT times out
  EXPECT_FALSE(store_->available());

  kill(pid, SIGCONT);
  ASSERT_TRUE(RunUntil([&] { return store_->available(); }, 8000));
  store_->Put(2, "answered", puts_.Callback());
  ASSERT_TRUE(RunUntil([&] { return puts_.answered == 2; }, 3000));
  EXPECT_EQ(puts_.ok, 1);
}

TEST_F(RedisPayloadStoreTest, CloseCompletesPendingCallsAndLaterCallsFailAtOnce) {
  OpenStore();
  store_->Put(1, "pending", puts_.Callback());
  store_->Close();
  ASSERT_EQ(puts_.answered, 1) << "Close() left a call pending";
  ExpectUnavailableNaming(puts_.errors.at(0), redis_.url());
  store_->TakeBatch(std::vector<std::uint64_t>{1}, take_.Callback());
  ASSERT_EQ(take_.answers, 1);
  ExpectUnavailableNaming(take_.status, redis_.url());
  EXPECT_FALSE(store_->available());
}

TEST_F(RedisPayloadStoreTest, OpenErrorsNameTheProblem) {
  auto open = [&](const std::string& url) {
    RedisPayloadStore store(&loop_, url);
    return store.Open();
  };
  absl::Status s = open("redis:/nope");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(s.message().find("'redis:/nope'"), std::string::npos) << s;

  s = open("redis://127.0.0.1:1");  // nothing listens there
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
  EXPECT_NE(s.message().find("cannot reach redis://127.0.0.1:1"), std::string::npos) << s;

  const std::string db99 = "redis://127.0.0.1:" + std::to_string(redis_.port()) + "/99";
  s = open(db99);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(s.message().find(db99 + ": SELECT 99: ERR DB index is out of range"),
            std::string::npos)
      << s;
}

}  // namespace
}  // namespace trestle::daemon

namespace trestle::daemon {
namespace {

// Payloads by key: a payload a client SET under the store's key is adopted
// by one STRLEN (held, counted, taken and erased like one put), and one
// that is missing or of another size is refused naming its key.
TEST_F(RedisPayloadStoreTest, AdoptChecksAClientsPayloadWithoutReadingIt) {
  OpenStore({.key_prefix = "trestle:t:p:"});
  const std::string payload("by\0key", 6);
  ASSERT_EQ(side_.Run({"SET", "trestle:t:p:7", payload}), "OK");
  std::vector<absl::Status> answers;
  auto record = [&](const absl::Status& s) { answers.push_back(s); };
  store_->Adopt(7, 6, record);
  store_->Adopt(8, 6, record);             // nobody wrote it
  store_->Adopt(7, 5, record);             // another size
  ASSERT_TRUE(RunUntil([&] { return answers.size() == 3; }, 5000));
  EXPECT_TRUE(answers[0].ok()) << answers[0];
  EXPECT_EQ(answers[1].code(), absl::StatusCode::kNotFound);
  EXPECT_NE(answers[1].message().find("payload key 'trestle:t:p:8' is not in " + redis_.url()),
            std::string::npos)
      << answers[1];
  EXPECT_EQ(answers[2].code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(answers[2].message().find("'trestle:t:p:7' in " + redis_.url() +
                                      " holds 6 bytes, but Send.size announced 5"),
            std::string::npos)
      << answers[2];
  EXPECT_EQ(store_->size(), 1u) << "only the adopted payload is held";
  EXPECT_EQ(side_.Run({"GET", "trestle:t:p:7"}), payload) << "adopting does not touch the key";

  const std::vector<std::uint64_t> ids = {7};
  store_->TakeBatch(ids, take_.Callback());
  ASSERT_TRUE(RunUntil([&] { return take_.answers > 0; }, 5000));
  ASSERT_TRUE(take_.status.ok()) << take_.status;
  EXPECT_EQ(take_.payloads, std::vector<std::string>{payload});
  EXPECT_EQ(store_->size(), 0u);
  EXPECT_TRUE(RunUntil([&] { return side_.Keys().empty(); }, 2000));
}

TEST_F(RedisPayloadStoreTest, AdoptFailsAtOnceNamingTheUrlWhileRedisIsAway) {
  OpenStore();
  redis_.Stop();
  ASSERT_TRUE(RunUntil([&] { return !store_->available(); }, 5000));
  absl::Status answer = absl::OkStatus();
  bool answered = false;
  store_->Adopt(1, 10, [&](const absl::Status& s) {
    answer = s;
    answered = true;
  });
  EXPECT_TRUE(answered) << "the answer came later, not at once";
  ExpectUnavailableNaming(answer, redis_.url());
}

}  // namespace
}  // namespace trestle::daemon
