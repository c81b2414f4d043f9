#include "session.h"

#include <algorithm>
#include <utility>

namespace trestle::daemon {

Session::Session(uv_loop_t* loop, std::string token_in, std::uint64_t id_prefix_in,
                 wire::Role role_in, wire::DeliveryMode mode_in, std::uint32_t client_in)
    : token(std::move(token_in)),
      id_prefix(id_prefix_in),
      role(role_in),
      mode(mode_in),
      client(client_in) {
  uv_timer_init(loop, &poll_timer_);
  poll_timer_.data = this;
}

void Session::Destroy() {
  state = State::kEnded;
  uv_close(reinterpret_cast<uv_handle_t*>(&poll_timer_), [](uv_handle_t* h) {
    delete static_cast<Session*>(h->data);
  });
}

Connection* Session::channel(wire::Channel c) const {
  switch (c) {
    case wire::CHANNEL_CTRL: return ctrl;
    case wire::CHANNEL_SEND: return send;
    case wire::CHANNEL_RECV: return recv;
    default: return nullptr;
  }
}

Connection** Session::channel_slot(wire::Channel c) {
  switch (c) {
    case wire::CHANNEL_CTRL: return &ctrl;
    case wire::CHANNEL_SEND: return &send;
    case wire::CHANNEL_RECV: return &recv;
    default: return nullptr;
  }
}

void Session::ParkPoll(std::uint32_t max_count, std::uint64_t timeout_ms, uv_timer_cb on_timeout) {
  if (!poll_room()) return;  // the relay refuses before this
  on_poll_timeout_ = on_timeout;
  polls_[polls_waiting_++] = {max_count, uv_now(poll_timer_.loop) + timeout_ms};
  ArmPollTimer();
}

std::uint32_t Session::TakePoll() {
  if (polls_waiting_ == 0) return 0;
  const std::uint32_t max_count = polls_[0].max_count;
  std::move(polls_.begin() + 1, polls_.begin() + polls_waiting_, polls_.begin());
  --polls_waiting_;
  ArmPollTimer();
  return max_count;
}

std::uint32_t Session::TakeExpiredPolls(std::uint64_t now_ms) {
  std::uint32_t kept = 0;
  for (std::uint32_t i = 0; i < polls_waiting_; ++i) {
    if (polls_[i].deadline_ms > now_ms) polls_[kept++] = polls_[i];
  }
  const std::uint32_t expired = polls_waiting_ - kept;
  polls_waiting_ = kept;
  ArmPollTimer();
  return expired;
}

void Session::DropPolls() {
  polls_waiting_ = 0;
  uv_timer_stop(&poll_timer_);
}

void Session::ArmPollTimer() {
  if (polls_waiting_ == 0) {
    uv_timer_stop(&poll_timer_);
    return;
  }
  std::uint64_t earliest = polls_[0].deadline_ms;
  for (std::uint32_t i = 1; i < polls_waiting_; ++i) {
    earliest = std::min(earliest, polls_[i].deadline_ms);
  }
  const std::uint64_t now = uv_now(poll_timer_.loop);
  uv_timer_start(&poll_timer_, on_poll_timeout_, earliest > now ? earliest - now : 0, 0);
}

}  // namespace trestle::daemon
