// ReplayRanks: a rank sends its next message when the one it waits for has
// arrived (plus its reduction), keeps one that comes before its step, and is
// done after its last; ids name step and sender.
#include "trestle/fabric/replay_ranks.h"

#include <gtest/gtest.h>

#include <vector>

namespace trestle::fabric {
namespace {

using Due = ReplayRanks::Due;

// Three ranks, two steps: to i+1, then to i+2 (each rank hears from i-1,
// then from i-2); the first step reduces for 7 ns.
std::vector<ReplayStep> TwoSteps() {
  return {ReplayStep{{StepPattern::Kind::kShift, 1}, 100, 7},
          ReplayStep{{StepPattern::Kind::kShift, 2}, 200, 0}};
}

TEST(ReplayRanks, ARankSendsOnceWhatItWaitsForHasArrivedPlusItsReduction) {
  const std::vector<ReplayStep> steps = TwoSteps();
  ReplayRanks ranks(steps, 3, 0, 1, 1000);
  std::vector<Due> due;
  const ReplayRanks::Message m = ranks.Send(0, &due);
  EXPECT_EQ(m.id, 1000u);
  EXPECT_EQ(m.dst, 1u);
  EXPECT_EQ(m.bytes, 100u);
  EXPECT_EQ(m.t_send, 0u);
  EXPECT_TRUE(due.empty()) << "rank 0 waits for rank 2's message";
  ranks.Send(2, &due);
  EXPECT_EQ(ranks.ReceiverOf(1002), 0u);
  ranks.Arrived(1002, 500, &due);  // rank 2 -> rank 0, step 0
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].rank, 0u);
  EXPECT_EQ(due[0].t, 507u) << "the arrival plus 7 ns of reduction";
  const ReplayRanks::Message second = ranks.Send(0, &due);
  EXPECT_EQ(second.step, 1u);
  EXPECT_EQ(second.dst, 2u);
  EXPECT_EQ(second.t_send, 507u);
  EXPECT_EQ(second.id, 1000u + 3);
}

TEST(ReplayRanks, AMessageBeforeItsStepWaitsForTheRank) {
  const std::vector<ReplayStep> steps = TwoSteps();
  ReplayRanks ranks(steps, 3, 10, 1000, 0);  // in ps: starts at 10, 7 ns = 7,000
  std::vector<Due> due;
  for (std::uint32_t r = 0; r < 3; ++r) ranks.Send(r, &due);
  // Rank 1's step-1 message to rank 0 (1 + 2 = 0 mod 3) comes before rank
  // 0 has its step-0 message: kept.
  ranks.Arrived(2, 400, &due);  // rank 2 -> 0, step 0: rank 0 moves on
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].t, 7400u);
  due.clear();
  ranks.Arrived(0, 300, &due);   // rank 0 -> 1, step 0
  ranks.Arrived(1, 350, &due);   // rank 1 -> 2, step 0
  ASSERT_EQ(due.size(), 2u);
  due.clear();
  ranks.Send(1, &due);           // rank 1 -> 0 (step 1)
  ranks.Arrived(3 + 1, 900, &due);  // ... arrives at rank 0 before rank 0 sent step 1
  EXPECT_TRUE(due.empty());
  EXPECT_EQ(ranks.done(), 0u);
  ranks.Send(0, &due);  // rank 0 sends step 1 and takes the kept message: done
  EXPECT_TRUE(due.empty()) << "that was its last step";
  EXPECT_EQ(ranks.done(), 1u);
  EXPECT_EQ(ranks.end(), 7400u) << "its clock was already past the arrival";
}

}  // namespace
}  // namespace trestle::fabric
