// RedisPayloadStore: payloads kept in a Redis server (store:
// redis://HOST:PORT[/DB]), so that they live outside the daemon. It speaks
// to Redis through hiredis's async context on the daemon's own libuv loop
// (hiredis/adapters/libuv.h): nothing blocks the loop after Open().
//
// Keys. A payload is kept under `trestle:<instance>:<id>`, where <instance>
// is random per store, so several daemons may share one Redis. Put is one
// `SET key payload PX key_ttl_ms` (binary-safe: NUL bytes survive). Every
// key expires key_ttl_ms after its Put, so a daemon that dies leaves nothing
// behind for longer than that; key_ttl_ms must therefore exceed the longest
// a message may spend in the daemon (transit plus delivery TTL), or its
// payload is gone by delivery and the take reports it kMissing.
//
// Takes. TakeBatch is one `MGET` of the batch's keys; once its reply is in
// hand the store issues one `UNLINK` for the keys it got, before running
// `done`. So a batch that fails (connection lost before the reply) leaves
// every payload in Redis for a later retry, and nothing is deleted that the
// caller did not receive. A nil from MGET (expired, evicted, deleted behind
// our back, or lost in a Redis restart) is TakeResult::kMissing for that id
// only; the rest of the batch is delivered.
//
// Connection. The store owns its connection state and does not depend on
// hiredis's connect callback, which Debian's hiredis 0.14 libuv adapter
// never runs for a refused connect (it drops poll errors):
//   - A connection counts as up once Redis has answered its `SELECT <db>`,
//     within connect_timeout_ms of starting it; otherwise the store abandons
//     it and retries after reconnect_min_delay_ms, doubling up to
//     reconnect_max_delay_ms, plus up to 20% jitter.
//   - While up, if commands are outstanding and no reply arrives for
//     reply_timeout_ms (a hung Redis, or a poll error the adapter dropped),
//     the connection is abandoned and retried the same way.
//   - While not up, available() is false and Put/TakeBatch fail at once
//     (before they return) with kUnavailable naming the URL. Erase is then
//     dropped: the key goes with its TTL.
//   - Commands pending on a connection that is lost or abandoned complete
//     with kUnavailable. A command hiredis refuses to queue (the context is
//     being torn down) completes the same way, at once: `done` runs exactly
//     once in every case.
//   - The log gets one error when the connection is lost and one warning
//     when it is back (with how long it was down); nothing per message or
//     per attempt.
//
// Errors. kUnavailable for every failure, its message naming the store URL
// and the cause (connection lost, not connected, or Redis's error text).
//
// Threading: the loop thread only. Lifetime: Close() (or the destructor)
// completes every pending call; it must not be called from inside a store
// callback. The loop must run after Close() so that the store's timer and
// hiredis's poll handle are closed.
#pragma once

#include <uv.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "trestle/daemon/payload_store.h"

struct redisAsyncContext;
typedef void(redisCallbackFn)(struct redisAsyncContext*, void*, void*);

namespace trestle::daemon {

struct RedisAddress {
  std::string host;
  int port = 6379;
  int db = 0;
};

// Parses "redis://HOST:PORT[/DB]"; errors name the text.
absl::StatusOr<RedisAddress> ParseRedisUrl(const std::string& url);

class RedisPayloadStore final : public PayloadStore {
 public:
  struct Options {
    // How long a key lives after its Put (Redis PX). 0: keys never expire
    // (a dead daemon's keys then stay forever). The default is the default
    // delivery_ttl_ms (30 s) plus a 5-minute margin; the daemon passes its
    // own.
    std::uint64_t key_ttl_ms = 330'000;
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

  // `loop` must outlive the store. Nothing connects before Open().
  RedisPayloadStore(uv_loop_t* loop, std::string url, Options options);
  RedisPayloadStore(uv_loop_t* loop, std::string url)  // default Options
      : RedisPayloadStore(loop, std::move(url), Options()) {}
  ~RedisPayloadStore() override;

