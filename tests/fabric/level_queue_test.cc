// LevelQueue: links come out lowest level first, ties by lowest link index,
// whatever order they went in; 0, -0, subnormal, huge and infinite levels
// order as numbers; pushes and pops interleaved agree with a sorted set.
#include "trestle/fabric/level_queue.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace trestle::fabric {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::vector<std::uint32_t> Drain(LevelQueue& queue) {
  std::vector<std::uint32_t> links;
  while (!queue.empty()) links.push_back(queue.Pop());
  return links;
}

TEST(LevelQueue, LowestLevelFirstThenLowestLink) {
  LevelQueue queue;
  queue.Push(2.5, 7);
  queue.Push(kInfinity, 1);
  queue.Push(0.75, 9);
  queue.Push(2.5, 3);
  queue.Push(kInfinity, 0);
  queue.Push(1e-300, 4);
  EXPECT_EQ(queue.size(), 6u);
  EXPECT_EQ(Drain(queue), (std::vector<std::uint32_t>{4, 9, 3, 7, 0, 1}));
  EXPECT_TRUE(queue.empty());
}

TEST(LevelQueue, LevelsOrderAsNumbersNotAsTheirFirstBits) {
  LevelQueue queue;
  const double subnormal = std::numeric_limits<double>::denorm_min();
  const double largest = std::numeric_limits<double>::max();
  queue.Push(largest, 0);
  queue.Push(1.0, 1);
  queue.Push(subnormal, 2);
  queue.Push(-0.0, 3);  // counts as 0: before 0 at link 4 by its index
  queue.Push(0.0, 4);
  queue.Push(1.0 + 1e-15, 5);
  queue.Push(kInfinity, 6);
  EXPECT_EQ(Drain(queue), (std::vector<std::uint32_t>{3, 4, 2, 1, 5, 0, 6}));
}

TEST(LevelQueue, InterleavedPushesAndPopsAgreeWithASortedSet) {
  std::mt19937_64 rng(3);
  LevelQueue queue;
  std::set<std::pair<double, std::uint32_t>> expected;
  for (int step = 0; step < 20000; ++step) {
    if (expected.empty() || rng() % 5 < 3) {
      // Few distinct levels, so that ties by link are frequent.
      const double level = rng() % 8 == 0 ? kInfinity : static_cast<double>(rng() % 50) / 8;
      const auto link = static_cast<std::uint32_t>(rng() % 100000);
      if (!expected.insert({level, link}).second) continue;  // the solver queues a link once
      queue.Push(level, link);
    } else {
      ASSERT_EQ(queue.Pop(), expected.begin()->second) << "step " << step;
      expected.erase(expected.begin());
    }
    ASSERT_EQ(queue.size(), expected.size());
  }
  while (!expected.empty()) {
    ASSERT_EQ(queue.Pop(), expected.begin()->second);
    expected.erase(expected.begin());
  }
  EXPECT_TRUE(queue.empty());
}

}  // namespace
}  // namespace trestle::fabric
