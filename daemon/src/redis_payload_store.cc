#include "redis_payload_store.h"

#include <hiredis/adapters/libuv.h>
#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>

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
  std::vector<std::uint64_t> ids;
};

namespace {

std::string ReplyText(const redisReply* reply) { return std::string(reply->str, reply->len); }

// The error a socket's connect ended with, which hiredis 0.14's libuv adapter
// never reports; empty while it is still in progress.
std::string PendingSocketError(const redisAsyncContext* ctx) {
  int err = 0;
  socklen_t len = sizeof err;
  if (getsockopt(ctx->c.fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err == 0) return {};
  return std::strerror(err);
}

}  // namespace

namespace {

// Zero timeouts and delays would spin the loop: they are taken as 1 ms.
RedisPayloadStore::Options Sane(RedisPayloadStore::Options o) {
  o.connect_timeout_ms = std::max<std::uint64_t>(o.connect_timeout_ms, 1);
  o.reply_timeout_ms = std::max<std::uint64_t>(o.reply_timeout_ms, 1);
  o.reconnect_min_delay_ms = std::max<std::uint64_t>(o.reconnect_min_delay_ms, 1);
  o.reconnect_max_delay_ms = std::max(o.reconnect_max_delay_ms, o.reconnect_min_delay_ms);
  return o;
}

}  // namespace

RedisPayloadStore::RedisPayloadStore(uv_loop_t* loop, std::string url, Options options)
    : loop_(loop),
      url_(std::move(url)),
      options_(Sane(options)),
      ttl_text_(std::to_string(options.key_ttl_ms)),
      jitter_(std::random_device{}()) {
  std::random_device rd;
  char text[32];
  std::snprintf(text, sizeof text, "trestle:%08x%08x:", rd(), rd());
  key_prefix_ = text;
}

RedisPayloadStore::~RedisPayloadStore() { Close(); }

absl::Status RedisPayloadStore::Unavailable(const std::string& why) const {
  return absl::UnavailableError(absl::StrCat("store ", url_, " is unavailable: ", why));
}

std::string RedisPayloadStore::LostReason(const redisAsyncContext* ctx) const {
  if (ctx->err != 0 && ctx->errstr != nullptr) {
    return absl::StrCat("connection lost (", ctx->errstr, ")");
  }
  return last_error_;
}

std::string RedisPayloadStore::QueueError() const {
  return absl::StrCat("hiredis could not queue the command (",
                      ctx_->err != 0 ? ctx_->errstr : "the connection is closing", ")");
}

absl::Status RedisPayloadStore::Open() {
  if (state_ != State::kNew) return absl::FailedPreconditionError("store: Open() called twice");
  auto address = ParseRedisUrl(url_);
  if (!address.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("store: ", address.status().message()));
  }
  address_ = *address;
  // One blocking round trip first, so that a wrong address or DB number is a
  // clear start-up error rather than a stream of failed sends.
  const timeval tv{static_cast<time_t>(options_.connect_timeout_ms / 1000),
                   static_cast<suseconds_t>(options_.connect_timeout_ms % 1000 * 1000)};
  redisContext* probe = redisConnectWithTimeout(address_.host.c_str(), address_.port, tv);
  if (probe == nullptr || probe->err != 0) {
    std::string why = probe == nullptr ? "out of memory" : probe->errstr;
    if (probe != nullptr) redisFree(probe);
    return absl::UnavailableError(absl::StrCat("store: cannot reach ", url_, ": ", why));
  }
  redisSetTimeout(probe, tv);
  auto* reply = static_cast<redisReply*>(redisCommand(probe, "SELECT %d", address_.db));
  absl::Status selected = absl::OkStatus();
  if (reply == nullptr) {
    selected = absl::UnavailableError(
        absl::StrCat("store: ", url_, " did not answer SELECT: ", probe->errstr));
  } else if (reply->type == REDIS_REPLY_ERROR) {
    selected = absl::InvalidArgumentError(
        absl::StrCat("store: ", url_, ": SELECT ", address_.db, ": ", ReplyText(reply)));
  }
  if (reply != nullptr) freeReplyObject(reply);
  redisFree(probe);
  if (!selected.ok()) return selected;

