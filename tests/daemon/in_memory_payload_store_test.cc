// InMemoryPayloadStore: every call answers before it returns, a payload is
// taken once, and an id the store does not hold fails that id only
// (TakeResult::kMissing).
#include "store/in_memory_payload_store.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace trestle::daemon {
namespace {

using TakeResult = PayloadStore::TakeResult;

struct Taken {
  int answers = 0;
  absl::Status status;
  std::vector<std::string> payloads;
  std::vector<TakeResult> results;
};

Taken Take(InMemoryPayloadStore& store, std::vector<std::uint64_t> ids) {
  Taken t;
  store.TakeBatch(ids, [&](const absl::Status& s, std::span<std::string> p,
                           std::span<const TakeResult> r) {
    ++t.answers;
    t.status = s;
    for (std::string& payload : p) t.payloads.push_back(std::move(payload));
    t.results.assign(r.begin(), r.end());
  });
  return t;
}

absl::Status Put(InMemoryPayloadStore& store, std::uint64_t id, std::string payload) {
  absl::Status result = absl::InternalError("Put did not answer before returning");
  store.Put(id, std::move(payload), [&](const absl::Status& s) { result = s; });
  return result;
}

TEST(InMemoryPayloadStore, TakesWhatWasPutOnceAndInOrder) {
  InMemoryPayloadStore store;
  ASSERT_TRUE(Put(store, 1, "one").ok());
  ASSERT_TRUE(Put(store, 2, std::string("t\0o", 3)).ok());
  ASSERT_TRUE(Put(store, 3, "").ok());
  EXPECT_EQ(store.size(), 3u);
  EXPECT_TRUE(store.available());
  EXPECT_EQ(store.name(), "memory");

  Taken t = Take(store, {3, 1, 2});
  EXPECT_EQ(t.answers, 1);
  ASSERT_TRUE(t.status.ok()) << t.status;
  EXPECT_EQ(t.payloads, (std::vector<std::string>{"", "one", std::string("t\0o", 3)}));
  EXPECT_EQ(t.results, std::vector<TakeResult>(3, TakeResult::kTaken));
  EXPECT_EQ(store.size(), 0u);

  t = Take(store, {1});
  ASSERT_TRUE(t.status.ok()) << t.status;
  EXPECT_EQ(t.results, std::vector<TakeResult>{TakeResult::kMissing}) << "taken twice";
}

// Issue 9, defect 7: one missing payload fails its own message, not the
// batch.
TEST(InMemoryPayloadStore, AMissingIdFailsThatIdOnly) {
  InMemoryPayloadStore store;
  ASSERT_TRUE(Put(store, 1, "a").ok());
  ASSERT_TRUE(Put(store, 3, "c").ok());
  ASSERT_TRUE(Put(store, 4, "d").ok());
  store.Erase(4);
  store.Erase(99);  // unknown: ignored
  EXPECT_EQ(store.size(), 2u);

  Taken t = Take(store, {1, 2, 3, 4});
  EXPECT_EQ(t.answers, 1);
  ASSERT_TRUE(t.status.ok()) << t.status;
  EXPECT_EQ(t.results, (std::vector<TakeResult>{TakeResult::kTaken, TakeResult::kMissing,
                                                TakeResult::kTaken, TakeResult::kMissing}));
  ASSERT_EQ(t.payloads.size(), 4u);
  EXPECT_EQ(t.payloads[0], "a");
  EXPECT_EQ(t.payloads[2], "c");
  EXPECT_EQ(store.size(), 0u);
}

TEST(InMemoryPayloadStore, ADuplicateIdIsRefusedAndKeepsTheFirstPayload) {
  InMemoryPayloadStore store;
  ASSERT_TRUE(Put(store, 5, "first").ok());
  const absl::Status s = Put(store, 5, "second");
  EXPECT_EQ(s.code(), absl::StatusCode::kAlreadyExists) << s;
  EXPECT_NE(s.message().find("payload 5"), std::string::npos) << s;
  Taken t = Take(store, {5});
  ASSERT_EQ(t.payloads.size(), 1u);
  EXPECT_EQ(t.payloads[0], "first");
}

TEST(InMemoryPayloadStore, AnEmptyBatchAnswersOk) {
  InMemoryPayloadStore store;
  Taken t = Take(store, {});
  EXPECT_EQ(t.answers, 1);
  EXPECT_TRUE(t.status.ok()) << t.status;
  EXPECT_TRUE(t.results.empty());
}

}  // namespace
}  // namespace trestle::daemon
