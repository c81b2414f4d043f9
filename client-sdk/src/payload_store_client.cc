#include "payload_store_client.h"

#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <algorithm>
#include <utility>

#include "trestle/platform/redis_url.h"

namespace trestle::internal {
namespace {

timeval ToTimeval(std::chrono::milliseconds ms) {
  return timeval{.tv_sec = static_cast<time_t>(ms.count() / 1000),
                 .tv_usec = static_cast<suseconds_t>((ms.count() % 1000) * 1000)};
}

}  // namespace

PayloadStoreClient::PayloadStoreClient(std::string url, std::chrono::milliseconds timeout)
    : url_(std::move(url)), timeout_(std::max(timeout, std::chrono::milliseconds(1))) {}

PayloadStoreClient::~PayloadStoreClient() {
  if (ctx_ != nullptr) redisFree(ctx_);
}

absl::Status PayloadStoreClient::Unavailable(const std::string& why) const {
  return absl::UnavailableError("payload store " + url_ + " is unavailable: " + why);
}

absl::Status PayloadStoreClient::Fail(const std::string& why) {
  if (ctx_ != nullptr) {
    redisFree(ctx_);
    ctx_ = nullptr;
  }
  return Unavailable(why);
}

absl::Status PayloadStoreClient::Connect() {
  if (ctx_ != nullptr) return absl::OkStatus();
  const auto now = std::chrono::steady_clock::now();
  if (!last_connect_error_.ok() && now < retry_at_) return last_connect_error_;
  absl::StatusOr<platform::RedisUrl> address =
      platform::ParseRedisUrl(url_, "payload store URL");
  if (!address.ok()) return address.status();
  auto failed = [&](absl::Status error) {
    last_connect_error_ = error;
    retry_at_ = now + kRetryDelay;
    return error;
  };
  ctx_ = redisConnectWithTimeout(address->host.c_str(), address->port, ToTimeval(timeout_));
  if (ctx_ == nullptr) return failed(Unavailable("cannot allocate a connection"));
  if (ctx_->err != 0) return failed(Fail(ctx_->errstr));
  redisSetTimeout(ctx_, ToTimeval(timeout_));
  if (address->db != 0) {
    auto* reply = static_cast<redisReply*>(
        redisCommand(ctx_, "SELECT %d", address->db));
    if (reply == nullptr) return failed(Fail(ctx_->errstr));
    const bool ok = reply->type != REDIS_REPLY_ERROR;
    const std::string text = ok ? "" : std::string(reply->str, reply->len);
    freeReplyObject(reply);
    if (!ok) return failed(Fail("SELECT " + std::to_string(address->db) + ": " + text));
  }
  last_connect_error_ = absl::OkStatus();
  return absl::OkStatus();
}

absl::Status PayloadStoreClient::Put(std::string_view key, std::string_view payload,
                                     std::uint64_t ttl_ms) {
  if (absl::Status s = Connect(); !s.ok()) return s;
  const std::string ttl = std::to_string(ttl_ms);
  const char* argv[] = {"SET", key.data(), payload.data(), "PX", ttl.data()};
  const std::size_t argvlen[] = {3, key.size(), payload.size(), 2, ttl.size()};
  const int argc = ttl_ms > 0 ? 5 : 3;
  auto* reply = static_cast<redisReply*>(redisCommandArgv(ctx_, argc, argv, argvlen));
  if (reply == nullptr) return Fail(ctx_->errstr);
  const bool ok = reply->type != REDIS_REPLY_ERROR;
  const std::string text = ok ? "" : std::string(reply->str, reply->len);
  freeReplyObject(reply);
  if (!ok) return Unavailable("SET " + std::string(key) + ": " + text);
  return absl::OkStatus();
}

void PayloadStoreClient::Take(std::span<const std::string> keys,
                              std::vector<absl::StatusOr<std::string>>* out) {
  out->clear();
  absl::Status connected = Connect();
  for (std::size_t i = 0; connected.ok() && i < keys.size(); ++i) {
    const char* argv[] = {"GETDEL", keys[i].data()};
    const std::size_t argvlen[] = {6, keys[i].size()};
    if (redisAppendCommandArgv(ctx_, 2, argv, argvlen) != REDIS_OK) {
      connected = Fail(ctx_->errstr);
    }
  }
  for (std::size_t i = 0; connected.ok() && i < keys.size(); ++i) {
    void* raw = nullptr;
    if (redisGetReply(ctx_, &raw) != REDIS_OK || raw == nullptr) {
      connected = Fail(ctx_->errstr);
      break;
    }
    auto* reply = static_cast<redisReply*>(raw);
    if (reply->type == REDIS_REPLY_STRING) {
      out->emplace_back(std::string(reply->str, reply->len));
    } else if (reply->type == REDIS_REPLY_NIL) {
      out->emplace_back(absl::NotFoundError("payload key '" + keys[i] + "' is not in " + url_ +
                                            " (taken already, or expired)"));
    } else {
      out->emplace_back(Unavailable(
          "GETDEL " + keys[i] + ": " +
          (reply->type == REDIS_REPLY_ERROR ? std::string(reply->str, reply->len)
                                            : std::string("unexpected reply"))));
    }
    freeReplyObject(reply);
  }
  // Keys not answered (Redis unreachable, or lost midway) share its error.
  while (out->size() < keys.size()) out->emplace_back(connected);
}

}  // namespace trestle::internal
