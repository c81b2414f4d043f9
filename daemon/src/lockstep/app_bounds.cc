#include "lockstep/app_bounds.h"

#include <algorithm>

namespace trestle::daemon {
namespace {

std::uint64_t Next(const AppBounds::Terms& t) {
  return std::min(t.wake.value_or(kNever), t.held);
}

}  // namespace

void AppBounds::Set(std::uint32_t app, const Terms& terms) {
  if (app >= terms_.size()) terms_.resize(app + 1);
  Erase(app, terms_[app]);
  terms_[app] = terms;
  Insert(app, terms);
}

void AppBounds::Insert(std::uint32_t app, const Terms& t) {
  if (t.held != kNever) held_.insert({t.held, app});
  if (!t.joined) return;
  if (t.held != kNever) joined_with_held_++;
  if (t.running) {
    running_.insert({t.clock, app});
    return;
  }
  blocked_clock_.insert({t.clock, app});
  if (const std::uint64_t next = Next(t); next != kNever) {
    blocked_next_.insert({std::max(t.clock, next), app});
  }
  if (t.wake) wake_.insert({*t.wake, app});
}

void AppBounds::Erase(std::uint32_t app, const Terms& t) {
  if (t.held != kNever) held_.erase({t.held, app});
  if (!t.joined) return;
  if (t.held != kNever) joined_with_held_--;
  if (t.running) {
    running_.erase({t.clock, app});
    return;
  }
  blocked_clock_.erase({t.clock, app});
  if (const std::uint64_t next = Next(t); next != kNever) {
    blocked_next_.erase({std::max(t.clock, next), app});
  }
  if (t.wake) wake_.erase({*t.wake, app});
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
