// DeliveryPacer: holds each delivered packet until its modelled arrival time
// on the monotonic clock, then hands it on (part of trestle_gateway).
//
// The gateway stamps every packet it sends with t_send = CLOCK_MONOTONIC ns,
// and in wallclock time the simulator answers t_deliver = t_send + the
// modelled latency: t_deliver is then the wall time (same clock, same host)
// at which the packet arrives. Packets wait in a platform::DueTimeQueue by
// due time, ties in arrival order; one timerfd (absolute CLOCK_MONOTONIC, nanosecond
// resolution, unlike uv_timer's milliseconds) watched by a uv_poll on the
// caller's loop is armed to the earliest. The loop never blocks or spins.
//
// Limit: at most `max_held` packets wait at once; Hold refuses one more
// (returns false) and the caller counts it dropped, as a full NIC queue
// would.
//
// Lifetime: everything runs on the loop's thread; `loop` must outlive the
// pacer, and the loop must run once after destruction (EventLoop's
// destructor does) to free the poll handle. Pending packets are discarded.
#pragma once

#include <uv.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "trestle/platform/due_time_queue.h"
#include "trestle/platform/uv_handle.h"

namespace trestle::gateway {

inline constexpr std::size_t kDefaultMaxHeld = 8192;

class DeliveryPacer {
 public:
  using Release = std::function<void(const std::string& packet)>;

  static absl::StatusOr<std::unique_ptr<DeliveryPacer>> Create(uv_loop_t* loop, std::size_t max_held,
                                                               Release release);
  DeliveryPacer(const DeliveryPacer&) = delete;
  DeliveryPacer& operator=(const DeliveryPacer&) = delete;
  ~DeliveryPacer();

  // Releases `packet` at CLOCK_MONOTONIC `due_ns` (at once if that has
  // passed and nothing is held). False: `max_held` are waiting already.
  bool Hold(std::uint64_t due_ns, std::string&& packet);

  std::size_t held() const { return held_.size(); }

  // CLOCK_MONOTONIC now, ns.
  static std::uint64_t NowNs();

 private:
  DeliveryPacer(int timer_fd, std::size_t max_held, Release release);
  static void OnTimer(uv_poll_t* poll, int status, int events);
  // Releases what is due, then arms the timer to the next (or disarms it).
  void ReleaseDue();
  void Arm(std::uint64_t due_ns);

  int timer_fd_;
  std::size_t max_held_;
  Release release_;
  platform::UvHandle<uv_poll_t> poll_;
  // Keyed (due ns, 0, arrival order).
  platform::DueTimeQueue<std::string> held_;
  std::uint64_t next_seq_ = 0;
  std::uint64_t armed_ns_ = 0;  // 0: disarmed
};

}  // namespace trestle::gateway
