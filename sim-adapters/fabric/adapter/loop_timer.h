// Internal to trestle_fabric_adapter: LoopTimer, a one-shot libuv timer on an
// EventLoop that runs a callback. Start() (re)arms it, so a timer restarted
// on every event fires only after the events stop for its timeout.
//
// Lifetime: the loop must outlive the timer. The destructor closes the uv
// handle, whose memory the close callback frees (the loop runs once more, as
// EventLoop's destructor does), so the timer may be destroyed from inside its
// own callback's loop pass. Threading: the loop's thread only.
#ifndef TRESTLE_FABRIC_ADAPTER_LOOP_TIMER_H_
#define TRESTLE_FABRIC_ADAPTER_LOOP_TIMER_H_

#include <uv.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <utility>

namespace trestle::fabric::internal {

class LoopTimer {
 public:
  LoopTimer(uv_loop_t* loop, std::function<void()> callback)
      : callback_(std::move(callback)), timer_(new uv_timer_t) {
    uv_timer_init(loop, timer_);
    timer_->data = this;
  }
  ~LoopTimer() {
    uv_timer_stop(timer_);
    timer_->data = nullptr;
    uv_close(reinterpret_cast<uv_handle_t*>(timer_),
             [](uv_handle_t* handle) { delete reinterpret_cast<uv_timer_t*>(handle); });
  }
  LoopTimer(const LoopTimer&) = delete;
  LoopTimer& operator=(const LoopTimer&) = delete;

  // Fires once, `timeout` from now (0: on the loop's next pass).
  void Start(std::chrono::milliseconds timeout) {
    uv_update_time(timer_->loop);  // measure the timeout from now, not the pass's start
    uv_timer_start(timer_, &LoopTimer::OnTimer, static_cast<std::uint64_t>(timeout.count()), 0);
  }
  void Stop() { uv_timer_stop(timer_); }

 private:
  static void OnTimer(uv_timer_t* timer) {
    if (auto* self = static_cast<LoopTimer*>(timer->data)) self->callback_();
  }

  std::function<void()> callback_;
  uv_timer_t* timer_;
};

}  // namespace trestle::fabric::internal

#endif  // TRESTLE_FABRIC_ADAPTER_LOOP_TIMER_H_