  Connect();
  AwaitFirstConnection();
  if (state_ != State::kUp) {
    const std::string why = last_error_;
    Close();
    return absl::UnavailableError(absl::StrCat("store: cannot connect to ", url_, ": ", why));
  }
  return absl::OkStatus();
}

void RedisPayloadStore::AwaitFirstConnection() {
  const std::uint64_t deadline = uv_hrtime() / 1'000'000 + options_.connect_timeout_ms;
  while (state_ == State::kConnecting) {
    const std::uint64_t now = uv_hrtime() / 1'000'000;
    if (now >= deadline) {
      DropConnection(absl::StrCat("no answer within ", options_.connect_timeout_ms, " ms"));
      return;
    }
    // hiredis completes the connect on the first writable event and reads
    // SELECT's answer on a readable one; the loop does not run yet.
    const bool tcp_up = (ctx_->c.flags & REDIS_CONNECTED) != 0;
    pollfd p{ctx_->c.fd, static_cast<short>(tcp_up ? POLLIN : POLLOUT), 0};
    const int n = poll(&p, 1, static_cast<int>(deadline - now));
    if (n < 0 && errno != EINTR) {
      DropConnection(absl::StrCat("poll: ", std::strerror(errno)));
      return;
    }
    if (n <= 0) continue;
    if (tcp_up) {
      redisAsyncHandleRead(ctx_);
    } else {
      redisAsyncHandleWrite(ctx_);
    }
  }
}

void RedisPayloadStore::Close() {
  if (state_ == State::kClosed) return;
  state_ = State::kClosed;
  last_error_ = "closed";
  if (timer_ != nullptr) {
    uv_close(reinterpret_cast<uv_handle_t*>(timer_),
             [](uv_handle_t* h) { delete reinterpret_cast<uv_timer_t*>(h); });
    timer_ = nullptr;
  }
  if (ctx_ == nullptr) return;
  redisAsyncContext* ctx = ctx_;
  ctx_ = nullptr;
  outstanding_ = 0;
  ctx->data = nullptr;  // the connection callbacks must not touch us
  redisAsyncFree(ctx);  // pending commands complete with kUnavailable
}

void RedisPayloadStore::StartTimer(std::uint64_t ms) {
  if (timer_ == nullptr) {
    timer_ = new uv_timer_t;
    uv_timer_init(loop_, timer_);
    timer_->data = this;
  }
  uv_timer_start(timer_, &RedisPayloadStore::OnTimer, ms, 0);
}

void RedisPayloadStore::OnTimer(uv_timer_t* timer) {
  auto* self = static_cast<RedisPayloadStore*>(timer->data);
  switch (self->state_) {
    case State::kConnecting: {
      std::string why = PendingSocketError(self->ctx_);
      if (why.empty()) why = "no answer";
      self->DropConnection(
          absl::StrCat(why, " within ", self->options_.connect_timeout_ms, " ms"));
      return;
    }
    case State::kWaiting:
      self->Connect();
      return;
    case State::kUp:
      self->CheckReplies();
      return;
    case State::kNew:
    case State::kClosed:
      return;
  }
}

void RedisPayloadStore::CheckReplies() {
  if (outstanding_ == 0) return;
  const std::uint64_t now = uv_now(loop_);
  if (now - last_reply_ms_ < options_.reply_timeout_ms) {
    StartTimer(options_.reply_timeout_ms - (now - last_reply_ms_));
    return;
  }
  // Before giving up, read what the socket holds: the loop may have been
  // too busy to, or the adapter may have dropped a poll error (then the read
  // finds the error and hiredis tears the connection down).
  pollfd p{ctx_->c.fd, POLLIN, 0};
  if (poll(&p, 1, 0) > 0) {
    redisAsyncContext* ctx = ctx_;
    redisAsyncHandleRead(ctx);
    if (state_ != State::kUp || ctx_ != ctx) return;
    if (last_reply_ms_ == now) {  // replies were waiting
      if (outstanding_ > 0) StartTimer(options_.reply_timeout_ms);
      return;
    }
  }
  DropConnection(absl::StrCat("no reply for ", now - last_reply_ms_, " ms with ", outstanding_,
                              " commands outstanding"));
}

