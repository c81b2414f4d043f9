#include "session/session.h"

#include <utility>

namespace trestle::daemon {

Session::Session(uv_loop_t* loop, Params params) : params_(std::move(params)), polls_(loop, *this) {}

void Session::Destroy() {
  state_ = State::kEnded;
  polls_.Close([](uv_handle_t* h) { delete &static_cast<LongPolls*>(h->data)->session(); });
}

Channel*& Session::slot(wire::Channel channel) {
  switch (channel) {
    case wire::CHANNEL_SEND: return send_;
    case wire::CHANNEL_RECV: return recv_;
    default: return ctrl_;
  }
}

}  // namespace trestle::daemon
