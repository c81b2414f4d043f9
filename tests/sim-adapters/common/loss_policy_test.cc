// LossPolicy: repeatable draws, the two ends of the range, and validation.
#include "trestle/adapter/loss_policy.h"

#include <gtest/gtest.h>

namespace trestle::adapter {
namespace {

int LostOf(LossPolicy& policy, int n) {
  int lost = 0;
  for (int i = 0; i < n; ++i) lost += policy.Lose() ? 1 : 0;
  return lost;
}

TEST(LossPolicy, TheSameSeedLosesTheSameMessages) {
  LossPolicy a(0.3, 42), b(0.3, 42), c(0.3, 43);
  int differences = 0;
  for (int i = 0; i < 1000; ++i) {
    const bool lost = a.Lose();
    EXPECT_EQ(lost, b.Lose()) << i;
    differences += lost != c.Lose() ? 1 : 0;
  }
  EXPECT_GT(differences, 0) << "another seed, other draws";
}

TEST(LossPolicy, RateZeroLosesNothingAndRateOneEverything) {
  LossPolicy never(0.0, 1), always(1.0, 1);
  EXPECT_EQ(LostOf(never, 10000), 0);
  EXPECT_EQ(LostOf(always, 10000), 10000);
}

TEST(LossPolicy, LosesAboutTheRate) {
  LossPolicy policy(0.25, 9);
  const int lost = LostOf(policy, 100000);
  EXPECT_GT(lost, 24000);
  EXPECT_LT(lost, 26000);
}

TEST(LossPolicy, ARateOutsideZeroToOneIsRejectedNamingIt) {
  EXPECT_TRUE(LossPolicy::Validate(0).ok());
  EXPECT_TRUE(LossPolicy::Validate(1).ok());
  absl::Status above = LossPolicy::Validate(1.5);
  EXPECT_EQ(above.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(above.message(), "loss rate must be between 0 and 1, got 1.5");
  EXPECT_FALSE(LossPolicy::Validate(-0.1).ok());
}

}  // namespace
}  // namespace trestle::adapter
