#include "store/redis_connection.h"

#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "store/redis_loop_adapter.h"
#include "trestle/platform/redis_url.h"

namespace trestle::daemon {

namespace {

// The error a socket's connect ended with, for the connect timeout's message;
// empty while it is still in progress.
std::string PendingSocketError(const redisAsyncContext* ctx) {
  int err = 0;
  socklen_t len = sizeof err;
  if (getsockopt(ctx->c.fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err == 0) return {};
  return std::strerror(err);
}

// Zero timeouts and delays would spin the loop: they are taken as 1 ms.
RedisConnection::Options Sane(RedisConnection::Options o) {
  o.connect_timeout_ms = std::max<std::uint64_t>(o.connect_timeout_ms, 1);
  o.reply_timeout_ms = std::max<std::uint64_t>(o.reply_timeout_ms, 1);
  o.reconnect_min_delay_ms = std::max<std::uint64_t>(o.reconnect_min_delay_ms, 1);
  o.reconnect_max_delay_ms = std::max(o.reconnect_max_delay_ms, o.reconnect_min_delay_ms);
  return o;
}

// Send()'s ReplyCallback form: a handler that owns the function.
struct CallbackHandler final : RedisConnection::ReplyHandler {
  explicit CallbackHandler(RedisConnection::ReplyCallback f) : done(std::move(f)) {}
  void OnRedisReply(const absl::Status& status, const redisReply* reply) override {
    std::unique_ptr<CallbackHandler> self(this);
    if (done) done(status, reply);
  }
  RedisConnection::ReplyCallback done;
};

}  // namespace

RedisConnection::RedisConnection(uv_loop_t* loop, std::string name, std::string url,
                                 Options options)
    : loop_(loop),
      name_(std::move(name)),
      url_(std::move(url)),
      options_(Sane(options)),
      jitter_(std::random_device{}()) {}

RedisConnection::~RedisConnection() { Close(); }

absl::Status RedisConnection::UnavailableError(const std::string& why) const {
  return absl::UnavailableError(absl::StrCat(name_, " ", url_, " is unavailable: ", why));
}

absl::Status RedisConnection::status() const {
  return available() ? absl::OkStatus() : UnavailableError(last_error_);
}

std::string RedisConnection::LostReason(const redisAsyncContext* ctx) const {
  return ctx->err != 0 && ctx->errstr != nullptr
             ? absl::StrCat("connection lost (", ctx->errstr, ")")
             : last_error_;
}

std::string RedisConnection::QueueError() const {
  return absl::StrCat("hiredis could not queue the command (",
                      ctx_->err != 0 ? ctx_->errstr : "the connection is closing", ")");
}

absl::Status RedisConnection::Open() {
  if (state_ != State::kNew) {
    return absl::FailedPreconditionError(absl::StrCat(name_, ": Open() called twice"));
  }
  auto address = platform::ParseRedisUrl(url_);
  if (!address.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(name_, ": ", address.status().message()));
  }
  address_ = *address;
  if (absl::Status probed = Probe(); !probed.ok()) return probed;
  Connect();
  AwaitFirstConnection();
  if (state_ != State::kUp) {
    const std::string why = last_error_;
    Close();
    return absl::UnavailableError(absl::StrCat(name_, ": cannot connect to ", url_, ": ", why));
  }
  return absl::OkStatus();
}

// One blocking round trip first, so that a wrong address or DB number is a
// clear start-up error rather than a stream of failed commands.
absl::Status RedisConnection::Probe() const {
  const timeval tv{static_cast<time_t>(options_.connect_timeout_ms / 1000),
                   static_cast<suseconds_t>(options_.connect_timeout_ms % 1000 * 1000)};
  std::unique_ptr<redisContext, decltype(&redisFree)> probe(
      redisConnectWithTimeout(address_.host.c_str(), address_.port, tv), &redisFree);
  if (probe == nullptr || probe->err != 0) {
    return absl::UnavailableError(absl::StrCat(name_, ": cannot reach ", url_, ": ",
                                               probe == nullptr ? "out of memory" : probe->errstr));
  }
  redisSetTimeout(probe.get(), tv);
  std::unique_ptr<redisReply, decltype(&freeReplyObject)> reply(
      static_cast<redisReply*>(redisCommand(probe.get(), "SELECT %d", address_.db)),
      &freeReplyObject);
  if (reply == nullptr) {
    return absl::UnavailableError(
        absl::StrCat(name_, ": ", url_, " did not answer SELECT: ", probe->errstr));
  }
  if (reply->type == REDIS_REPLY_ERROR) {
    return absl::InvalidArgumentError(
        absl::StrCat(name_, ": ", url_, ": SELECT ", address_.db, ": ", absl::string_view(reply->str, reply->len)));
  }
  return absl::OkStatus();
}

void RedisConnection::AwaitFirstConnection() {
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
    if (n > 0) tcp_up ? redisAsyncHandleRead(ctx_) : redisAsyncHandleWrite(ctx_);
  }
}

