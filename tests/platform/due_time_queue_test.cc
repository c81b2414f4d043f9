#include "trestle/platform/due_time_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace trestle::platform {
namespace {

using Queue = DueTimeQueue<int>;

std::vector<int> Drain(Queue& queue) {
  std::vector<int> out;
  while (!queue.empty()) out.push_back(queue.Pop().value);
  return out;
}

TEST(DueTimeQueueTest, EmptyHasNoEarliestDue) {
  Queue queue;
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(queue.size(), 0u);
  EXPECT_EQ(queue.EarliestDue(), Queue::kNone);
}

TEST(DueTimeQueueTest, TiesGoBySourceThenSequence) {
  Queue queue;
  queue.Push({20, 0, 0}, 6);
  queue.Push({10, 2, 1}, 5);
  queue.Push({10, 1, 7}, 3);
  queue.Push({10, 2, 0}, 4);
  queue.Push({10, 1, 2}, 2);
  queue.Push({5, 9, 9}, 1);
  EXPECT_EQ(queue.EarliestDue(), 5u);
  EXPECT_EQ(queue.Top().value, 1);
  EXPECT_EQ(Drain(queue), (std::vector<int>{1, 2, 3, 4, 5, 6}));
}

TEST(DueTimeQueueTest, OneSourceWithARunningSequenceKeepsPushOrder) {
  Queue queue;
  std::uint64_t seq = 0;
  for (int i = 0; i < 100; ++i) queue.Push({static_cast<std::uint64_t>(i % 3), 0, seq++}, i);
  std::vector<int> expected;
  for (int due = 0; due < 3; ++due) {
    for (int i = due; i < 100; i += 3) expected.push_back(i);
  }
  EXPECT_EQ(Drain(queue), expected);
}

TEST(DueTimeQueueTest, MatchesSortingTheKeys) {
  std::mt19937_64 rng(35);
  Queue queue;
  std::vector<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, int>> sorted;
  for (int i = 0; i < 2000; ++i) {
    const DueTimeKey key{rng() % 16, rng() % 8, static_cast<std::uint64_t>(i)};
    queue.Push(key, i);
    sorted.emplace_back(key.due, key.source, key.sequence, i);
  }
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> expected;
  for (const auto& entry : sorted) expected.push_back(std::get<3>(entry));
  EXPECT_EQ(Drain(queue), expected);
}

TEST(DueTimeQueueTest, SourcesCompareWithTheGivenOrder) {
  // Sources are indices into names; they come out by name.
  const std::vector<std::string> names = {"carol", "alice", "bob"};
  auto by_name = [&names](std::uint64_t a, std::uint64_t b) { return names[a] < names[b]; };
  DueTimeQueue<int, decltype(by_name)> queue(by_name);
  queue.Push({1, 0, 0}, 3);
  queue.Push({1, 2, 0}, 2);
  queue.Push({1, 1, 1}, 1);
  queue.Push({0, 0, 0}, 0);
  std::vector<int> out;
  while (!queue.empty()) out.push_back(queue.Pop().value);
  EXPECT_EQ(out, (std::vector<int>{0, 1, 2, 3}));
}

TEST(DueTimeQueueTest, PopDueTakesWhatIsDueByNow) {
  Queue queue;
  queue.Push({30, 0, 0}, 30);
  queue.Push({10, 0, 1}, 10);
  queue.Push({20, 0, 2}, 20);
  std::vector<int> out;
  EXPECT_EQ(queue.PopDue(9, [&](Queue::Item&& item) { out.push_back(item.value); }), 0u);
  EXPECT_EQ(queue.PopDue(20, [&](Queue::Item&& item) { out.push_back(item.value); }), 2u);
  EXPECT_EQ(out, (std::vector<int>{10, 20}));
  EXPECT_EQ(queue.size(), 1u);
  EXPECT_EQ(queue.EarliestDue(), 30u);
}

TEST(DueTimeQueueTest, PopDueHandsOutWhatItsCallbackPushes) {
  Queue queue;
  queue.Push({10, 0, 0}, 1);
  std::vector<int> out;
  auto fn = [&](Queue::Item&& item) {
    out.push_back(item.value);
    if (item.value == 1) {
      queue.Push({15, 0, 1}, 2);  // due by now: this call hands it out
      queue.Push({25, 0, 2}, 3);  // not yet
    }
  };
  EXPECT_EQ(queue.PopDue(20, fn), 2u);
  EXPECT_EQ(out, (std::vector<int>{1, 2}));
  EXPECT_EQ(queue.EarliestDue(), 25u);
}

TEST(DueTimeQueueTest, HoldsMoveOnlyValues) {
  DueTimeQueue<std::unique_ptr<int>> queue;
  queue.Push({2, 0, 0}, std::make_unique<int>(2));
  queue.Push({1, 0, 1}, std::make_unique<int>(1));
  EXPECT_EQ(*queue.Pop().value, 1);
  EXPECT_EQ(*queue.Pop().value, 2);
  queue.Push({3, 0, 2}, std::make_unique<int>(3));
  queue.clear();
  EXPECT_TRUE(queue.empty());
}

}  // namespace
}  // namespace trestle::platform
