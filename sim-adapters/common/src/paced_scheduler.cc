#include "trestle/adapter/paced_scheduler.h"

#include <cmath>
#include <limits>
#include <utility>

namespace trestle::adapter {
namespace {

constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kNsPerMs = 1'000'000;

}  // namespace

PacedScheduler::PacedScheduler(uv_loop_t* loop, double dilation, Release release, Clock clock)
    : loop_(loop),
      dilation_(dilation > 0 ? dilation : 1.0),
      release_(std::move(release)),
      clock_(clock ? std::move(clock) : Clock([] { return uv_hrtime(); })) {
  timer_.Init(uv_timer_init, loop_);
  timer_->data = this;
}

void PacedScheduler::Start() {
  start_ns_ = clock_();
  started_ = true;
}

std::uint64_t PacedScheduler::DueNs(std::uint64_t t_deliver) const {
  const double due = static_cast<double>(start_ns_) + static_cast<double>(t_deliver) * dilation_;
  // 2^64 is exactly representable; anything at or above it saturates.
  if (!(due < 18446744073709551616.0)) return kNever;
  return static_cast<std::uint64_t>(due);
}

std::uint64_t PacedScheduler::next_due_ns() const {
  return pending_.EarliestDue();
}

void PacedScheduler::Schedule(const Outcome& outcome) {
  if (!started_) Start();
  const std::uint64_t before = next_due_ns();
  pending_.Push({DueNs(outcome.t_deliver), 0, next_seq_++}, outcome);
  if (releasing_) return;  // ReleaseDue re-arms when it is done
  const std::uint64_t now = clock_();
  if (next_due_ns() <= now) {
    ReleaseDue(now);
  } else if (next_due_ns() < before) {
    ArmTimer(now);  // the new outcome is the earliest: wake up sooner
  }
}

std::size_t PacedScheduler::ReleaseDue(std::uint64_t now_ns) {
  const bool outer = !releasing_;
  releasing_ = true;
  // release_ may Schedule more: they join the queue.
  const std::size_t released = pending_.PopDue(
      now_ns, [this](platform::DueTimeQueue<Outcome>::Item&& item) { release_(item.value); });
  if (outer) {
    releasing_ = false;
    ArmTimer(now_ns);
  }
  return released;
}

void PacedScheduler::ArmTimer(std::uint64_t now_ns) {
  const std::uint64_t due = pending_.EarliestDue();
  if (due == kNever) {
    uv_timer_stop(timer_.get());  // none, or beyond any wall time: never released
    return;
  }
  // Round up to whole milliseconds (the timer's unit). libuv measures the
  // timeout from its cached loop time, so refresh that first; OnTimer checks
  // the clock again and re-arms if the timer still fired a little early.
  const std::uint64_t wait_ns = due > now_ns ? due - now_ns : 0;
  const std::uint64_t wait_ms = (wait_ns + kNsPerMs - 1) / kNsPerMs;
  uv_update_time(loop_);
  uv_timer_start(timer_.get(), &PacedScheduler::OnTimer, wait_ms, 0);
}

void PacedScheduler::OnTimer(uv_timer_t* timer) {
  auto* self = static_cast<PacedScheduler*>(timer->data);
  if (self == nullptr) return;
  self->ReleaseDue(self->clock_());
}

}  // namespace trestle::adapter
