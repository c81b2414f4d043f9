// AppBounds: the terms each app of a lockstep run contributes to the
// TimeCoordinator's bounds, kept in order, so that a pass finds the lowest
// of them, and the apps with something due, without looking at every app:
// the coordinator's cost per message does not grow with the apps of the
// run (docs/benchmarks.md, "Lockstep at scale").
//
// Per app (by registry index): whether it is of the run (joined), whether
// it runs (not blocked in a receive, or blocked but not yet past a delivery
// handed to it), its clock, its wake time while blocked, and the earliest
// t_deliver held for it (joined or not). Set() replaces them; the
// TimeCoordinator calls it whenever one of them changes.
//
// Loop thread only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/btree_set.h"
#include "lockstep/virtual_time.h"

namespace trestle::daemon {

class AppBounds {
 public:
  struct Terms {
    bool joined = false;
    bool running = false;  // meaningful while joined
    std::uint64_t clock = 0;
    std::optional<std::uint64_t> wake;  // while joined and blocked
    std::uint64_t held = kNever;        // the earliest held t_deliver; kNever: none
  };
  // (value, app); value kNever when there is none.
  using Lowest = std::pair<std::uint64_t, std::uint32_t>;

  void Set(std::uint32_t app, const Terms& terms);
  void Forget(std::uint32_t app) { Set(app, Terms()); }

  // The lowest clock of a running app; of a blocked app; and, over the
  // blocked apps, the lowest max(clock, min(wake, held)).
  Lowest LowestRunning() const { return Front(running_); }
  Lowest LowestBlockedClock() const { return Front(blocked_clock_); }
  Lowest LowestBlockedNext() const { return Front(blocked_next_); }
  std::size_t running() const { return running_.size(); }
  bool any_wake() const { return !wake_.empty(); }
  bool any_joined_held() const { return joined_with_held_ > 0; }
  // Appends to `apps`, in increasing index, every app with something held
  // before `limit` or (blocked) a wake time before it.
  void Due(std::uint64_t limit, std::vector<std::uint32_t>* apps) const;

 private:
  using Order = absl::btree_set<Lowest>;
  static Lowest Front(const Order& order) {
    return order.empty() ? Lowest{kNever, 0} : *order.begin();
  }
  // Takes `app` out of `order` at key `from` and puts it in at `to`.
  static void Move(Order& order, std::uint32_t app, std::optional<std::uint64_t> from,
                   std::optional<std::uint64_t> to);

  std::vector<Terms> terms_;  // by app index
  Order running_;             // (clock, app): joined and running
  Order blocked_clock_;       // (clock, app): joined and blocked
  Order blocked_next_;        // (max(clock, min(wake, held)), app): blocked, with either
  Order held_;                // (held, app): any app with something held
  Order wake_;                // (wake, app): blocked with a wake time
  std::size_t joined_with_held_ = 0;
};

}  // namespace trestle::daemon
