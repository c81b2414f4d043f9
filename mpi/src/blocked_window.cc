#include "blocked_window.h"

#include <chrono>

namespace trestle::mpi {
namespace {

constexpr std::chrono::milliseconds kSlice{2};

}  // namespace

absl::StatusOr<std::unique_ptr<BlockedWindow>> BlockedWindow::Open(
    TrestleLink& link, std::function<bool()> released) {
  if (absl::Status s = link.ReportBlocked(); !s.ok()) return s;
  return std::unique_ptr<BlockedWindow>(new BlockedWindow(link, std::move(released)));
}

BlockedWindow::BlockedWindow(TrestleLink& link, std::function<bool()> released)
    : link_(link), released_(std::move(released)) {
  helper_ = std::thread([this] { Pump(); });
}

BlockedWindow::~BlockedWindow() { (void)Close(); }

void BlockedWindow::Pump() {
  while (!stop_.load(std::memory_order_acquire) && !released_()) {
    absl::StatusOr<TrestleLink::Step> step = link_.WaitStep(kSlice);
    if (!step.ok()) {
      error_ = step.status();
      return;
    }
    // Quiescent: the other ranks wait too (for this rank's creation call
    // to finish, in real time); wait for it without asking again at once.
    if (*step == TrestleLink::Step::kQuiescent) std::this_thread::sleep_for(kSlice);
  }
}

absl::Status BlockedWindow::Close() {
  if (!helper_.joinable()) return error_;
  stop_.store(true, std::memory_order_release);
  helper_.join();
  return error_;
}

}  // namespace trestle::mpi
