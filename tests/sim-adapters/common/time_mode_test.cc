// AgreeTimeMode: the adapter's time mode against the daemon's Welcome.
#include "trestle/adapter/time_mode.h"

#include <gtest/gtest.h>

namespace trestle::adapter {
namespace {

TEST(AgreeTimeMode, WithoutAFlagTheAdapterFollowsTheDaemon) {
  EXPECT_EQ(*AgreeTimeMode("paced", std::nullopt), wire::TIME_MODE_PACED);
  EXPECT_EQ(*AgreeTimeMode("wallclock", std::nullopt), wire::TIME_MODE_WALLCLOCK);
  EXPECT_EQ(*AgreeTimeMode("virtual", wire::TIME_MODE_VIRTUAL), wire::TIME_MODE_VIRTUAL);
}

TEST(AgreeTimeMode, AFlagThatDisagreesIsAnErrorNamingBothModes) {
  absl::StatusOr<wire::TimeMode> mode = AgreeTimeMode("virtual", wire::TIME_MODE_PACED);
  ASSERT_FALSE(mode.ok());
  EXPECT_EQ(mode.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(mode.status().message(),
            "--time-mode paced disagrees with the daemon's time_mode virtual");
  // wallclock and virtual make an adapter do the same, but the apps expect
  // different things: still a disagreement.
  EXPECT_FALSE(AgreeTimeMode("wallclock", wire::TIME_MODE_VIRTUAL).ok());
}

TEST(AgreeTimeMode, AModeTheAdapterDoesNotKnowIsNamed) {
  absl::StatusOr<wire::TimeMode> mode = AgreeTimeMode("warp", std::nullopt);
  ASSERT_FALSE(mode.ok());
  EXPECT_EQ(mode.status().message(),
            "the daemon's time_mode 'warp' is not one this adapter runs in (wallclock, "
            "paced, virtual, lockstep)");
  EXPECT_EQ(*AgreeTimeMode("lockstep", std::nullopt), wire::TIME_MODE_LOCKSTEP);
}

}  // namespace
}  // namespace trestle::adapter
