// PeerBatches: the messages added for a daemon come back together, in the
// order they were added, when its batch is taken; a batch is full at
// kMaxMembers; batches are numbered, and an answered batch gives back its
// own members, whether it is the oldest or the newest sent.
#include "federation/peer_batches.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace trestle::daemon {
namespace {

using Member = PeerBatches::Member;

std::vector<std::uint64_t> Messages(std::span<const Member> members) {
  std::vector<std::uint64_t> ids;
  for (const Member& m : members) ids.push_back(m.message);
  return ids;
}

TEST(PeerBatches, EachDaemonsMessagesComeBackTogetherInOrder) {
  PeerBatches batches;
  EXPECT_FALSE(batches.Add(2, {.message = 1, .serial = 11, .kind = 't'}));
  EXPECT_FALSE(batches.Add(3, {.message = 2, .serial = 12, .kind = 'd'}));
  EXPECT_FALSE(batches.Add(2, {.message = 3, .serial = 13, .kind = 'r'}));
  EXPECT_EQ(std::vector<std::uint32_t>(batches.waiting().begin(), batches.waiting().end()),
            (std::vector<std::uint32_t>{2, 3}));

  std::uint64_t first = 0;
  std::span<const Member> two = batches.Take(2, &first);
  ASSERT_EQ(Messages(two), (std::vector<std::uint64_t>{1, 3}));
  EXPECT_EQ(two[1].serial, 13u);
  EXPECT_EQ(two[1].kind, 'r');
  std::uint64_t second = 0;
  EXPECT_EQ(Messages(batches.Take(3, &second)), (std::vector<std::uint64_t>{2}));
  EXPECT_NE(first, second);
  EXPECT_TRUE(batches.waiting().empty());
  std::uint64_t none = 0;
  EXPECT_TRUE(batches.Take(2, &none).empty()) << "nothing added since";
  EXPECT_EQ(batches.in_flight(), 2u);

  // Answered newest first (the second was answered inside its Append).
  std::vector<Member> answered = batches.Answered(second);
  EXPECT_EQ(Messages(answered), (std::vector<std::uint64_t>{2}));
  batches.Recycle(std::move(answered));
  EXPECT_EQ(Messages(batches.Answered(first)), (std::vector<std::uint64_t>{1, 3}));
  EXPECT_TRUE(batches.Answered(first).empty()) << "answered once";
  EXPECT_EQ(batches.in_flight(), 0u);

  // A recycled list starts the next batch empty.
  batches.Add(3, {.message = 9});
  std::uint64_t third = 0;
  EXPECT_EQ(Messages(batches.Take(3, &third)), (std::vector<std::uint64_t>{9}));
}

TEST(PeerBatches, ABatchIsFullAtItsLimit) {
  PeerBatches batches;
  for (std::uint64_t i = 1; i < PeerBatches::kMaxMembers; ++i) {
    ASSERT_FALSE(batches.Add(1, {.message = i}));
  }
  EXPECT_TRUE(batches.Add(1, {.message = PeerBatches::kMaxMembers}));
  std::uint64_t number = 0;
  EXPECT_EQ(batches.Take(1, &number).size(), PeerBatches::kMaxMembers);
  EXPECT_FALSE(batches.Add(1, {.message = 1000})) << "the next batch starts";
}

}  // namespace
}  // namespace trestle::daemon
