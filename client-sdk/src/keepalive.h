// internal::Keepalive: notices a daemon that went silent. A daemon that
// dies closes its sockets and the session learns it at once; one that hangs,
// or a host or network that goes away, closes nothing. While a session is
// ready, Keepalive sends a Ping on ctrl whenever nothing was heard for
// `interval`, and calls `lost` once nothing at all was heard for `timeout`
// (ClientOptions::keepalive_interval and keepalive_timeout; 0 turns it off).
// Any frame from the daemon counts as hearing from it, so a busy session
// sends no pings.
//
// Loop thread only. The timer closes with Stop() or the destructor; its
// memory goes on the loop's next pass (platform::UvHandle).
#pragma once

#include <uv.h>

#include <chrono>
#include <cstdint>
#include <functional>

#include "trestle/platform/uv_handle.h"

namespace trestle::internal {

class Keepalive {
 public:
  // `ping` writes a keepalive Ping; `lost` ends the session (called once).
  Keepalive(uv_loop_t* loop, std::chrono::milliseconds interval,
            std::chrono::milliseconds timeout, std::function<void()> ping,
            std::function<void()> lost);
  ~Keepalive();
  Keepalive(const Keepalive&) = delete;
  Keepalive& operator=(const Keepalive&) = delete;

  // Starts watching (the session is ready).
  void Start();
  void Stop();
  // Something arrived from the daemon.
  void Heard() { last_heard_ms_ = uv_now(loop_); }

 private:
  static void OnTimer(uv_timer_t* timer);

  uv_loop_t* loop_;
  const std::uint64_t interval_ms_;
  const std::uint64_t timeout_ms_;
  std::function<void()> ping_;
  std::function<void()> lost_;
  platform::UvHandle<uv_timer_t> timer_;  // while started
  std::uint64_t last_heard_ms_ = 0;
};

}  // namespace trestle::internal