std::uint64_t RedisPayloadStore::NextReconnectDelayMs() {
  reconnect_delay_ms_ = reconnect_delay_ms_ == 0
                            ? options_.reconnect_min_delay_ms
                            : std::min(reconnect_delay_ms_ * 2, options_.reconnect_max_delay_ms);
  // Up to 20% jitter, so that daemons sharing a Redis do not retry in step.
  return reconnect_delay_ms_ + jitter_() % (reconnect_delay_ms_ / 5 + 1);
}

void RedisPayloadStore::Connect() {
  ++attempts_;
  redisAsyncContext* ctx = redisAsyncConnect(address_.host.c_str(), address_.port);
  if (ctx == nullptr) {
    ConnectionFailed("out of memory");
    return;
  }
  if (ctx->err != 0) {
    std::string why = ctx->errstr;
    redisAsyncFree(ctx);
    ConnectionFailed(std::move(why));
    return;
  }
  if (redisLibuvAttach(ctx, loop_) != REDIS_OK) {
    // The adapter sets its hooks before it can fail; without its data they
    // must not run.
    ctx->ev.addRead = ctx->ev.delRead = ctx->ev.addWrite = ctx->ev.delWrite = nullptr;
    ctx->ev.cleanup = nullptr;
    redisAsyncFree(ctx);
    ConnectionFailed("cannot attach the connection to the event loop");
    return;
  }
  ctx->data = this;
  redisAsyncSetConnectCallback(ctx, &RedisPayloadStore::OnConnect);
  redisAsyncSetDisconnectCallback(ctx, &RedisPayloadStore::OnDisconnect);
  ctx_ = ctx;
  outstanding_ = 0;
  state_ = State::kConnecting;
  StartTimer(options_.connect_timeout_ms);
  // The connection is up once Redis answers this, not when TCP connects.
  if (redisAsyncCommand(ctx, &RedisPayloadStore::OnSelectReply, nullptr, "SELECT %d",
                        address_.db) != REDIS_OK) {
    DropConnection(QueueError());
  }
}

void RedisPayloadStore::ConnectionFailed(std::string why) {
  ctx_ = nullptr;
  outstanding_ = 0;
  last_error_ = std::move(why);
  if (state_ == State::kClosed) return;
  if (state_ == State::kUp) {
    down_since_ms_ = uv_now(loop_);
    attempts_ = 0;
    spdlog::error("store {}: connection lost ({}); puts and takes fail until it is back", url_,
                  last_error_);
  }
  state_ = State::kWaiting;
  StartTimer(NextReconnectDelayMs());
}

void RedisPayloadStore::DropConnection(std::string why) {
  redisAsyncContext* ctx = ctx_;
  ctx->data = nullptr;  // its connection callbacks must not touch us
  ConnectionFailed(std::move(why));
  // Pending commands complete with kUnavailable; calls they make meanwhile
  // fail at once, as the store is no longer up. From inside a hiredis
  // callback, hiredis defers the free until that callback returns.
  redisAsyncFree(ctx);
}

void RedisPayloadStore::OnConnect(const redisAsyncContext* ctx, int status) {
  auto* self = static_cast<RedisPayloadStore*>(ctx->data);
  if (self == nullptr || ctx != self->ctx_ || status == REDIS_OK) return;
  // hiredis frees the context after this returns.
  self->ConnectionFailed(ctx->errstr != nullptr ? ctx->errstr : "connect failed");
}

