// RedisPayloadStore: payloads kept in a Redis server (store:
// redis://HOST:PORT[/DB]), so that they live outside the daemon. It speaks
// to Redis through hiredis's async context on the daemon's own libuv loop
// (hiredis/adapters/libuv.h): nothing blocks the loop. Payloads go in as
// binary-safe arguments (%b: NUL bytes survive) under
// `trestle:<instance>:<id>`, where <instance> is random per daemon, so
// several daemons may share one Redis. TakeBatch pipelines one GETDEL per id.
//
// If Redis goes away, pending calls and calls until it is back fail with
// kUnavailable; the relay then counts those messages as expired (nothing is
// lost silently). The store reconnects by itself, after 100 ms and then at
// doubling intervals up to 5 s, and says so in the log.
#pragma once

#include <uv.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "trestle/daemon/payload_store.h"

struct redisAsyncContext;

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
  RedisPayloadStore(uv_loop_t* loop, std::string url);
  ~RedisPayloadStore() override;

  absl::Status Open() override;
  void Close() override;
  void Put(std::uint64_t id, std::string&& payload, PutCallback done) override;
  void TakeBatch(std::span<const std::uint64_t> ids, TakeCallback done) override;
  void Erase(std::uint64_t id) override;
  std::size_t size() const override { return size_; }
  std::string_view name() const override { return url_; }

 private:
  struct PutRequest;
  struct TakeRequest;
  static void OnPutReply(redisAsyncContext* ctx, void* reply, void* privdata);
  static void OnTakeReply(redisAsyncContext* ctx, void* reply, void* privdata);
  static void OnConnect(const redisAsyncContext* ctx, int status);
  static void OnDisconnect(const redisAsyncContext* ctx, int status);

  // Starts an asynchronous connection; commands queue until it is up.
  void Connect();
  void ScheduleReconnect();

  // Formats the key of `id` into key_ and returns its length.
  std::size_t Key(std::uint64_t id);
  absl::Status Unavailable() const;

  uv_loop_t* loop_;
  const std::string url_;
  RedisAddress address_;
  uv_timer_t* reconnect_timer_ = nullptr;  // freed by its close callback
  std::uint64_t reconnect_delay_ms_ = 0;
  bool closed_ = false;
  bool lost_ = false;  // the connection was lost; the next one is a reconnect
  std::string instance_;  // random per daemon: keys do not collide
  redisAsyncContext* ctx_ = nullptr;
  std::string last_error_;
  std::size_t size_ = 0;
  char key_[64];
};

}  // namespace trestle::daemon
