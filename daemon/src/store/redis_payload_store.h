// RedisPayloadStore: payloads kept in a Redis server (store:
// redis://HOST:PORT[/DB]), so that they live outside the daemon. It speaks
// to Redis through hiredis's async context on the daemon's own libuv loop
// (hiredis/adapters/libuv.h): nothing blocks the loop after Open().
//
// Keys. A payload is kept under `<key_prefix><id>`. By default the prefix is
// `trestle:<instance>:` with <instance> random per process
// (ProcessKeyPrefix), so several daemons may share one Redis. The daemons of a federated bridge share the prefix
// `trestle:{run}:p:` instead (ids are unique across the bridge), so that
// any of them takes a payload another put. Put is one
// `SET key payload PX key_ttl_ms` (binary-safe: NUL bytes survive). Every
// key expires key_ttl_ms after its Put, so a daemon that dies leaves nothing
// behind for longer than that; key_ttl_ms must therefore exceed the longest
// a message may spend in the daemon (transit plus delivery TTL), or its
// payload is gone by delivery and the take reports it kMissing.
//
// Payloads by key. Adopt is one `STRLEN key`: the client's SET is checked
// without its bytes crossing the daemon. A payload adopted is then held like
// one put: taken by MGET, or erased by UNLINK (after the receiving client's
// GETDEL the UNLINK finds nothing, which is harmless).
//
// Takes. TakeBatch is one `MGET` of the batch's keys; once its reply is in
// hand the store issues one `UNLINK` for the keys it got, before running
// `done`. So a batch that fails (connection lost before the reply) leaves
// every payload in Redis for a later retry, and nothing is deleted that the
// caller did not receive. A nil from MGET (expired, evicted, deleted behind
// our back, or lost in a Redis restart) is TakeResult::kMissing for that id
// only; the rest of the batch is delivered. With Options::keep_taken (the
// shared store of a federated bridge) a take deletes nothing: the payload
// stays, TakeResult::kKept, until Erase, because there it is the proof that
// its message is not finished (docs/federation.md, "Durable delivery").
//
// Erases are gathered and sent as one `UNLINK` per loop pass (Flush).
//
// Connection. The store's RedisConnection (redis_connection.h: connect
// timeout, reconnects with backoff, the reply watchdog, one log line per
// outage, under the name "store") keeps it joined to Redis:
//   - While the connection is not up, available() is false and Put/TakeBatch
//     fail at once (before they return) with kUnavailable naming the URL.
//     Erase is then dropped: the key goes with its TTL.
//   - Calls pending on a connection that is lost, abandoned (no reply within
//     reply_timeout_ms) or closed complete with kUnavailable. A command
//     hiredis refuses to queue (the context is being torn down) completes
//     its call the same way, at once: `done` runs exactly once in every case.
//
// Errors. kUnavailable for every failure, its message naming the store URL
// and the cause (connection lost, not connected, or Redis's error text).
//
// Threading: the loop thread only. Lifetime: Close() (or the destructor)
// completes every pending call; it must not be called from inside a store
// callback. The loop must run after Close() so that the connection's timer
// and hiredis's poll handle are closed.
#pragma once

#include <uv.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "store/redis_connection.h"
#include "trestle/daemon/daemon_config.h"
#include "trestle/daemon/payload_store.h"

namespace trestle::daemon {

// `trestle:<instance>:`, <instance> 16 random hex digits drawn once per
// process: the prefix of a RedisPayloadStore given none.
const std::string& ProcessKeyPrefix();
// The prefix of the payload keys the daemons of federated run `run` share
// ("trestle:{run}:p:"; a payload's key is the prefix and its id).
std::string BridgePayloadPrefix(std::string_view run);
// The prefix under which the daemon configured by `config` keeps payloads in
// Redis, as Welcome tells clients (payloads by key): the bridge's
// `trestle:{run}:p:` when federated, else ProcessKeyPrefix(). It must agree
// with the Options::key_prefix the daemon gives its store.
std::string PayloadKeyPrefix(const DaemonConfig& config);

class RedisPayloadStore final : public PayloadStore {
 public:
  struct Options {
    // How long a key lives after its Put (Redis PX). 0: keys never expire
    // (a dead daemon's keys then stay forever). The default is the default
    // delivery_ttl_ms (30 s) plus a 5-minute margin; the daemon passes its
    // own.
    std::uint64_t key_ttl_ms = 330'000;
    // Empty: ProcessKeyPrefix(). At most 80 bytes.
    std::string key_prefix;
    // A take keeps the payload (TakeResult::kKept) until Erase.
    bool keep_taken = false;
    // The connection's; see RedisConnection::Options.
    std::uint64_t connect_timeout_ms = 1'000;
    std::uint64_t reply_timeout_ms = 5'000;
    std::uint64_t reconnect_min_delay_ms = 100;
    std::uint64_t reconnect_max_delay_ms = 5'000;
  };

  // `loop` must outlive the store. Nothing connects before Open().
  RedisPayloadStore(uv_loop_t* loop, std::string url, Options options);
  RedisPayloadStore(uv_loop_t* loop, std::string url)  // default Options
      : RedisPayloadStore(loop, std::move(url), Options()) {}
  ~RedisPayloadStore() override;

  // Checks the URL and the DB number with a blocking round trip, then makes
  // the asynchronous connection, waiting for it up to connect_timeout_ms.
  // Errors (InvalidArgument for the URL, Unavailable otherwise) name the URL.
  absl::Status Open() override { return connection_.Open(); }
  void Close() override {
    Flush();
    connection_.Close();
  }
  void Put(std::uint64_t id, std::string&& payload, PutCallback done) override;
  void Adopt(std::uint64_t id, std::uint64_t size, PutCallback done) override;
  void TakeBatch(std::span<const std::uint64_t> ids, TakeCallback done) override;
  void Erase(std::uint64_t id) override;
  void Flush() override;
  void HandOver(std::uint64_t) override {
    if (size_ > 0) size_--;
  }
  bool available() const override { return connection_.available(); }
  // Ids put and not yet taken, found missing or erased.
  std::size_t size() const override { return size_; }
  std::string_view name() const override { return connection_.url(); }
  const std::string& key_prefix() const { return key_prefix_; }

 private:
  struct PutRequest;
  struct AdoptRequest;
  struct TakeRequest;
  // A prefix of at most 80 bytes + at most 20 digits.
  static constexpr std::size_t kKeyCapacity = 104;

  void TakeReplied(TakeRequest& request, const absl::Status& status, const redisReply* reply);
  // Writes the key of `id` to `out` (kKeyCapacity bytes); returns its length.
  std::size_t FormatKey(std::uint64_t id, char* out) const;
  // Formats the keys of `ids` into key_text_ and points argv_ at them after
  // `command`.
  void FormatArgv(std::string_view command, std::span<const std::uint64_t> ids);

  const Options options_;
  const std::string ttl_text_;  // key_ttl_ms as SET's PX argument
  std::string key_prefix_;      // Options::key_prefix, or ProcessKeyPrefix()
  std::size_t size_ = 0;
  // UNLINK's answer: nothing to do (a key left behind goes with its TTL).
  RedisConnection::IgnoreReply unlinked_;
  // Reused for every command: no allocation per message once warm.
  std::vector<char> key_text_;
  std::vector<std::string_view> argv_;
  std::vector<std::uint64_t> erasing_;  // erased since the last Flush
  // Last: its destructor completes pending calls, whose handlers use the
  // members above.
  RedisConnection connection_;
};

}  // namespace trestle::daemon