void RedisPayloadStore::OnDisconnect(const redisAsyncContext* ctx, int status) {
  auto* self = static_cast<RedisPayloadStore*>(ctx->data);
  if (self == nullptr || ctx != self->ctx_) return;
  // hiredis frees the context after this returns; its pending commands have
  // already completed.
  self->ConnectionFailed(status == REDIS_OK || ctx->errstr == nullptr ? "disconnected"
                                                                      : ctx->errstr);
}

void RedisPayloadStore::OnSelectReply(redisAsyncContext* ctx, void* r, void*) {
  auto* self = static_cast<RedisPayloadStore*>(ctx->data);
  auto* reply = static_cast<redisReply*>(r);
  // No reply: the context is going away, and OnConnect or OnDisconnect says
  // why.
  if (self == nullptr || ctx != self->ctx_ || self->state_ != State::kConnecting ||
      reply == nullptr) {
    return;
  }
  if (reply->type == REDIS_REPLY_ERROR) {
    self->DropConnection(absl::StrCat("SELECT ", self->address_.db, ": ", ReplyText(reply)));
    return;
  }
  self->state_ = State::kUp;
  uv_timer_stop(self->timer_);
  self->reconnect_delay_ms_ = 0;
  if (self->was_up_) {
    spdlog::warn("store {}: connection back after {} ms down ({} attempts)", self->url_,
                 uv_now(self->loop_) - self->down_since_ms_, self->attempts_);
  }
  self->was_up_ = true;
  self->attempts_ = 0;
}

bool RedisPayloadStore::Queue(redisCallbackFn* fn, void* privdata, int argc, const char** argv,
                              const std::size_t* argv_len) {
  if (redisAsyncCommandArgv(ctx_, fn, privdata, argc, argv, argv_len) != REDIS_OK) return false;
  CommandQueued();
  return true;
}

bool RedisPayloadStore::Queue(redisCallbackFn* fn, void* privdata) {
  return Queue(fn, privdata, static_cast<int>(argv_.size()), argv_.data(), argv_len_.data());
}

void RedisPayloadStore::CommandQueued() {
  if (outstanding_++ > 0) return;
  last_reply_ms_ = uv_now(loop_);
  if (uv_is_active(reinterpret_cast<uv_handle_t*>(timer_)) == 0) {
    StartTimer(options_.reply_timeout_ms);
  }
}

void RedisPayloadStore::ReplyArrived(const redisAsyncContext* ctx) {
  if (ctx != ctx_ || outstanding_ == 0) return;
  --outstanding_;
  last_reply_ms_ = uv_now(loop_);
}

std::size_t RedisPayloadStore::FormatKey(std::uint64_t id, char* out) const {
  std::memcpy(out, key_prefix_.data(), key_prefix_.size());
  char* end = std::to_chars(out + key_prefix_.size(), out + kKeyCapacity, id).ptr;
  return static_cast<std::size_t>(end - out);
}

void RedisPayloadStore::FormatArgv(std::string_view command,
                                   std::span<const std::uint64_t> ids) {
  key_text_.resize(ids.size() * kKeyCapacity);
  argv_.resize(ids.size() + 1);
  argv_len_.resize(ids.size() + 1);
  argv_[0] = command.data();
  argv_len_[0] = command.size();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    char* key = key_text_.data() + i * kKeyCapacity;
    argv_[i + 1] = key;
    argv_len_[i + 1] = FormatKey(ids[i], key);
  }
}

void RedisPayloadStore::Put(std::uint64_t id, std::string&& payload, PutCallback done) {
  if (state_ != State::kUp) {
    done(Unavailable(last_error_));
    return;
  }
  char key[kKeyCapacity];
  const char* argv[] = {"SET", key, payload.data(), "PX", ttl_text_.data()};
  const std::size_t argv_len[] = {3, FormatKey(id, key), payload.size(), 2, ttl_text_.size()};
  const int argc = options_.key_ttl_ms > 0 ? 5 : 3;
  auto* request = new PutRequest{this, std::move(done)};
  if (!Queue(&RedisPayloadStore::OnPutReply, request, argc, argv, argv_len)) {
    std::unique_ptr<PutRequest> owned(request);
    owned->done(Unavailable(QueueError()));
  }
}

