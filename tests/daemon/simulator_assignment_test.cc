// SimulatorAssignment: kSystem sends everything to queue 0; kPerNode gives
// each sending app its own queue, the one the SIM of the same client id
// serves, whichever of the two comes first; an app's answer is cached by its
// index.
#include "dispatch/simulator_assignment.h"

#include <gtest/gtest.h>

namespace trestle::daemon {
namespace {

TEST(SimulatorAssignment, SystemModeHasOneQueueForEveryAppAndSimulator) {
  SimulatorAssignment a(SimAssignment::kSystem);
  EXPECT_EQ(a.QueueForApp(0, "n1"), 0u);
  EXPECT_EQ(a.QueueForApp(7, "n2"), 0u);
  EXPECT_EQ(a.QueueForSimulator("n1"), 0u);
  EXPECT_EQ(a.QueueForSimulator("ghost"), 0u);
  EXPECT_EQ(a.queue_count(), 1u);
  EXPECT_EQ(a.key(0), "");
}

TEST(SimulatorAssignment, PerNodeGivesEachAppItsOwnQueueAfterTheSystemOne) {
  SimulatorAssignment a(SimAssignment::kPerNode);
  EXPECT_EQ(a.queue_count(), 1u) << "queue 0 (the system queue) exists from the start";
  EXPECT_EQ(a.QueueForApp(0, "n1"), 1u);
  EXPECT_EQ(a.QueueForApp(1, "n2"), 2u);
  EXPECT_EQ(a.QueueForApp(0, "n1"), 1u);
  EXPECT_EQ(a.queue_count(), 3u);
  EXPECT_EQ(a.key(0), "");
  EXPECT_EQ(a.key(1), "n1");
  EXPECT_EQ(a.key(2), "n2");
}

TEST(SimulatorAssignment, PerNodeSimulatorsAndAppsMeetOnTheSameQueueInEitherOrder) {
  SimulatorAssignment a(SimAssignment::kPerNode);
  // The app sends first, then its simulator joins.
  const std::uint32_t q1 = a.QueueForApp(3, "n1");
  EXPECT_EQ(a.QueueForSimulator("n1"), q1);
  // The simulator joins first, then its app sends.
  const std::uint32_t q2 = a.QueueForSimulator("n2");
  EXPECT_NE(q2, q1);
  EXPECT_NE(q2, 0u);
  EXPECT_EQ(a.QueueForApp(9, "n2"), q2);
  // A simulator of no app's name gets a queue no app shares.
  const std::uint32_t q3 = a.QueueForSimulator("n3");
  EXPECT_NE(q3, q1);
  EXPECT_NE(q3, q2);
  EXPECT_EQ(a.queue_count(), 4u);
  EXPECT_EQ(a.key(q2), "n2");
}

TEST(SimulatorAssignment, PerNodeAnswerForAnAppIsCachedByItsIndex) {
  SimulatorAssignment a(SimAssignment::kPerNode);
  const std::uint32_t q = a.QueueForApp(4, "n1");
  // The id is read only the first time an index is asked about: the answer
  // for index 4 stays, whatever name comes with it later.
  EXPECT_EQ(a.QueueForApp(4, "someone-else"), q);
  EXPECT_EQ(a.queue_count(), 2u) << "no queue was made for the second name";
  // Another index with the same id shares the queue (the same client).
  EXPECT_EQ(a.QueueForApp(5, "n1"), q);
}

}  // namespace
}  // namespace trestle::daemon
