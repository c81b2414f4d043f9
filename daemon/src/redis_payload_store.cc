#include "redis_payload_store.h"

#include <hiredis/adapters/libuv.h>
#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <memory>
#include <random>

#include "absl/strings/str_cat.h"

namespace trestle::daemon {

absl::StatusOr<RedisAddress> ParseRedisUrl(const std::string& url) {
  constexpr std::string_view kScheme = "redis://";
  auto bad = [&](const char* why) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", url, "' is not redis://HOST:PORT[/DB]: ", why));
  };
  if (url.rfind(kScheme, 0) != 0) return bad("wrong scheme");
  std::string rest = url.substr(kScheme.size());
  RedisAddress a;
  if (auto slash = rest.find('/'); slash != std::string::npos) {
    const std::string db = rest.substr(slash + 1);
    auto [p, ec] = std::from_chars(db.data(), db.data() + db.size(), a.db);
    if (ec != std::errc() || p != db.data() + db.size() || a.db < 0) return bad("bad DB number");
    rest.resize(slash);
  }
  const auto colon = rest.rfind(':');
  if (colon == std::string::npos) {
    a.host = rest;
  } else {
    a.host = rest.substr(0, colon);
    const std::string port = rest.substr(colon + 1);
    auto [p, ec] = std::from_chars(port.data(), port.data() + port.size(), a.port);
    if (ec != std::errc() || p != port.data() + port.size() || a.port <= 0 || a.port > 65535) {
      return bad("bad port");
    }
  }
  if (a.host.empty()) return bad("no host");
  return a;
}

struct RedisPayloadStore::PutRequest {
  RedisPayloadStore* store;
  PutCallback done;
};

struct RedisPayloadStore::TakeRequest {
  RedisPayloadStore* store;
  TakeCallback done;
  std::vector<std::string> payloads;
  std::vector<TakeResult> results;
  std::size_t answered = 0;
  absl::Status status;
};

RedisPayloadStore::RedisPayloadStore(uv_loop_t* loop, std::string url)
    : loop_(loop), url_(std::move(url)) {
  std::random_device rd;
  char text[17];
  std::snprintf(text, sizeof text, "%08x%08x", rd(), rd());
  instance_ = text;
}

RedisPayloadStore::~RedisPayloadStore() { Close(); }

namespace {
constexpr std::uint64_t kFirstReconnectDelayMs = 100;
constexpr std::uint64_t kMaxReconnectDelayMs = 5000;
}  // namespace

void RedisPayloadStore::Close() {
  closed_ = true;
  if (reconnect_timer_ != nullptr) {
    uv_close(reinterpret_cast<uv_handle_t*>(reconnect_timer_),
             [](uv_handle_t* h) { delete reinterpret_cast<uv_timer_t*>(h); });
    reconnect_timer_ = nullptr;
  }
  if (ctx_ == nullptr) return;
  redisAsyncContext* ctx = ctx_;
  ctx_ = nullptr;
  last_error_ = "closed";
  ctx->data = nullptr;  // the callbacks must not touch us
  redisAsyncFree(ctx);  // runs pending callbacks with a null reply
}

absl::Status RedisPayloadStore::Unavailable() const {
  return absl::UnavailableError(absl::StrCat("store ", url_, ": ", last_error_));
}

absl::Status RedisPayloadStore::Open() {
  auto address = ParseRedisUrl(url_);
  if (!address.ok()) return absl::InvalidArgumentError(absl::StrCat("store: ", address.status().message()));
  address_ = *address;
  // One synchronous round trip before the loop runs, so that a wrong address
  // is a clear start-up error rather than a stream of failed sends.
  timeval tv{2, 0};
  redisContext* probe = redisConnectWithTimeout(address_.host.c_str(), address_.port, tv);
  if (probe == nullptr || probe->err != 0) {
    std::string why = probe == nullptr ? "out of memory" : probe->errstr;
    if (probe != nullptr) redisFree(probe);
    return absl::UnavailableError(absl::StrCat("store: cannot reach ", url_, ": ", why));
  }
  auto* pong = static_cast<redisReply*>(redisCommand(probe, "PING"));
  const bool ok = pong != nullptr && pong->type == REDIS_REPLY_STATUS;
  if (pong != nullptr) freeReplyObject(pong);
  redisFree(probe);
  if (!ok) return absl::UnavailableError(absl::StrCat("store: ", url_, " did not answer PING"));
  Connect();
  if (ctx_ == nullptr) return absl::UnavailableError(absl::StrCat("store: cannot connect to ", url_));
  return absl::OkStatus();
}

void RedisPayloadStore::Connect() {
  redisAsyncContext* ctx = redisAsyncConnect(address_.host.c_str(), address_.port);
  if (ctx == nullptr || ctx->err != 0) {
    last_error_ = ctx == nullptr ? "out of memory" : ctx->errstr;
    if (ctx != nullptr) redisAsyncFree(ctx);
    return;
  }
  ctx_ = ctx;
  ctx_->data = this;
  redisLibuvAttach(ctx_, loop_);
  redisAsyncSetConnectCallback(ctx_, &RedisPayloadStore::OnConnect);
  redisAsyncSetDisconnectCallback(ctx_, &RedisPayloadStore::OnDisconnect);
  if (address_.db != 0) redisAsyncCommand(ctx_, nullptr, nullptr, "SELECT %d", address_.db);
}

