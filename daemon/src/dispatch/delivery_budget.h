// DeliveryBudget: payload bytes waiting for delivery, all apps together,
// against delivery_memory_budget. Crossing the budget upwards calls
// `on_pause(true)` (the data plane stops reading outcomes from simulators);
// falling back to 3/4 of it calls `on_pause(false)`. It is the only thing
// that pauses simulators: a slow app is bounded on its own
// (DeliveryDispatcher), so that it does not hold back everyone else.
#pragma once

#include <cstdint>
#include <functional>

namespace trestle::daemon {

class DeliveryBudget {
 public:
  DeliveryBudget(std::uint64_t budget_bytes, std::function<void(bool paused)> on_pause)
      : budget_(budget_bytes), on_pause_(std::move(on_pause)) {}

  void Add(std::uint64_t bytes) {
    held_ += bytes;
    if (!paused_ && held_ > budget_) {
      paused_ = true;
      on_pause_(true);
    }
  }
  void Remove(std::uint64_t bytes) {
    held_ -= bytes < held_ ? bytes : held_;
    if (paused_ && held_ <= budget_ / 4 * 3) {
      paused_ = false;
      on_pause_(false);
    }
  }
  std::uint64_t held() const { return held_; }
  bool paused() const { return paused_; }

 private:
  const std::uint64_t budget_;
  std::function<void(bool)> on_pause_;
  std::uint64_t held_ = 0;
  bool paused_ = false;
};

}  // namespace trestle::daemon