void RedisPayloadStore::OnPutReply(redisAsyncContext* ctx, void* r, void* privdata) {
  std::unique_ptr<PutRequest> request(static_cast<PutRequest*>(privdata));
  RedisPayloadStore* store = request->store;
  store->ReplyArrived(ctx);
  auto* reply = static_cast<redisReply*>(r);
  if (reply == nullptr) {
    request->done(store->Unavailable(store->LostReason(ctx)));
    return;
  }
  if (reply->type == REDIS_REPLY_ERROR) {
    request->done(store->Unavailable(absl::StrCat("SET: ", ReplyText(reply))));
    return;
  }
  store->size_++;
  request->done(absl::OkStatus());
}

void RedisPayloadStore::TakeBatch(std::span<const std::uint64_t> ids, TakeCallback done) {
  if (state_ != State::kUp) {
    done(Unavailable(last_error_), {}, {});
    return;
  }
  if (ids.empty()) {
    done(absl::OkStatus(), {}, {});
    return;
  }
  FormatArgv("MGET", ids);
  auto* request = new TakeRequest{this, std::move(done), {ids.begin(), ids.end()}};
  if (!Queue(&RedisPayloadStore::OnTakeReply, request)) {
    std::unique_ptr<TakeRequest> owned(request);
    owned->done(Unavailable(QueueError()), {}, {});
  }
}

void RedisPayloadStore::OnTakeReply(redisAsyncContext* ctx, void* r, void* privdata) {
  std::unique_ptr<TakeRequest> request(static_cast<TakeRequest*>(privdata));
  RedisPayloadStore* store = request->store;
  store->ReplyArrived(ctx);
  auto* reply = static_cast<redisReply*>(r);
  const std::size_t n = request->ids.size();
  if (reply == nullptr) {
    request->done(store->Unavailable(store->LostReason(ctx)), {}, {});
    return;
  }
  if (reply->type != REDIS_REPLY_ARRAY || reply->elements != n) {
    request->done(store->Unavailable(absl::StrCat(
                      "MGET: ", reply->type == REDIS_REPLY_ERROR ? ReplyText(reply)
                                                                 : "unexpected reply")),
                  {}, {});
    return;
  }
  std::vector<std::string> payloads(n);
  std::vector<TakeResult> results(n, TakeResult::kTaken);
  std::size_t taken = 0;  // request->ids[0, taken) become the ids to unlink
  for (std::size_t i = 0; i < n; ++i) {
    const redisReply* element = reply->element[i];
    if (element->type == REDIS_REPLY_STRING) {
      payloads[i].assign(element->str, element->len);
      request->ids[taken++] = request->ids[i];
    } else {
      results[i] = TakeResult::kMissing;  // nil: expired, evicted or deleted
    }
  }
  store->size_ -= std::min(store->size_, n);
  // Delete what we now hold before `done` runs, so that a payload it puts
  // back under the same id is queued after the delete. If the connection is
  // no longer ours the keys go with their TTL.
  if (taken > 0 && ctx == store->ctx_ && store->state_ == State::kUp) {
    store->FormatArgv("UNLINK", std::span<const std::uint64_t>(request->ids.data(), taken));
    store->Queue(&RedisPayloadStore::OnEraseReply, store);
  }
  request->done(absl::OkStatus(), std::span<std::string>(payloads),
                std::span<const TakeResult>(results));
}

void RedisPayloadStore::Erase(std::uint64_t id) {
  if (size_ > 0) size_--;
  if (state_ != State::kUp) return;  // the key goes with its TTL
  FormatArgv("UNLINK", std::span<const std::uint64_t>(&id, 1));
  Queue(&RedisPayloadStore::OnEraseReply, this);  // if refused, the key goes with its TTL
}

void RedisPayloadStore::OnEraseReply(redisAsyncContext* ctx, void*, void* privdata) {
  static_cast<RedisPayloadStore*>(privdata)->ReplyArrived(ctx);
}

}  // namespace trestle::daemon
