// PacedScheduler: holds outcomes until their wall-clock due time, for a live
// adapter's paced mode (part of trestle_adapter_common; SimAdapter uses it).
//
// An outcome with virtual delivery time t_deliver (ns) is due at wall time
//
//     start + t_deliver × dilation
//
// where start is the clock reading taken by Start(). Pending outcomes wait in
// a platform::DueTimeQueue; one uv_timer on the caller's loop is armed to
// the earliest of them. When it fires, every outcome whose due time has
// passed is handed to the release callback, in due order (equal due times in
// the order they were scheduled), and the timer is re-armed to the next one.
// Nothing is released early: the timer's millisecond granularity can make it
// fire before the earliest due time, in which case it is re-armed for the
// rest. The loop is never blocked and never polled.
//
// Costs: Schedule is O(log n) with no allocation once the queue has grown to
// its working size.
//
// Threading and lifetime: everything runs on the loop's thread. `loop` must
// outlive the scheduler; the destructor closes the timer (its memory is freed
// by the close callback, so the loop must run once more, as EventLoop's
// destructor does) and discards pending outcomes without releasing them.
#ifndef TRESTLE_ADAPTER_PACED_SCHEDULER_H_
#define TRESTLE_ADAPTER_PACED_SCHEDULER_H_

#include <uv.h>

#include <cstdint>
#include <functional>

#include "trestle/outcome.h"
#include "trestle/platform/due_time_queue.h"
#include "trestle/platform/uv_handle.h"

namespace trestle::adapter {

class PacedScheduler {
 public:
  // Runs on the loop thread, from Schedule (an outcome already due) or the
  // timer callback. It may call Schedule.
  using Release = std::function<void(const Outcome&)>;
  // Monotonic wall clock in ns; the default is uv_hrtime (CLOCK_MONOTONIC).
  using Clock = std::function<std::uint64_t()>;

  // `dilation` is wall ns per virtual ns and must be > 0 (values <= 0 are
  // taken as 1).
  PacedScheduler(uv_loop_t* loop, double dilation, Release release, Clock clock = {});
  ~PacedScheduler() = default;  // closes the timer (UvHandle)
  PacedScheduler(const PacedScheduler&) = delete;
  PacedScheduler& operator=(const PacedScheduler&) = delete;

  // Takes start = clock() now. Schedule() before Start() starts the clock
  // itself. Calling Start() again moves start (pending due times are not
  // recomputed).
  void Start();
  bool started() const { return started_; }
  std::uint64_t start_ns() const { return start_ns_; }

  // The wall time (clock ns) at which an outcome with `t_deliver` is due;
  // saturates at UINT64_MAX.
  std::uint64_t DueNs(std::uint64_t t_deliver) const;

  // Queues `outcome` for release at DueNs(outcome.t_deliver); if that time
  // has already come, releases it (and anything else due) before returning.
  void Schedule(const Outcome& outcome);

  // Releases every pending outcome due at or before `now_ns`, in due order;
  // returns how many. The timer calls it with clock(); tests may call it
  // directly with any time.
  std::size_t ReleaseDue(std::uint64_t now_ns);

  std::size_t pending() const { return pending_.size(); }
  // Due time of the earliest pending outcome; UINT64_MAX when none.
  std::uint64_t next_due_ns() const;

 private:
  static void OnTimer(uv_timer_t* timer);
  // Points the timer at the earliest pending outcome (stops it when none).
  void ArmTimer(std::uint64_t now_ns);

  uv_loop_t* loop_;
  double dilation_;
  Release release_;
  Clock clock_;
  platform::UvHandle<uv_timer_t> timer_;
  // Keyed (due ns, 0, schedule order): equal due times in schedule order.
  platform::DueTimeQueue<Outcome> pending_;
  std::uint64_t next_seq_ = 0;
  std::uint64_t start_ns_ = 0;
  bool started_ = false;
  bool releasing_ = false;  // inside ReleaseDue: re-arm once, at the end
};

}  // namespace trestle::adapter

#endif  // TRESTLE_ADAPTER_PACED_SCHEDULER_H_
