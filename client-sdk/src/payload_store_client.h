// internal::PayloadStoreClient: an app's own connection to the daemon's
// Redis store, for payloads by key (docs/protocol.md, "Payloads by key"):
// Put writes a payload the app sends by key (`SET key payload PX ttl`),
// Take takes the payloads of deliveries by key (`GETDEL`, one pipelined
// round trip for a batch). Binary-safe: NUL bytes survive.
//
// Synchronous (hiredis's blocking context): each call blocks the calling
// thread for one round trip, so a Send by key from a loop callback holds
// that loop for as long. It connects lazily, on the first call, within
// `timeout`, and every command waits at most `timeout` for its reply.
// After a failure the connection is dropped and the next call connects
// again, except that for kRetryDelay after a failed connect every call
// fails at once with the same error: sends by key fail fast while Redis is
// away (inline sends never touch it).
//
// Errors name the URL: Unavailable ("payload store redis://H:P/DB is
// unavailable: <cause>"); InvalidArgument for a URL that is not
// redis://HOST:PORT[/DB]. A key Take finds missing is NotFound naming the
// key and the URL.
//
// Not thread-safe: the owning client's loop thread only. Not copyable.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

struct redisContext;

namespace trestle::internal {

class PayloadStoreClient {
 public:
  // How long calls fail at once after a connect failed.
  static constexpr std::chrono::milliseconds kRetryDelay{250};

  // Nothing connects before the first call.
  PayloadStoreClient(std::string url, std::chrono::milliseconds timeout);
  ~PayloadStoreClient();
  PayloadStoreClient(const PayloadStoreClient&) = delete;
  PayloadStoreClient& operator=(const PayloadStoreClient&) = delete;

  const std::string& url() const { return url_; }

  // Writes `payload` under `key`, expiring after `ttl_ms` (0: never).
  absl::Status Put(std::string_view key, std::string_view payload, std::uint64_t ttl_ms);
  // Takes (GETDEL) every key of `keys` in one round trip: `out` gets, in
  // order, each key's payload or its error. An error reaching Redis is the
  // same Unavailable for every key.
  void Take(std::span<const std::string> keys, std::vector<absl::StatusOr<std::string>>* out);

 private:
  absl::Status Connect();
  // Drops the connection; returns Unavailable naming the URL and `why`.
  absl::Status Fail(const std::string& why);
  absl::Status Unavailable(const std::string& why) const;

  const std::string url_;
  const std::chrono::milliseconds timeout_;
  redisContext* ctx_ = nullptr;
  absl::Status last_connect_error_;
  std::chrono::steady_clock::time_point retry_at_{};
};

}  // namespace trestle::internal
