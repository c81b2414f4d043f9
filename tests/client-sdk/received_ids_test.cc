// ReceivedIds: the ids of an app's last N deliveries, for dropping a message
// delivered again to a new session (a daemon restarted and replaying).
#include "received_ids.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace trestle::internal {
namespace {

TEST(ReceivedIdsTest, AnIdDeliveredBeforeIsRefusedAndNothingChanges) {
  ReceivedIds ids(4);
  EXPECT_TRUE(ids.Insert(10));
  EXPECT_TRUE(ids.Insert(11));
  EXPECT_FALSE(ids.Insert(10));
  EXPECT_FALSE(ids.Insert(11));
  EXPECT_EQ(ids.size(), 2u);
  EXPECT_TRUE(ids.Contains(10));
  EXPECT_FALSE(ids.Contains(12));
}

TEST(ReceivedIdsTest, OnceFullTheOldestIsForgottenFirst) {
  ReceivedIds ids(3);
  for (std::uint64_t id : {1, 2, 3}) ASSERT_TRUE(ids.Insert(id));
  EXPECT_TRUE(ids.Insert(4));  // forgets 1
  EXPECT_EQ(ids.size(), 3u);
  EXPECT_FALSE(ids.Contains(1));
  EXPECT_FALSE(ids.Insert(2));  // still remembered, and not moved up
  EXPECT_TRUE(ids.Insert(5));   // forgets 2
  EXPECT_FALSE(ids.Contains(2));
  EXPECT_TRUE(ids.Contains(3));
  EXPECT_TRUE(ids.Insert(1));   // forgotten: new again; forgets 3
  EXPECT_FALSE(ids.Contains(3));
  EXPECT_TRUE(ids.Contains(4));
  EXPECT_TRUE(ids.Contains(5));
  EXPECT_EQ(ids.size(), 3u);
}

TEST(ReceivedIdsTest, HoldsExactlyTheLastCapacityIdsOverManyLaps) {
  constexpr std::size_t kCapacity = 65536;
  ReceivedIds ids(kCapacity);
  constexpr std::uint64_t kTotal = 5 * kCapacity + 123;
  for (std::uint64_t id = 1; id <= kTotal; ++id) ASSERT_TRUE(ids.Insert(id << 8));
  EXPECT_EQ(ids.size(), kCapacity);
  // The last kCapacity are duplicates; the one just before them is not.
  for (std::uint64_t id = kTotal - kCapacity + 1; id <= kTotal; ++id) {
    ASSERT_FALSE(ids.Insert(id << 8)) << id;
  }
  EXPECT_FALSE(ids.Contains((kTotal - kCapacity) << 8));
  EXPECT_TRUE(ids.Insert((kTotal - kCapacity) << 8));
  EXPECT_EQ(ids.size(), kCapacity);
}

TEST(ReceivedIdsTest, CapacityZeroRemembersNothing) {
  ReceivedIds ids(0);
  EXPECT_TRUE(ids.Insert(7));
  EXPECT_TRUE(ids.Insert(7));
  EXPECT_EQ(ids.size(), 0u);
}

}  // namespace
}  // namespace trestle::internal
