// ReceivedIds: the ids of an app's last N deliveries, for dropping a message
// delivered again to a new session under a new numbering (a daemon
// restarted and replaying). Under one numbering nothing is looked up
// (delivery_seq tells); from a new numbering on, every id among the last N
// before it is refused.
#include "received_ids.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace trestle::internal {
namespace {

TEST(ReceivedIdsTest, AnIdDeliveredUnderAnEarlierNumberingIsRefusedAndNothingChanges) {
  ReceivedIds ids(4);
  EXPECT_TRUE(ids.Insert(10));
  EXPECT_TRUE(ids.Insert(11));
  ids.StartNumbering();
  EXPECT_FALSE(ids.Insert(10));
  EXPECT_FALSE(ids.Insert(11));
  EXPECT_EQ(ids.size(), 2u);
  EXPECT_TRUE(ids.Contains(10));
  EXPECT_FALSE(ids.Contains(12));
  EXPECT_TRUE(ids.Insert(12));
  ids.StartNumbering();
  EXPECT_FALSE(ids.Insert(12)) << "delivered under the second numbering, refused under the third";
  EXPECT_FALSE(ids.Insert(10));
}

// Under one numbering the daemon's delivery_seq tells a delivery written
// again: the window does not look.
TEST(ReceivedIdsTest, UnderOneNumberingNothingIsLookedUp) {
  ReceivedIds ids(4);
  EXPECT_TRUE(ids.Insert(10));
  EXPECT_TRUE(ids.Insert(10));
  EXPECT_EQ(ids.size(), 2u);
}

TEST(ReceivedIdsTest, OnceFullTheOldestIsForgottenFirst) {
  ReceivedIds ids(3);
  for (std::uint64_t id : {1, 2, 3, 4}) ASSERT_TRUE(ids.Insert(id));  // 4 forgets 1
  EXPECT_EQ(ids.size(), 3u);
  EXPECT_FALSE(ids.Contains(1));
  ids.StartNumbering();
  EXPECT_TRUE(ids.Insert(1)) << "forgotten before the numbering started: new again";
  EXPECT_FALSE(ids.Insert(2));
  EXPECT_FALSE(ids.Contains(2)) << "the ring has moved on";
  EXPECT_FALSE(ids.Insert(2)) << "still refused under this numbering: ids are never reused";
  EXPECT_TRUE(ids.Contains(1));
  EXPECT_EQ(ids.size(), 3u);
}

TEST(ReceivedIdsTest, HoldsExactlyTheLastCapacityIdsOverManyLaps) {
  constexpr std::size_t kCapacity = 65536;
  ReceivedIds ids(kCapacity);
  constexpr std::uint64_t kTotal = 5 * kCapacity + 123;
  for (std::uint64_t id = 1; id <= kTotal; ++id) ASSERT_TRUE(ids.Insert(id << 8));
  EXPECT_EQ(ids.size(), kCapacity);
  ids.StartNumbering();
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
  ids.StartNumbering();
  EXPECT_TRUE(ids.Insert(7));
  EXPECT_EQ(ids.size(), 0u);
}

}  // namespace
}  // namespace trestle::internal
