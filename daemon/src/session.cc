#include "session.h"

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
  poll_parked = true;
  poll_max = max_count;
  uv_timer_start(&poll_timer_, on_timeout, timeout_ms, 0);
}

void Session::UnparkPoll() {
  poll_parked = false;
  uv_timer_stop(&poll_timer_);
}

}  // namespace trestle::daemon