void RedisPayloadStore::OnConnect(const redisAsyncContext* ctx, int status) {
  auto* self = static_cast<RedisPayloadStore*>(ctx->data);
  if (self == nullptr) return;
  if (status != REDIS_OK) {
    // hiredis frees the context after this callback; commands queued on it
    // were answered with a null reply (their messages count as expired).
    self->last_error_ = ctx->errstr;
    self->ctx_ = nullptr;
    self->ScheduleReconnect();
    return;
  }
  if (self->lost_) {
    spdlog::warn("store {}: reconnected", self->url_);
    self->lost_ = false;
  }
  self->reconnect_delay_ms_ = 0;
}

void RedisPayloadStore::OnDisconnect(const redisAsyncContext* ctx, int status) {
  auto* self = static_cast<RedisPayloadStore*>(ctx->data);
  if (self == nullptr) return;
  self->last_error_ = status == REDIS_OK ? "disconnected" : ctx->errstr;
  spdlog::error("store {}: {}; reconnecting", self->url_, self->last_error_);
  self->ctx_ = nullptr;  // hiredis frees the context after this callback
  self->lost_ = true;
  self->ScheduleReconnect();
}

void RedisPayloadStore::ScheduleReconnect() {
  if (closed_) return;
  if (reconnect_timer_ == nullptr) {
    reconnect_timer_ = new uv_timer_t;
    uv_timer_init(loop_, reconnect_timer_);
    reconnect_timer_->data = this;
  }
  reconnect_delay_ms_ = reconnect_delay_ms_ == 0
                            ? kFirstReconnectDelayMs
                            : std::min(reconnect_delay_ms_ * 2, kMaxReconnectDelayMs);
  uv_timer_start(
      reconnect_timer_,
      [](uv_timer_t* t) {
        auto* self = static_cast<RedisPayloadStore*>(t->data);
        if (self->ctx_ == nullptr && !self->closed_) self->Connect();
        if (self->ctx_ == nullptr) self->ScheduleReconnect();  // could not even start
      },
      reconnect_delay_ms_, 0);
}

std::size_t RedisPayloadStore::Key(std::uint64_t id) {
  return static_cast<std::size_t>(std::snprintf(key_, sizeof key_, "trestle:%s:%llu",
                                                instance_.c_str(),
                                                static_cast<unsigned long long>(id)));
}

void RedisPayloadStore::Put(std::uint64_t id, std::string&& payload, PutCallback done) {
  if (ctx_ == nullptr) {
    done(Unavailable());
    return;
  }
  const std::size_t n = Key(id);
  auto* request = new PutRequest{this, std::move(done)};
  if (redisAsyncCommand(ctx_, &RedisPayloadStore::OnPutReply, request, "SET %b %b", key_, n,
                        payload.data(), payload.size()) != REDIS_OK) {
    std::unique_ptr<PutRequest> owned(request);
    owned->done(Unavailable());
  }
}

void RedisPayloadStore::OnPutReply(redisAsyncContext*, void* r, void* privdata) {
  std::unique_ptr<PutRequest> request(static_cast<PutRequest*>(privdata));
  auto* reply = static_cast<redisReply*>(r);
  if (reply == nullptr || reply->type == REDIS_REPLY_ERROR) {
    request->done(absl::UnavailableError(absl::StrCat(
        "store ", request->store->url_, ": SET failed: ",
        reply == nullptr ? "connection lost" : std::string(reply->str, reply->len))));
    return;
  }
  request->store->size_++;
  request->done(absl::OkStatus());
}

void RedisPayloadStore::TakeBatch(std::span<const std::uint64_t> ids, TakeCallback done) {
  if (ctx_ == nullptr) {
    done(Unavailable(), {}, {});
    return;
  }
  if (ids.empty()) {
    done(absl::OkStatus(), {}, {});
    return;
  }
  auto* request = new TakeRequest{this, std::move(done), {}, {}, 0, absl::OkStatus()};
  request->payloads.resize(ids.size());
  request->results.resize(ids.size(), TakeResult::kTaken);
  // Replies arrive in command order; the last one completes the batch.
  for (std::uint64_t id : ids) {
    const std::size_t n = Key(id);
    redisAsyncCommand(ctx_, &RedisPayloadStore::OnTakeReply, request, "GETDEL %b", key_, n);
  }
}

void RedisPayloadStore::OnTakeReply(redisAsyncContext*, void* r, void* privdata) {
  auto* request = static_cast<TakeRequest*>(privdata);
  auto* reply = static_cast<redisReply*>(r);
  const std::size_t i = request->answered++;
  if (reply != nullptr && reply->type == REDIS_REPLY_STRING) {
    request->payloads[i].assign(reply->str, reply->len);
    request->store->size_--;
  } else if (reply != nullptr && reply->type == REDIS_REPLY_NIL) {
    request->results[i] = TakeResult::kMissing;
  } else if (request->status.ok()) {
    request->status = absl::UnavailableError(absl::StrCat(
        "store ", request->store->url_, ": GETDEL failed: ",
        reply == nullptr ? "connection lost" : std::string(reply->str, reply->len)));
  }
  if (request->answered < request->payloads.size()) return;
  std::unique_ptr<TakeRequest> owned(request);
  if (!owned->status.ok()) {
    owned->done(owned->status, {}, {});
    return;
  }
  owned->done(owned->status, std::span<std::string>(owned->payloads),
              std::span<const TakeResult>(owned->results));
}

void RedisPayloadStore::Erase(std::uint64_t id) {
  if (ctx_ == nullptr) return;
  const std::size_t n = Key(id);
  redisAsyncCommand(ctx_, nullptr, nullptr, "DEL %b", key_, n);
  if (size_ > 0) size_--;
}

}  // namespace trestle::daemon
