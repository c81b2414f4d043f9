// TimeEntry: one lockstep report between the daemons of a federated bridge,
// carried as an entry of the receiving daemon's stream (docs/federation.md,
// "Lockstep across daemons"). A peer daemon stands in for its apps towards
// the run's coordinator (join, leave, clock); the coordinator answers
// (joined, wake, quiescent). Fields: `k` (the kind), `from` (the sending
// daemon's id), `app` (the app's client id), and, by kind, `now`, `blocked`,
// `wake`, `block`, `taken` (decimal numbers).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "store/decimal_field.h"

namespace trestle::daemon {

struct TimeEntry {
  enum class Kind : char {
    kJoin = 'j',       // peer -> coordinator: the app said Hello
    kJoined = 'J',     // coordinator -> peer: it starts at `now`
    kLeave = 'l',      // peer -> coordinator: the app left the run
    kClock = 'c',      // peer -> coordinator: the app's Clock report
    kWake = 'w',       // coordinator -> peer: Wake at `now` for `block`
    kQuiescent = 'q',  // coordinator -> peer: Quiescent for `block`
  };
  Kind kind = Kind::kClock;
  std::uint32_t from = 0;
  std::string app;
  std::uint64_t now = 0;
  bool blocked = false;
  std::optional<std::uint64_t> wake;
  std::uint64_t block = 0;
  // Clock: how many deliveries released by the coordinator the app had
  // seen when it reported (the coordinator's staleness check).
  std::uint64_t taken = 0;

  // Whether `k` (a stream entry's kind field) names a time entry.
  static bool IsTimeKind(std::string_view k);
  // Empty on success, else what is wrong with the entry's fields.
  static std::string Parse(std::span<const std::string_view> fields, TimeEntry* out);
};

// The stream fields of entries, built without allocating (valid until the
// next Fields call on the same writer).
class TimeEntryWriter {
 public:
  std::span<const std::string_view> Fields(const TimeEntry& e);

 private:
  DecimalSlots<5> numbers_;
  char kind_[1] = {};
  std::array<std::string_view, 16> fields_;
};

}  // namespace trestle::daemon
