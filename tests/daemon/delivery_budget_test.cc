// DeliveryBudget: pauses once when the bytes held go above the budget (not
// at it), resumes once when they fall to 3/4 of it (not above), and never
// counts below zero.
#include "dispatch/delivery_budget.h"

#include <gtest/gtest.h>

#include <vector>

namespace trestle::daemon {
namespace {

class DeliveryBudgetTest : public ::testing::Test {
 protected:
  std::vector<bool> calls_;
  DeliveryBudget budget_{4000, [this](bool paused) { calls_.push_back(paused); }};
};

TEST_F(DeliveryBudgetTest, PausesAboveTheBudgetNotAtIt) {
  budget_.Add(3000);
  budget_.Add(1000);
  EXPECT_EQ(budget_.held(), 4000u);
  EXPECT_FALSE(budget_.paused());
  EXPECT_TRUE(calls_.empty());
  budget_.Add(1);
  EXPECT_TRUE(budget_.paused());
  EXPECT_EQ(calls_, std::vector<bool>{true});
  budget_.Add(5000);
  EXPECT_EQ(calls_, std::vector<bool>{true}) << "paused once";
  EXPECT_EQ(budget_.held(), 9001u);
}

TEST_F(DeliveryBudgetTest, ResumesAtThreeQuartersNotAbove) {
  budget_.Add(4001);
  budget_.Remove(1000);  // 3001
  EXPECT_TRUE(budget_.paused());
  EXPECT_EQ(calls_, std::vector<bool>{true});
  budget_.Remove(1);  // 3000 = 3/4 of 4000
  EXPECT_FALSE(budget_.paused());
  EXPECT_EQ(calls_, (std::vector<bool>{true, false}));
  budget_.Remove(3000);
  EXPECT_EQ(calls_, (std::vector<bool>{true, false})) << "resumed once";
  EXPECT_EQ(budget_.held(), 0u);
}

TEST_F(DeliveryBudgetTest, BetweenTheMarksNothingChanges) {
  budget_.Add(3500);
  budget_.Remove(100);
  budget_.Add(500);  // 3900: under the budget, above 3/4: not paused
  EXPECT_TRUE(calls_.empty());
  budget_.Add(200);  // 4100: paused
  budget_.Remove(600);  // 3500: still paused
  budget_.Add(100);
  EXPECT_TRUE(budget_.paused());
  EXPECT_EQ(calls_, std::vector<bool>{true});
}

TEST_F(DeliveryBudgetTest, RemovingMoreThanHeldStopsAtZero) {
  budget_.Add(100);
  budget_.Remove(250);
  EXPECT_EQ(budget_.held(), 0u);
  EXPECT_TRUE(calls_.empty());
}

}  // namespace
}  // namespace trestle::daemon