  // Checks the URL and the DB number with a blocking round trip, then makes
  // the asynchronous connection, waiting for it up to connect_timeout_ms.
  // Errors (InvalidArgument for the URL, Unavailable otherwise) name the URL.
  absl::Status Open() override;
  void Close() override;
  void Put(std::uint64_t id, std::string&& payload, PutCallback done) override;
  void TakeBatch(std::span<const std::uint64_t> ids, TakeCallback done) override;
  void Erase(std::uint64_t id) override;
  bool available() const override { return state_ == State::kUp; }
  // Ids put and not yet taken, found missing or erased.
  std::size_t size() const override { return size_; }
  std::string_view name() const override { return url_; }

 private:
  enum class State : std::uint8_t {
    kNew,         // before Open()
    kConnecting,  // ctx_ set; waiting for SELECT's answer (timer: connect timeout)
    kUp,          // ctx_ set; commands accepted (timer: reply watchdog)
    kWaiting,     // no ctx_; timer: the next reconnect
    kClosed,
  };
  struct PutRequest;
  struct TakeRequest;
  // "trestle:" + 16 hex digits + ":" + at most 20 digits.
  static constexpr std::size_t kKeyCapacity = 48;

  static void OnConnect(const redisAsyncContext* ctx, int status);
  static void OnDisconnect(const redisAsyncContext* ctx, int status);
  static void OnSelectReply(redisAsyncContext* ctx, void* reply, void* privdata);
  static void OnPutReply(redisAsyncContext* ctx, void* reply, void* privdata);
  static void OnTakeReply(redisAsyncContext* ctx, void* reply, void* privdata);
  static void OnEraseReply(redisAsyncContext* ctx, void* reply, void* privdata);
  static void OnTimer(uv_timer_t* timer);

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
  void StartTimer(std::uint64_t ms);

  // Queues a command on ctx_ (argv_ when not given); false if hiredis
  // refused it (the context is being torn down), and then `fn` never runs.
  bool Queue(redisCallbackFn* fn, void* privdata, int argc, const char** argv,
             const std::size_t* argv_len);
  bool Queue(redisCallbackFn* fn, void* privdata);
  // Bookkeeping for the reply watchdog, on the current connection only.
  void CommandQueued();
  // The watchdog's check: drops the connection if commands have waited
  // reply_timeout_ms without any reply.
  void CheckReplies();
  void ReplyArrived(const redisAsyncContext* ctx);

  // Writes the key of `id` to `out` (kKeyCapacity bytes); returns its length.
  std::size_t FormatKey(std::uint64_t id, char* out) const;
  // Formats the keys of `ids` into key_text_ and points argv_ at them after
  // `command`.
  void FormatArgv(std::string_view command, std::span<const std::uint64_t> ids);
  std::uint64_t NextReconnectDelayMs();
  absl::Status Unavailable(const std::string& why) const;
  // Why a command on `ctx` got no reply.
  std::string LostReason(const redisAsyncContext* ctx) const;
  // Why hiredis refused to queue a command on ctx_.
  std::string QueueError() const;

  uv_loop_t* loop_;
  const std::string url_;
  const Options options_;
  const std::string ttl_text_;  // key_ttl_ms as SET's PX argument
  RedisAddress address_;
  State state_ = State::kNew;
  redisAsyncContext* ctx_ = nullptr;
  uv_timer_t* timer_ = nullptr;  // freed by its close callback
  std::string last_error_ = "not connected";

  std::uint64_t reconnect_delay_ms_ = 0;
  std::uint64_t down_since_ms_ = 0;  // when the last good connection was lost
  std::uint32_t attempts_ = 0;       // connection attempts since then
  bool was_up_ = false;              // a connection was up since Open()
  std::minstd_rand jitter_;

  std::uint64_t outstanding_ = 0;  // commands awaiting a reply on ctx_
  std::uint64_t last_reply_ms_ = 0;

  std::string key_prefix_;  // "trestle:<instance>:", <instance> random per store
  std::size_t size_ = 0;
  // Reused for every command: no allocation per message once warm.
  std::vector<char> key_text_;
  std::vector<const char*> argv_;
  std::vector<std::size_t> argv_len_;
};

}  // namespace trestle::daemon
