#include "trestle/adapter/paced_scheduler.h"

#include <algorithm>
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
  return heap_.empty() ? kNever : heap_.front().due_ns;
}

void PacedScheduler::Schedule(const Outcome& outcome) {
  if (!started_) Start();
  const std::uint64_t before = next_due_ns();
  heap_.push_back(Entry{DueNs(outcome.t_deliver), next_seq_++, outcome});
  std::push_heap(heap_.begin(), heap_.end(), Later());
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
  std::size_t released = 0;
  while (!heap_.empty() && heap_.front().due_ns <= now_ns) {
    std::pop_heap(heap_.begin(), heap_.end(), Later());
    Outcome outcome = heap_.back().outcome;
    heap_.pop_back();
    ++released;
    release_(outcome);  // may Schedule more: they join the heap
  }
  if (outer) {
    releasing_ = false;
    ArmTimer(now_ns);
  }
  return released;
}

void PacedScheduler::ArmTimer(std::uint64_t now_ns) {
  if (heap_.empty()) {
    uv_timer_stop(timer_.get());
    return;
  }
  const std::uint64_t due = heap_.front().due_ns;
  if (due == kNever) {
    uv_timer_stop(timer_.get());  // beyond any wall time: never released
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