void RedisConnection::Close() {
  if (state_ == State::kClosed) return;
  state_ = State::kClosed;
  last_error_ = "closed";
  timer_.Close();
  outstanding_ = 0;
  // Once ctx != ctx_ its disconnect callback leaves us alone; its pending
  // commands complete with kUnavailable.
  if (redisAsyncContext* ctx = std::exchange(ctx_, nullptr)) redisAsyncFree(ctx);
}

void RedisConnection::StartTimer(std::uint64_t ms) {
  if (!timer_) {
    timer_.Init(uv_timer_init, loop_);
    timer_->data = this;
  }
  uv_timer_start(timer_.get(), &RedisConnection::OnTimer, ms, 0);
}

void RedisConnection::OnTimer(uv_timer_t* timer) {
  auto* self = static_cast<RedisConnection*>(timer->data);
  if (self->state_ == State::kWaiting) {
    self->Connect();
  } else if (self->state_ == State::kUp) {
    self->CheckReplies();
  } else if (self->state_ == State::kConnecting) {
    const std::string why = PendingSocketError(self->ctx_);
    self->DropConnection(absl::StrCat(why.empty() ? "no answer" : why, " within ",
                                      self->options_.connect_timeout_ms, " ms"));
  }
}

void RedisConnection::CheckReplies() {
  if (outstanding_ == 0) return;
  const std::uint64_t now = uv_now(loop_);
  if (now - last_reply_ms_ < options_.reply_timeout_ms) {
    StartTimer(options_.reply_timeout_ms - (now - last_reply_ms_));
    return;
  }
  // Before giving up, read what the socket holds: the loop may have been
  // too busy to (a read that finds an error lets hiredis tear the
  // connection down).
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

std::uint64_t RedisConnection::NextReconnectDelayMs() {
  reconnect_delay_ms_ = reconnect_delay_ms_ == 0
                            ? options_.reconnect_min_delay_ms
                            : std::min(reconnect_delay_ms_ * 2, options_.reconnect_max_delay_ms);
  // Up to 20% jitter, so that clients sharing a Redis do not retry in step.
  return reconnect_delay_ms_ + jitter_() % (reconnect_delay_ms_ / 5 + 1);
}

void RedisConnection::Connect() {
  ++attempts_;
  redisAsyncContext* ctx = redisAsyncConnect(address_.host.c_str(), address_.port);
  if (ctx == nullptr || ctx->err != 0 || !AttachRedisToLoop(ctx, loop_)) {
    std::string why = ctx == nullptr ? "out of memory"
                      : ctx->err != 0 ? ctx->errstr
                                      : "cannot attach the connection to the event loop";
    if (ctx != nullptr) redisAsyncFree(ctx);
    ConnectionFailed(std::move(why));
    return;
  }
  ctx->data = this;
  redisAsyncSetConnectCallback(ctx, &RedisConnection::OnConnect);
  redisAsyncSetDisconnectCallback(ctx, &RedisConnection::OnDisconnect);
  ctx_ = ctx;
  state_ = State::kConnecting;
  StartTimer(options_.connect_timeout_ms);
  // The connection is up once Redis answers this, not when TCP connects.
  if (redisAsyncCommand(ctx, &RedisConnection::OnSelectReply, nullptr, "SELECT %d",
                        address_.db) != REDIS_OK) {
    DropConnection(QueueError());
  }
}

void RedisConnection::ConnectionFailed(std::string why) {
  ctx_ = nullptr;
  outstanding_ = 0;
  last_error_ = std::move(why);
  if (state_ == State::kClosed) return;
  const bool was_up = state_ == State::kUp;
  if (was_up) {
    down_since_ms_ = uv_now(loop_);
    attempts_ = 0;
    spdlog::error("{} {}: connection lost ({}); its commands fail until it is back", name_, url_,
                  last_error_);
  }
  state_ = State::kWaiting;
  StartTimer(NextReconnectDelayMs());
  if (was_up && on_state_change_) on_state_change_(false);
}

void RedisConnection::DropConnection(std::string why) {
  // From now on ctx != ctx_: its callbacks leave our state alone.
  redisAsyncContext* ctx = ctx_;
  ConnectionFailed(std::move(why));
  // Pending commands complete with kUnavailable; commands sent meanwhile
  // fail at once, as the connection is no longer up. From inside a hiredis
  // callback, hiredis defers the free until that callback returns.
  redisAsyncFree(ctx);
}

void RedisConnection::OnConnect(const redisAsyncContext* ctx, int status) {
  auto* self = static_cast<RedisConnection*>(ctx->data);
  if (ctx != self->ctx_ || status == REDIS_OK) return;
  // hiredis frees the context after this returns.
  self->ConnectionFailed(ctx->errstr != nullptr ? ctx->errstr : "connect failed");
}

void RedisConnection::OnDisconnect(const redisAsyncContext* ctx, int status) {
  auto* self = static_cast<RedisConnection*>(ctx->data);
  if (ctx != self->ctx_) return;
  // hiredis frees the context after this returns; its pending commands have
  // already completed.
  self->ConnectionFailed(status == REDIS_OK || ctx->errstr == nullptr ? "disconnected"
                                                                      : ctx->errstr);
}

void RedisConnection::OnSelectReply(redisAsyncContext* ctx, void* r, void*) {
  auto* self = static_cast<RedisConnection*>(ctx->data);
  auto* reply = static_cast<redisReply*>(r);
  // No reply: the context is going away, and OnConnect or OnDisconnect says
  // why.
  if (ctx != self->ctx_ || self->state_ != State::kConnecting || reply == nullptr) return;
  if (reply->type == REDIS_REPLY_ERROR) {
    self->DropConnection(absl::StrCat("SELECT ", self->address_.db, ": ",
                                      absl::string_view(reply->str, reply->len)));
    return;
  }
  self->ConnectionUp();
}

void RedisConnection::ConnectionUp() {
  state_ = State::kUp;
  uv_timer_stop(timer_.get());
  reconnect_delay_ms_ = 0;
  if (was_up_) {
    spdlog::warn("{} {}: connection back after {} ms down ({} attempts)", name_, url_,
                 uv_now(loop_) - down_since_ms_, attempts_);
  }
  was_up_ = true;
  attempts_ = 0;
  if (on_state_change_) on_state_change_(true);
}

void RedisConnection::Send(std::span<const std::string_view> argv, ReplyHandler* handler) {
  if (argv.empty() || state_ != State::kUp) {
    handler->OnRedisReply(
        argv.empty() ? absl::InvalidArgumentError(name_ + ": empty command") : status(), nullptr);
    return;
  }
  FormatCommand(argv);
  if (redisAsyncFormattedCommand(ctx_, &RedisConnection::OnReply, handler, command_.data(),
                                 command_.size()) != REDIS_OK) {
    handler->OnRedisReply(UnavailableError(QueueError()), nullptr);
    return;
  }
  CommandQueued();
}

// RESP, as redisFormatCommandArgv writes it, into a buffer kept from one
// command to the next: hiredis's own formatting allocates a string per
// command and formats each length with sdscatfmt.
void RedisConnection::FormatCommand(std::span<const std::string_view> argv) {
  command_.clear();
  auto header = [this](char kind, std::size_t n) {
    char digits[24];
    digits[0] = kind;
    char* end = std::to_chars(digits + 1, digits + sizeof digits - 2, n).ptr;
    *end++ = '\r';
    *end++ = '\n';
    command_.append(digits, end);
  };
  header('*', argv.size());
  for (std::string_view arg : argv) {
    header('$', arg.size());
    command_.append(arg);
    command_.append("\r\n", 2);
  }
}

void RedisConnection::Send(std::span<const std::string_view> argv, ReplyCallback done) {
  Send(argv, new CallbackHandler(std::move(done)));
}

void RedisConnection::OnReply(redisAsyncContext* ctx, void* reply, void* privdata) {
  auto* self = static_cast<RedisConnection*>(ctx->data);
  auto* handler = static_cast<ReplyHandler*>(privdata);
  self->ReplyArrived(ctx);
  handler->OnRedisReply(
      reply != nullptr ? absl::OkStatus() : self->UnavailableError(self->LostReason(ctx)),
      static_cast<const redisReply*>(reply));
}

void RedisConnection::CommandQueued() {
  if (outstanding_++ > 0) return;
  last_reply_ms_ = uv_now(loop_);
  if (uv_is_active(timer_.base()) == 0) {
    StartTimer(options_.reply_timeout_ms);
  }
}

void RedisConnection::ReplyArrived(const redisAsyncContext* ctx) {
  if (ctx != ctx_ || outstanding_ == 0) return;
  --outstanding_;
  last_reply_ms_ = uv_now(loop_);
}

}  // namespace trestle::daemon
