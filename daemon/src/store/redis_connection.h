// RedisConnection: one connection to a Redis server (redis://HOST:PORT[/DB],
// read by platform::ParseRedisUrl) that stays up on its own, for any user
// that queues commands on it (the payload store; on a federated daemon the
// bridge's directory, streams and journal). It speaks through hiredis's
// async context on the caller's libuv loop (redis_loop_adapter.h): nothing
// blocks the loop after Open().
//
// Commands. Send() queues any command in argv form (binary-safe: NUL bytes
// survive), pipelined behind the ones before it. Its reply handler runs
// exactly once: with the reply (which may be a Redis error reply), or with
// kUnavailable if the command got none.
//
// Connection. It owns its connection state and does not depend on
// hiredis's connect callback, which hiredis runs only if the socket's error
// reaches it (Debian's hiredis 0.14 libuv adapter dropped poll errors, so it
// never ran for a refused connect; redis_loop_adapter.h hands them on):
//   - A connection counts as up once Redis has answered its `SELECT <db>`,
//     within connect_timeout_ms of starting it; otherwise it is abandoned and
//     retried after reconnect_min_delay_ms, doubling up to
//     reconnect_max_delay_ms, plus up to 20% jitter.
//   - While up, if commands are outstanding and no reply arrives for
//     reply_timeout_ms (a hung Redis, or a connection that died silently),
//     the connection is abandoned and retried the same way.
//   - While not up, available() is false and Send() completes at once
//     (before it returns) with kUnavailable.
//   - Commands pending on a connection that is lost or abandoned complete
//     with kUnavailable. A command hiredis refuses to queue (the context is
//     being torn down) completes the same way, at once.
//   - The state callback runs each time available() changes, except by
//     Close(): true once a connection is up (the first one inside Open()),
//     false once it is lost. Commands pending on a lost connection complete
//     before or after it. A user that keeps state in Redis re-creates it on
//     `true`: after a restart the server may have none.
//   - The log gets one error when the connection is lost and one warning
//     when it is back (with how long it was down); nothing per command or
//     per attempt.
//
// Errors. kUnavailable for every failure to get a reply, its message
// "<name> <url> is unavailable: <cause>" (connection lost, not connected,
// hiredis refused the command, no reply in time). <name> says who uses the
// connection ("store"), in errors and logs alike.
//
// Threading: the loop thread only. Lifetime: Close() (or the destructor)
// completes every pending command; neither may be called from inside a
// callback of this connection (a reply handler or the state callback). The
// loop must run after Close() so that the timer and hiredis's poll handle
// are closed.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "trestle/platform/redis_url.h"
#include "trestle/platform/uv_handle.h"

struct redisAsyncContext;
struct redisReply;

namespace trestle::daemon {

class RedisConnection {
 public:
  struct Options {
    // TCP connect plus the answer to SELECT, for Open() and every reconnect.
    std::uint64_t connect_timeout_ms = 1'000;
    // Longest wait for the next reply while commands are outstanding.
    std::uint64_t reply_timeout_ms = 5'000;
    // Reconnect backoff: the first retry, doubling up to the last.
    std::uint64_t reconnect_min_delay_ms = 100;
    std::uint64_t reconnect_max_delay_ms = 5'000;
    // Timeouts and delays of 0 are taken as 1 ms; a max below the min as
    // the min.
  };

  // What to do with one command's answer; the caller owns it. It runs
  // exactly once: inside Send() if the command cannot be queued, later on
  // the loop otherwise, or inside Close(). `status` OK: `reply` is Redis's
  // answer, valid only during the call (hiredis frees it), and may be an
  // error reply (type REDIS_REPLY_ERROR). Otherwise `reply` is null and
  // `status` is kUnavailable naming the cause. The handler must live until
  // it runs; it may delete itself, and may Send() again, from the call.
  class ReplyHandler {
   public:
    virtual void OnRedisReply(const absl::Status& status, const redisReply* reply) = 0;

   protected:
    ~ReplyHandler() = default;
  };
  // The same as a function; costs an allocation per command that a
  // ReplyHandler the caller already has does not.
  // A handler for a command whose answer changes nothing (one instance
  // serves any number of commands).
  struct IgnoreReply final : ReplyHandler {
    void OnRedisReply(const absl::Status&, const redisReply*) override {}
  };
    using ReplyCallback = std::function<void(const absl::Status&, const redisReply*)>;
  using StateCallback = std::function<void(bool up)>;

