// TimeEntry and TimeEntryWriter, table-driven: the exact stream fields each
// kind of report is written as (a kind carries only its own fields), each
// parsed back to the same report; every malformed entry refused with the
// reason; and which kinds name a time entry.
#include "lockstep/time_entry.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_join.h"
#include "time_entry_text.h"

namespace trestle::daemon {
namespace {

using Kind = TimeEntry::Kind;
using Fields = std::vector<std::string>;

constexpr std::uint64_t kMax64 = std::numeric_limits<std::uint64_t>::max();

std::vector<std::string_view> Views(const Fields& fields) {
  return std::vector<std::string_view>(fields.begin(), fields.end());
}

TimeEntry Entry(Kind kind, std::uint32_t from, std::string app, std::uint64_t now = 0,
                std::uint64_t block = 0) {
  TimeEntry e;
  e.kind = kind;
  e.from = from;
  e.app = std::move(app);
  e.now = now;
  e.block = block;
  return e;
}
TimeEntry ClockEntry(std::uint32_t from, std::string app, std::uint64_t now, bool blocked,
                     std::optional<std::uint64_t> wake, std::uint64_t block, std::uint64_t taken) {
  TimeEntry e = Entry(Kind::kClock, from, std::move(app), now, block);
  e.blocked = blocked;
  e.wake = wake;
  e.taken = taken;
  return e;
}

struct WriteCase {
  std::string name;
  TimeEntry entry;
  Fields fields;  // as written
  TimeEntry parsed;  // as read back
};
std::ostream& operator<<(std::ostream& os, const WriteCase& c) { return os << c.name; }

TimeEntry WithClockFields(TimeEntry e) {
  e.blocked = true;
  e.wake = 99;
  e.taken = 4;
  return e;
}

const WriteCase kWriteCases[] = {
    {"Join", Entry(Kind::kJoin, 2, "rank-0"),
     {"k", "j", "from", "2", "app", "rank-0", "now", "0", "block", "0"},
     Entry(Kind::kJoin, 2, "rank-0")},
    {"Joined", Entry(Kind::kJoined, 1, "rank-0", 40),
     {"k", "J", "from", "1", "app", "rank-0", "now", "40", "block", "0"},
     Entry(Kind::kJoined, 1, "rank-0", 40)},
    {"Leave", Entry(Kind::kLeave, 2, "a"),
     {"k", "l", "from", "2", "app", "a", "now", "0", "block", "0"}, Entry(Kind::kLeave, 2, "a")},
    {"ClockBlockedWithWake", ClockEntry(3, "x", 40, true, 60, 7, 5),
     {"k", "c", "from", "3", "app", "x", "now", "40", "block", "7", "blocked", "1", "taken", "5",
      "wake", "60"},
     ClockEntry(3, "x", 40, true, 60, 7, 5)},
    {"ClockRunning", ClockEntry(3, "x", 41, false, std::nullopt, 0, 0),
     {"k", "c", "from", "3", "app", "x", "now", "41", "block", "0", "blocked", "0", "taken", "0"},
     ClockEntry(3, "x", 41, false, std::nullopt, 0, 0)},
    {"ClockAtTheLimits",
     ClockEntry(std::numeric_limits<std::uint32_t>::max(), "x", kMax64, true, kMax64, kMax64,
                kMax64),
     {"k", "c", "from", "4294967295", "app", "x", "now", "18446744073709551615", "block",
      "18446744073709551615", "blocked", "1", "taken", "18446744073709551615", "wake",
      "18446744073709551615"},
     ClockEntry(std::numeric_limits<std::uint32_t>::max(), "x", kMax64, true, kMax64, kMax64,
                kMax64)},
    // Only a Clock carries blocked, wake and taken.
    {"WakeCarriesNoClockFields", WithClockFields(Entry(Kind::kWake, 1, "a", 30, 3)),
     {"k", "w", "from", "1", "app", "a", "now", "30", "block", "3"},
     Entry(Kind::kWake, 1, "a", 30, 3)},
    {"QuiescentCarriesNoClockFields", WithClockFields(Entry(Kind::kQuiescent, 1, "a", 0, 9)),
     {"k", "q", "from", "1", "app", "a", "now", "0", "block", "9"},
     Entry(Kind::kQuiescent, 1, "a", 0, 9)},
};

class TimeEntryWrite : public ::testing::TestWithParam<WriteCase> {};

TEST_P(TimeEntryWrite, WritesItsFieldsAndParsesBack) {
  const WriteCase& c = GetParam();
  TimeEntryWriter writer;
  const std::span<const std::string_view> written = writer.Fields(c.entry);
  const Fields fields(written.begin(), written.end());
  EXPECT_EQ(fields, c.fields) << absl::StrJoin(fields, " ");
  TimeEntry parsed;
  EXPECT_EQ(TimeEntry::Parse(written, &parsed), "");
  EXPECT_EQ(TimeEntryText(parsed), TimeEntryText(c.parsed));
}

INSTANTIATE_TEST_SUITE_P(Kinds, TimeEntryWrite, ::testing::ValuesIn(kWriteCases),
                         [](const ::testing::TestParamInfo<WriteCase>& info) {
                           return info.param.name;
                         });

TEST(TimeEntryWriter, FieldsOfOneEntryDoNotChangeWithTheNextWriterOfAnother) {
  TimeEntryWriter first;
  TimeEntryWriter second;
  const TimeEntry a = Entry(Kind::kJoined, 1, "a", 12);
  const TimeEntry b = Entry(Kind::kJoined, 2, "b", 34);
  const std::span<const std::string_view> fields = first.Fields(a);
  second.Fields(b);
  EXPECT_EQ(Fields(fields.begin(), fields.end()),
            (Fields{"k", "J", "from", "1", "app", "a", "now", "12", "block", "0"}));
}

struct ParseCase {
  std::string name;
  Fields fields;
  std::string error;  // "" when it parses
};
std::ostream& operator<<(std::ostream& os, const ParseCase& c) { return os << c.name; }

const ParseCase kParseCases[] = {
    {"OddNumberOfFields", {"k", "c", "from"}, "an odd number of fields"},
    {"NoKind", {"from", "1", "app", "a"}, "no time kind (field k)"},
    {"UnknownKind", {"k", "x", "from", "1", "app", "a"}, "field 'k' has a bad value"},
    {"KindOfTwoLetters", {"k", "cc", "from", "1", "app", "a"}, "field 'k' has a bad value"},
    {"NoFrom", {"k", "c", "app", "a"}, "no sending daemon (field from)"},
    {"FromAbove32Bits", {"k", "c", "from", "4294967296", "app", "a"},
     "field 'from' has a bad value"},
    {"FromNegative", {"k", "c", "from", "-1", "app", "a"}, "field 'from' has a bad value"},
    {"NowNotANumber", {"k", "c", "from", "1", "app", "a", "now", "12a"},
     "field 'now' has a bad value"},
    {"NowAbove64Bits", {"k", "c", "from", "1", "app", "a", "now", "18446744073709551616"},
     "field 'now' has a bad value"},
    {"BlockedNotZeroOrOne", {"k", "c", "from", "1", "app", "a", "blocked", "2"},
     "field 'blocked' has a bad value"},
    {"WakeEmpty", {"k", "c", "from", "1", "app", "a", "wake", ""}, "field 'wake' has a bad value"},
    {"BlockNotANumber", {"k", "c", "from", "1", "app", "a", "block", "x"},
     "field 'block' has a bad value"},
    {"TakenNotANumber", {"k", "c", "from", "1", "app", "a", "taken", " 1"},
     "field 'taken' has a bad value"},
    {"NoApp", {"k", "c", "from", "1"}, "a bad app"},
    {"EmptyApp", {"k", "c", "from", "1", "app", ""}, "a bad app"},
    {"AppOverTheLimit", {"k", "c", "from", "1", "app", std::string(256, 'a')}, "a bad app"},
    {"AppAtTheLimit", {"k", "c", "from", "1", "app", std::string(255, 'a')}, ""},
    {"UnknownFieldIgnored", {"k", "l", "from", "1", "app", "a", "newer", "anything"}, ""},
};

class TimeEntryParse : public ::testing::TestWithParam<ParseCase> {};

TEST_P(TimeEntryParse, RefusesWhatIsMalformedNamingIt) {
  const ParseCase& c = GetParam();
  TimeEntry e;
  const std::vector<std::string_view> views = Views(c.fields);
  EXPECT_EQ(TimeEntry::Parse(views, &e), c.error);
}

INSTANTIATE_TEST_SUITE_P(Entries, TimeEntryParse, ::testing::ValuesIn(kParseCases),
                         [](const ::testing::TestParamInfo<ParseCase>& info) {
                           return info.param.name;
                         });

TEST(TimeEntry, IsTimeKindNamesTheSixKindsOnly) {
  for (std::string_view k : {"j", "J", "l", "c", "w", "q"}) EXPECT_TRUE(TimeEntry::IsTimeKind(k)) << k;
  for (std::string_view k : {"", "x", "C", "jj", "d", " "}) {
    EXPECT_FALSE(TimeEntry::IsTimeKind(k)) << "'" << k << "'";
  }
}

}  // namespace
}  // namespace trestle::daemon
