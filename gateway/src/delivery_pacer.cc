#include "trestle/gateway/delivery_pacer.h"

#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace trestle::gateway {

std::uint64_t DeliveryPacer::NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec);
}

absl::StatusOr<std::unique_ptr<DeliveryPacer>> DeliveryPacer::Create(uv_loop_t* loop,
                                                                     std::size_t max_held,
                                                                     Release release) {
  const int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (fd < 0) return absl::InternalError(absl::StrCat("timerfd_create: ", std::strerror(errno)));
  auto pacer = std::unique_ptr<DeliveryPacer>(new DeliveryPacer(fd, max_held, std::move(release)));
  if (int rc = pacer->poll_.Init(uv_poll_init, loop, fd); rc != 0) {
    return absl::InternalError(absl::StrCat("uv_poll_init(timerfd): ", uv_strerror(rc)));
  }
  pacer->poll_->data = pacer.get();
  uv_poll_start(pacer->poll_.get(), UV_READABLE, &DeliveryPacer::OnTimer);
  return pacer;
}

DeliveryPacer::DeliveryPacer(int timer_fd, std::size_t max_held, Release release)
    : timer_fd_(timer_fd), max_held_(max_held), release_(std::move(release)) {}

DeliveryPacer::~DeliveryPacer() {
  poll_.Close();  // before the descriptor it watches
  close(timer_fd_);
}

bool DeliveryPacer::Hold(std::uint64_t due_ns, std::string&& packet) {
  if (held_.empty() && due_ns <= NowNs()) {
    release_(packet);
    return true;
  }
  if (held_.size() >= max_held_) return false;
  held_.Push({due_ns, 0, next_seq_++}, std::move(packet));
  if (armed_ns_ == 0 || due_ns < armed_ns_) Arm(due_ns);
  return true;
}

void DeliveryPacer::OnTimer(uv_poll_t* poll, int status, int /*events*/) {
  auto* self = static_cast<DeliveryPacer*>(poll->data);
  if (self == nullptr || status < 0) return;
  std::uint64_t expirations = 0;
  while (read(self->timer_fd_, &expirations, sizeof expirations) > 0) {
  }
  self->armed_ns_ = 0;
  self->ReleaseDue();
}

void DeliveryPacer::ReleaseDue() {
  held_.PopDue(NowNs(), [this](platform::DueTimeQueue<std::string>::Item&& item) {
    release_(item.value);
  });
  if (!held_.empty()) Arm(held_.EarliestDue());
}

void DeliveryPacer::Arm(std::uint64_t due_ns) {
  itimerspec spec{};
  spec.it_value.tv_sec = static_cast<time_t>(due_ns / 1'000'000'000u);
  spec.it_value.tv_nsec = static_cast<long>(due_ns % 1'000'000'000u);
  // An absolute time in the past fires at once; 0 would disarm instead.
  if (due_ns == 0) spec.it_value.tv_nsec = 1;
  timerfd_settime(timer_fd_, TFD_TIMER_ABSTIME, &spec, nullptr);
  armed_ns_ = std::max<std::uint64_t>(due_ns, 1);
}

}  // namespace trestle::gateway
