#include "keepalive.h"

#include <algorithm>

namespace trestle::internal {

Keepalive::Keepalive(uv_loop_t* loop, std::chrono::milliseconds interval,
                     std::chrono::milliseconds timeout, std::function<void()> ping,
                     std::function<void()> lost)
    : loop_(loop),
      interval_ms_(static_cast<std::uint64_t>(std::max<std::int64_t>(0, interval.count()))),
      timeout_ms_(static_cast<std::uint64_t>(std::max<std::int64_t>(0, timeout.count()))),
      ping_(std::move(ping)),
      lost_(std::move(lost)) {}

Keepalive::~Keepalive() { Stop(); }

void Keepalive::Start() {
  if (interval_ms_ == 0 || timeout_ms_ == 0 || timer_) return;
  timer_.Init(uv_timer_init, loop_);
  timer_->data = this;
  // An idle session is checked every interval; a check costs nothing more.
  const std::uint64_t period = std::min(interval_ms_, timeout_ms_);
  Heard();
  uv_timer_start(timer_.get(), &Keepalive::OnTimer, period, period);
}

void Keepalive::Stop() {
  timer_.Close();
}

void Keepalive::OnTimer(uv_timer_t* timer) {
  auto* self = static_cast<Keepalive*>(timer->data);
  const std::uint64_t silent = uv_now(self->loop_) - self->last_heard_ms_;
  if (silent >= self->timeout_ms_) {
    self->Stop();
    self->lost_();  // may destroy the session that owns this object: return at once
    return;
  }
  if (silent >= self->interval_ms_) self->ping_();
}

}  // namespace trestle::internal
