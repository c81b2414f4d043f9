// wire::TimeMode by name, both ways (trestle/wire/time_mode.h).
#include "trestle/wire/time_mode.h"

#include <gtest/gtest.h>

namespace trestle::wire {
namespace {

TEST(TimeModeNames, EachModeIsNamedAndParsedBack) {
  for (TimeMode mode :
       {TIME_MODE_WALLCLOCK, TIME_MODE_PACED, TIME_MODE_VIRTUAL, TIME_MODE_LOCKSTEP}) {
    absl::StatusOr<TimeMode> parsed = ParseTimeMode(TimeModeName(mode));
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(*parsed, mode);
  }
  EXPECT_EQ(TimeModeName(TIME_MODE_LOCKSTEP), "lockstep");
}

TEST(TimeModeNames, EveryProtoValueButUnspecifiedHasAName) {
  const google::protobuf::EnumDescriptor* modes = TimeMode_descriptor();
  for (int i = 0; i < modes->value_count(); ++i) {
    const auto mode = static_cast<TimeMode>(modes->value(i)->number());
    if (mode == TIME_MODE_UNSPECIFIED) continue;
    EXPECT_NE(TimeModeName(mode), "?") << modes->value(i)->name();
  }
  EXPECT_EQ(kTimeModeNames.size(), static_cast<std::size_t>(modes->value_count() - 1));
}

TEST(TimeModeNames, AnUnknownNameIsAnErrorNamingItAndTheChoices) {
  absl::StatusOr<TimeMode> warp = ParseTimeMode("warp");
  ASSERT_FALSE(warp.ok());
  EXPECT_EQ(warp.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(warp.status().message(),
            "unknown time mode 'warp' (wallclock, paced, virtual, lockstep)");
  EXPECT_FALSE(ParseTimeMode("").ok());
  EXPECT_FALSE(ParseTimeMode("LOCKSTEP").ok());
}

}  // namespace
}  // namespace trestle::wire
