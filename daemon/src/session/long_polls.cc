#include "session/long_polls.h"

#include <algorithm>

namespace trestle::daemon {

LongPolls::LongPolls(uv_loop_t* loop, Session& session) : session_(session) {
  uv_timer_init(loop, &timer_);
  timer_.data = this;
}

void LongPolls::Park(std::uint32_t max_count, std::uint64_t timeout_ms, TimeoutHandler* handler) {
  if (!room()) return;  // the dispatchers refuse before this
  handler_ = handler;
  polls_[waiting_++] = {max_count, uv_now(timer_.loop) + timeout_ms};
  Arm();
}

std::uint32_t LongPolls::Take() {
  if (waiting_ == 0) return 0;
  const std::uint32_t max_count = polls_[0].max_count;
  std::move(polls_.begin() + 1, polls_.begin() + waiting_, polls_.begin());
  --waiting_;
  Arm();
  return max_count;
}

void LongPolls::Drop() {
  waiting_ = 0;
  uv_timer_stop(&timer_);
}

void LongPolls::Close(uv_close_cb on_closed) {
  Drop();
  uv_close(reinterpret_cast<uv_handle_t*>(&timer_), on_closed);
}

void LongPolls::OnTimer(uv_timer_t* timer) {
  auto* self = static_cast<LongPolls*>(timer->data);
  const std::uint64_t now = uv_now(timer->loop);
  std::uint32_t kept = 0;
  for (std::uint32_t i = 0; i < self->waiting_; ++i) {
    if (self->polls_[i].deadline_ms > now) self->polls_[kept++] = self->polls_[i];
  }
  const std::uint32_t expired = self->waiting_ - kept;
  self->waiting_ = kept;
  self->Arm();
  if (expired > 0 && self->handler_ != nullptr) {
    self->handler_->OnPollsExpired(self->session_, expired);
  }
}

void LongPolls::Arm() {
  if (waiting_ == 0) {
    uv_timer_stop(&timer_);
    return;
  }
  std::uint64_t earliest = polls_[0].deadline_ms;
  for (std::uint32_t i = 1; i < waiting_; ++i) earliest = std::min(earliest, polls_[i].deadline_ms);
  const std::uint64_t now = uv_now(timer_.loop);
  uv_timer_start(&timer_, &LongPolls::OnTimer, earliest > now ? earliest - now : 0, 0);
}

}  // namespace trestle::daemon
