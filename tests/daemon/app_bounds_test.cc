// AppBounds, table-driven: after a sequence of Set()s (a later one replaces
// an app's earlier terms; Terms() forgets it), the exact lowest running
// clock, blocked clock and blocked next time (with the app that has it),
// the count of running apps, whether any blocked app has a wake time or any
// joined app something held, and the apps Due() below two limits.
#include "lockstep/app_bounds.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "lockstep/virtual_time.h"

namespace trestle::daemon {
namespace {

using Terms = AppBounds::Terms;
using Lowest = AppBounds::Lowest;
using Apps = std::vector<std::uint32_t>;

constexpr Lowest kNone{kNever, 0};

Terms Running(std::uint64_t clock, std::uint64_t held = kNever) {
  return {.joined = true, .running = true, .clock = clock, .wake = std::nullopt, .held = held};
}
Terms Blocked(std::uint64_t clock, std::optional<std::uint64_t> wake = std::nullopt,
              std::uint64_t held = kNever) {
  return {.joined = true, .running = false, .clock = clock, .wake = wake, .held = held};
}
Terms NotJoined(std::uint64_t held) {
  Terms t;
  t.held = held;
  return t;
}

struct SetSpec {
  std::uint32_t app = 0;
  Terms terms{};
};
struct Case {
  std::string name{};
  std::vector<SetSpec> sets{};
  Lowest running = kNone;
  Lowest blocked_clock = kNone;
  Lowest blocked_next = kNone;
  std::size_t running_count = 0;
  bool any_wake = false;
  bool any_joined_held = false;
  std::uint64_t limit = kNever;
  Apps due{};  // Due(limit)
  std::uint64_t lower_limit = 0;
  Apps due_lower{};  // Due(lower_limit)
};

std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }

const Case kCases[] = {
    {.name = "Empty"},
    {.name = "RunningByClockThenIndex",
     .sets = {{2, Running(7)}, {0, Running(9)}, {1, Running(7)}},
     .running = {7, 1},
     .running_count = 3},
    {.name = "BlockedNextIsMaxOfClockAndEarlierOfWakeAndHeld",
     .sets = {{0, Blocked(20, 30, 25)}, {1, Blocked(40, 10)}, {2, Blocked(5)}},
     .blocked_clock = {5, 2},  // app 2, with neither, is in no next order
     .blocked_next = {25, 0},  // app 1: max(40, 10) = 40
     .any_wake = true,
     .any_joined_held = true,
     .limit = 26,
     .due = {0, 1},  // held 25 of app 0; wakes 30 (no) and 10 (yes)
     .lower_limit = 10,
     .due_lower = {}},
    {.name = "WakeOfARunningAppCountsForNothing",
     .sets = {{0, {.joined = true, .running = true, .clock = 3, .wake = 8, .held = kNever}}},
     .running = {3, 0},
     .running_count = 1,
     .due = {}},
    {.name = "HeldForAnAppNotJoinedIsDueButHoldsNoOne",
     .sets = {{0, NotJoined(12)}},
     .limit = 13,
     .due = {0},
     .lower_limit = 12,
     .due_lower = {}},
    {.name = "DueMergesHeldAndWakesInIndexOrder",
     .sets = {{3, Blocked(0, 10)}, {1, Running(0, 5)}, {2, Blocked(0, 4, 10)}, {0, Blocked(0, 11)}},
     .running = {0, 1},
     .blocked_clock = {0, 0},
     .blocked_next = {4, 2},
     .running_count = 1,
     .any_wake = true,
     .any_joined_held = true,
     .limit = 11,
     .due = {1, 2, 3},  // app 2 by both its held 10 and its wake 4, once
     .lower_limit = 10,
     .due_lower = {1, 2}},
    {.name = "SetReplacesTheEarlierTerms",
     .sets = {{0, Running(5)}, {1, Running(6)}, {0, Blocked(8, 9)}},
     .running = {6, 1},
     .blocked_clock = {8, 0},
     .blocked_next = {9, 0},
     .running_count = 1,
     .any_wake = true,
     .limit = 10,
     .due = {0},
     .lower_limit = 9,
     .due_lower = {}},
    {.name = "ForgottenAppIsInNoOrder",
     .sets = {{0, Blocked(1, 4, 3)}, {1, Running(2, 7)}, {0, Terms()}, {1, Terms()}},
     .due = {}},
    {.name = "LeavingKeepsWhatIsHeldDue",
     .sets = {{0, Blocked(1, 4, 3)}, {0, NotJoined(3)}},
     .limit = 4,
     .due = {0}},
};

class AppBoundsTable : public ::testing::TestWithParam<Case> {};

TEST_P(AppBoundsTable, LowestTermsCountsAndDueApps) {
  const Case& c = GetParam();
  AppBounds bounds;
  for (const SetSpec& s : c.sets) bounds.Set(s.app, s.terms);
  EXPECT_EQ(bounds.LowestRunning(), c.running);
  EXPECT_EQ(bounds.LowestBlockedClock(), c.blocked_clock);
  EXPECT_EQ(bounds.LowestBlockedNext(), c.blocked_next);
  EXPECT_EQ(bounds.running(), c.running_count);
  EXPECT_EQ(bounds.any_wake(), c.any_wake);
  EXPECT_EQ(bounds.any_joined_held(), c.any_joined_held);
  Apps due;
  bounds.Due(c.limit, &due);
  EXPECT_EQ(due, c.due) << "Due(" << c.limit << ")";
  Apps due_lower;
  bounds.Due(c.lower_limit, &due_lower);
  EXPECT_EQ(due_lower, c.due_lower) << "Due(" << c.lower_limit << ")";
}

INSTANTIATE_TEST_SUITE_P(Cases, AppBoundsTable, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

TEST(AppBounds, DueAppendsAfterWhatTheListHolds) {
  AppBounds bounds;
  bounds.Set(4, Running(0, 1));
  bounds.Set(2, Blocked(0, 1));
  Apps due = {9, 1};
  bounds.Due(2, &due);
  EXPECT_EQ(due, (Apps{9, 1, 2, 4}));
}

}  // namespace
}  // namespace trestle::daemon
