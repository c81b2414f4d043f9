// CollectiveBatch: a rank's plans, as the simulator gets them (peers by
// client id, the communicator's size, the compute before each, reductions
// at the reduction bandwidth), and how many batches went.
#include "collective_batch.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace trestle::mpi {
namespace {

TEST(CollectiveBatch, AddsThePlanWithPeersByClientIdAndTheComputeBeforeIt) {
  // World ranks 0..3; a communicator of world ranks {3, 1}; 1 GB/s reductions.
  CollectiveBatch batch({"rank-0", "rank-1", "rank-2", "rank-3"}, 1e9);
  batch.Charge(70);
  CollectivePlan plan(1);
  plan[0].sends.push_back(PlanSend{1, 4096, 5});
  plan[0].recvs.push_back(PlanRecv{1, 5});
  plan[0].reduce_bytes = 2000;
  batch.Add(42, {3, 1}, 7, plan);
  batch.Add(42, {3, 1}, 8, {});  // nothing charged since
  EXPECT_EQ(batch.size(), 2);
  EXPECT_FALSE(batch.full());

  std::string bytes;
  batch.Take(&bytes);
  EXPECT_TRUE(batch.empty());
  EXPECT_EQ(batch.sent(), 1u);
  wire::CollectiveBatch parsed;
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  ASSERT_EQ(parsed.collectives_size(), 2);
  const wire::RankCollective& c = parsed.collectives(0);
  EXPECT_EQ(c.group(), 42u);
  EXPECT_EQ(c.instance(), 7u);
  EXPECT_EQ(c.members(), 2u);
  EXPECT_EQ(c.compute_ns(), 70u);
  ASSERT_EQ(c.steps_size(), 1);
  EXPECT_EQ(c.steps(0).sends(0).peer(), "rank-1") << "comm rank 1 is world rank 1";
  EXPECT_EQ(c.steps(0).sends(0).label(), 5);
  EXPECT_EQ(c.steps(0).sends(0).bytes(), 4096u);
  EXPECT_EQ(c.steps(0).recvs(0).peer(), "rank-1");
  EXPECT_EQ(c.steps(0).reduce_ns(), 2000u) << "2,000 bytes at 1 GB/s";
  EXPECT_EQ(parsed.collectives(1).compute_ns(), 0u);
  EXPECT_EQ(parsed.collectives(1).steps_size(), 0);
}

TEST(CollectiveBatch, IsFullAtItsLimitAndReusesItselfAfterATake) {
  CollectiveBatch batch({"a", "b"}, 0);
  CollectivePlan plan(1);
  plan[0].sends.push_back(PlanSend{1, 8, 0});
  plan[0].reduce_bytes = 8;  // free: no reduction bandwidth
  for (int i = 0; i < CollectiveBatch::kMaxCollectives; ++i) batch.Add(1, {0, 1}, i, plan);
  EXPECT_TRUE(batch.full());
  std::string bytes;
  batch.Take(&bytes);
  batch.Add(1, {0, 1}, 0, plan);
  batch.Take(&bytes);
  EXPECT_EQ(batch.sent(), 2u);
  wire::CollectiveBatch parsed;
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  ASSERT_EQ(parsed.collectives_size(), 1) << "nothing of the first batch is left";
  EXPECT_EQ(parsed.collectives(0).steps(0).reduce_ns(), 0u);
  EXPECT_EQ(batch.TakeCompute(), 0u);
}

}  // namespace
}  // namespace trestle::mpi
