#include "lockstep/app_bounds.h"

#include <algorithm>

namespace trestle::daemon {
namespace {

using Key = std::optional<std::uint64_t>;

// Each order's key for an app with terms `t` (none: not in that order).
Key HeldKey(const AppBounds::Terms& t) { return t.held != kNever ? Key(t.held) : std::nullopt; }
Key RunningKey(const AppBounds::Terms& t) {
  return t.joined && t.running ? Key(t.clock) : std::nullopt;
}
Key BlockedClockKey(const AppBounds::Terms& t) {
  return t.joined && !t.running ? Key(t.clock) : std::nullopt;
}
Key BlockedNextKey(const AppBounds::Terms& t) {
  const std::uint64_t next = std::min(t.wake.value_or(kNever), t.held);
  return t.joined && !t.running && next != kNever ? Key(std::max(t.clock, next)) : std::nullopt;
}
Key WakeKey(const AppBounds::Terms& t) {
  return t.joined && !t.running ? t.wake : std::nullopt;
}

}  // namespace

// Several of an app's terms change at a time, often to what they were: only
// the orders whose key moved are touched.
void AppBounds::Move(Order& order, std::uint32_t app, Key from, Key to) {
  if (from == to) return;
  if (from) order.erase({*from, app});
  if (to) order.insert({*to, app});
}

void AppBounds::Set(std::uint32_t app, const Terms& terms) {
  if (app >= terms_.size()) terms_.resize(app + 1);
  const Terms old = terms_[app];
  if (old.joined == terms.joined && old.running == terms.running && old.clock == terms.clock &&
      old.wake == terms.wake && old.held == terms.held) {
    return;
  }
  terms_[app] = terms;
  Move(held_, app, HeldKey(old), HeldKey(terms));
  Move(running_, app, RunningKey(old), RunningKey(terms));
  Move(blocked_clock_, app, BlockedClockKey(old), BlockedClockKey(terms));
  Move(blocked_next_, app, BlockedNextKey(old), BlockedNextKey(terms));
  Move(wake_, app, WakeKey(old), WakeKey(terms));
  joined_with_held_ -= old.joined && old.held != kNever ? 1 : 0;
  joined_with_held_ += terms.joined && terms.held != kNever ? 1 : 0;
}

void AppBounds::Due(std::uint64_t limit, std::vector<std::uint32_t>* apps) const {
  const std::size_t from = apps->size();
  for (auto it = held_.begin(); it != held_.end() && it->first < limit; ++it) {
    apps->push_back(it->second);
  }
  for (auto it = wake_.begin(); it != wake_.end() && it->first < limit; ++it) {
    apps->push_back(it->second);
  }
  std::sort(apps->begin() + static_cast<std::ptrdiff_t>(from), apps->end());
  apps->erase(std::unique(apps->begin() + static_cast<std::ptrdiff_t>(from), apps->end()),
              apps->end());
}

}  // namespace trestle::daemon
