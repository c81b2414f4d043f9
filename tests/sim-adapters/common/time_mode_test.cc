// TimeMode: names both ways, and agreeing with the daemon's Welcome.
#include "trestle/adapter/time_mode.h"

#include <gtest/gtest.h>

namespace trestle::adapter {
namespace {

TEST(TimeMode, ParsesEachNameAndNamesItBack) {
  for (TimeMode mode :
       {TimeMode::kVirtual, TimeMode::kPaced, TimeMode::kWallclock, TimeMode::kLockstep}) {
    absl::StatusOr<TimeMode> parsed = ParseTimeMode(TimeModeName(mode));
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(*parsed, mode);
  }
  absl::StatusOr<TimeMode> warp = ParseTimeMode("warp");
  ASSERT_FALSE(warp.ok());
  EXPECT_EQ(warp.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(warp.status().message(),
            "unknown time mode 'warp' (virtual, paced, wallclock, lockstep)");
}

TEST(TimeMode, WithoutAFlagTheAdapterFollowsTheDaemon) {
  EXPECT_EQ(*AgreeTimeMode("paced", std::nullopt), TimeMode::kPaced);
  EXPECT_EQ(*AgreeTimeMode("wallclock", std::nullopt), TimeMode::kWallclock);
  EXPECT_EQ(*AgreeTimeMode("virtual", TimeMode::kVirtual), TimeMode::kVirtual);
}

TEST(TimeMode, AFlagThatDisagreesIsAnErrorNamingBothModes) {
  absl::StatusOr<TimeMode> mode = AgreeTimeMode("virtual", TimeMode::kPaced);
  ASSERT_FALSE(mode.ok());
  EXPECT_EQ(mode.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(mode.status().message(),
            "--time-mode paced disagrees with the daemon's time_mode virtual");
  // wallclock and virtual make an adapter do the same, but the apps expect
  // different things: still a disagreement.
  EXPECT_FALSE(AgreeTimeMode("wallclock", TimeMode::kVirtual).ok());
}

TEST(TimeMode, AModeTheAdapterDoesNotKnowIsNamed) {
  absl::StatusOr<TimeMode> mode = AgreeTimeMode("warp", std::nullopt);
  ASSERT_FALSE(mode.ok());
  EXPECT_EQ(mode.status().message(),
            "the daemon's time_mode 'warp' is not one this adapter runs in (virtual, paced, "
            "wallclock, lockstep)");
  EXPECT_EQ(*AgreeTimeMode("lockstep", std::nullopt), TimeMode::kLockstep);
}

}  // namespace
}  // namespace trestle::adapter