  // `loop` must outlive the connection; `name` prefixes its errors and log
  // lines. Nothing connects before Open().
  RedisConnection(uv_loop_t* loop, std::string name, std::string url, Options options);
  ~RedisConnection();
  RedisConnection(const RedisConnection&) = delete;
  RedisConnection& operator=(const RedisConnection&) = delete;

  // Checks the URL and the DB number with a blocking round trip, then makes
  // the asynchronous connection, waiting for it up to connect_timeout_ms.
  // Errors name the URL: InvalidArgument (the URL, the DB number) or
  // Unavailable; FailedPrecondition for a second call.
  absl::Status Open();
  // Completes every pending command with kUnavailable; then Send() fails at
  // once. Idempotent.
  void Close();

  // Queues the command `argv` (argv[0] is its name). `argv` need only live
  // for the duration of the call: hiredis copies it. An empty `argv`
  // completes at once with InvalidArgument.
  void Send(std::span<const std::string_view> argv, ReplyHandler* handler);
  void Send(std::span<const std::string_view> argv, ReplyCallback done);

  // Runs `on_change` (which may be empty) as the connection comes and goes;
  // see the class comment. Set it before Open() to hear of the first
  // connection too.
  void SetStateCallback(StateCallback on_change) { on_state_change_ = std::move(on_change); }

  bool available() const { return state_ == State::kUp; }
  // OK while available(); otherwise the error Send() would complete with.
  absl::Status status() const;
  const std::string& url() const { return url_; }
  // The error this connection reports for `why`, for a user that finds
  // fault with a reply ("<name> <url> is unavailable: <why>").
  absl::Status UnavailableError(const std::string& why) const;

 private:
  enum class State : std::uint8_t {
    kNew,         // before Open()
    kConnecting,  // ctx_ set; waiting for SELECT's answer (timer: connect timeout)
    kUp,          // ctx_ set; commands accepted (timer: reply watchdog)
    kWaiting,     // no ctx_; timer: the next reconnect
    kClosed,
  };

  static void OnConnect(const redisAsyncContext* ctx, int status);
  static void OnDisconnect(const redisAsyncContext* ctx, int status);
  static void OnSelectReply(redisAsyncContext* ctx, void* reply, void* privdata);
  static void OnReply(redisAsyncContext* ctx, void* reply, void* privdata);
  static void OnTimer(uv_timer_t* timer);

  // The blocking round trip of Open(): reachable, and the DB exists.
  absl::Status Probe() const;
  // Starts a connection attempt (kConnecting), or schedules the next one.
  void Connect();
  // Open()'s wait for the first connection, driving hiredis by hand.
  void AwaitFirstConnection();
  // The connection `ctx_` is gone (hiredis freed it, or we are about to):
  // forgets it, logs the loss once, and schedules a reconnect.
  void ConnectionFailed(std::string why);
  // Abandons ctx_ (timeouts, a failed SELECT): pending commands complete
  // with kUnavailable.
  void DropConnection(std::string why);
  // SELECT answered: the connection is up.
  void ConnectionUp();
  void StartTimer(std::uint64_t ms);

  // The reply watchdog: bookkeeping on the current connection only, and the
  // check that drops it if commands have waited reply_timeout_ms without
  // any reply.
  void CommandQueued();
  void ReplyArrived(const redisAsyncContext* ctx);
  void CheckReplies();

  std::uint64_t NextReconnectDelayMs();
  // Why a command on `ctx` got no reply.
  std::string LostReason(const redisAsyncContext* ctx) const;
  // Why hiredis refused to queue a command on ctx_.
  std::string QueueError() const;

  uv_loop_t* loop_;
  const std::string name_;
  const std::string url_;
  const Options options_;
  platform::RedisUrl address_;
  State state_ = State::kNew;
  // Its `data` is this connection, for as long as hiredis may call back:
  // an abandoned context is freed before Close() returns.
  redisAsyncContext* ctx_ = nullptr;
  platform::UvHandle<uv_timer_t> timer_;  // made by the first StartTimer
  std::string last_error_ = "not connected";
  StateCallback on_state_change_;

  std::uint64_t reconnect_delay_ms_ = 0;
  std::uint64_t down_since_ms_ = 0;  // when the last good connection was lost
  std::uint32_t attempts_ = 0;       // connection attempts since then
  bool was_up_ = false;              // a connection was up since Open()
  std::minstd_rand jitter_;

  std::uint64_t outstanding_ = 0;  // commands awaiting a reply on ctx_
  std::uint64_t last_reply_ms_ = 0;

  // Send()'s command in Redis's protocol; reused, so no allocation once warm.
  void FormatCommand(std::span<const std::string_view> argv);
  std::string command_;
};

}  // namespace trestle::daemon
