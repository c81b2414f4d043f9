// FallbackPayloadStore: shared first, payloads go to the shared store while
// it can be reached and stay in memory while it cannot; memory first, every
// payload stays in memory until it is handed over; a batch of both kinds
// comes back whole and in order; a failed shared take gives the local
// payloads back.
#include "store/fallback_payload_store.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fake_payload_store.h"

namespace trestle::daemon {
namespace {

using TakeResult = PayloadStore::TakeResult;

class FallbackPayloadStoreTest : public ::testing::Test {
 protected:
  FallbackPayloadStoreTest() { Make(FallbackPayloadStore::Mode::kSharedFirst); }
  void Make(FallbackPayloadStore::Mode mode) {
    auto shared = std::make_unique<FakePayloadStore>();
    shared_ = shared.get();
    store_ = std::make_unique<FallbackPayloadStore>(std::move(shared), mode);
  }
  void Put(std::uint64_t id, std::string payload) {
    absl::Status status = absl::UnknownError("no answer");
    store_->Put(id, std::move(payload), [&](const absl::Status& s) { status = s; });
    ASSERT_TRUE(status.ok()) << status;
  }
  // The take's status, and payloads ("<missing>" for kMissing), in order.
  std::pair<absl::Status, std::vector<std::string>> Take(std::vector<std::uint64_t> ids) {
    std::pair<absl::Status, std::vector<std::string>> out{absl::UnknownError("no answer"), {}};
    store_->TakeBatch(ids, [&](const absl::Status& s, std::span<std::string> payloads,
                               std::span<const TakeResult> results) {
      out.first = s;
      for (std::size_t i = 0; i < payloads.size(); ++i) {
        out.second.push_back(results[i] == TakeResult::kTaken ? payloads[i] : "<missing>");
      }
    });
    return out;
  }

  FakePayloadStore* shared_ = nullptr;
  std::unique_ptr<FallbackPayloadStore> store_;
};

TEST_F(FallbackPayloadStoreTest, PayloadsStayInMemoryOnlyWhileTheSharedStoreIsAway) {
  Put(1, "shared");
  shared_->set_available(false);
  Put(2, std::string("lo\0cal", 6));
  EXPECT_TRUE(store_->available());
  EXPECT_TRUE(shared_->holds(1));
  EXPECT_FALSE(shared_->holds(2));
  EXPECT_TRUE(store_->IsLocal(2));
  EXPECT_FALSE(store_->IsLocal(1));
  EXPECT_EQ(store_->size(), 2u);
  // A local payload is served while the shared store is still away.
  auto [status, payloads] = Take({2});
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(payloads, (std::vector<std::string>{std::string("lo\0cal", 6)}));
  EXPECT_FALSE(store_->IsLocal(2));
}

TEST_F(FallbackPayloadStoreTest, AMixedBatchComesBackInOrder) {
  Put(1, "one");
  shared_->set_available(false);
  Put(2, "two");
  Put(4, "four");
  shared_->set_available(true);
  Put(3, "three");
  store_->Erase(4);
  auto [status, payloads] = Take({3, 2, 1, 4});
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(payloads, (std::vector<std::string>{"three", "two", "one", "<missing>"}));
  EXPECT_EQ(shared_->take_calls().back(), (std::vector<std::uint64_t>{3, 1, 4}))
      << "only the shared ids reach the shared store";
  EXPECT_EQ(store_->size(), 0u);
}

TEST_F(FallbackPayloadStoreTest, AFailedSharedTakeGivesTheLocalPayloadsBack) {
  Put(1, "one");
  shared_->set_available(false);
  Put(2, "two");
  auto [status, payloads] = Take({1, 2});
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
  EXPECT_TRUE(payloads.empty());
  EXPECT_TRUE(store_->IsLocal(2)) << "the batch keeps its state";
  shared_->set_available(true);
  auto [again, both] = Take({1, 2});
  ASSERT_TRUE(again.ok()) << again;
  EXPECT_EQ(both, (std::vector<std::string>{"one", "two"}));
}

TEST_F(FallbackPayloadStoreTest, MemoryFirstKeepsEveryPayloadLocalUntilItIsHandedOver) {
  Make(FallbackPayloadStore::Mode::kMemoryFirst);
  Put(7, "seven");
  Put(8, "eight");
  EXPECT_TRUE(store_->IsLocal(7));
  EXPECT_FALSE(shared_->holds(7)) << "a payload that stays here never reaches the shared store";
  ASSERT_NE(store_->LocalPayload(7), nullptr);
  EXPECT_EQ(*store_->LocalPayload(7), "seven");
  EXPECT_EQ(store_->LocalPayload(9), nullptr);
  // Handed over (the caller wrote it to the shared store with its message):
  // the local copy goes, and the shared store answers for nothing it was
  // not given.
  store_->HandOver(7);
  EXPECT_FALSE(store_->IsLocal(7));
  EXPECT_EQ(store_->size(), 1u);
  // A batch of local payloads only is served from memory.
  auto [status, payloads] = Take({8});
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(payloads, (std::vector<std::string>{"eight"}));
  EXPECT_TRUE(shared_->take_calls().empty()) << "the shared store was asked for local payloads";
  // Sends by key still go to the shared store.
  shared_->WriteAsClient(5, "by key");
  absl::Status adopted = absl::UnknownError("no answer");
  store_->Adopt(5, 6, [&](const absl::Status& s) { adopted = s; });
  ASSERT_TRUE(adopted.ok()) << adopted;
  EXPECT_FALSE(store_->IsLocal(5));
}

TEST_F(FallbackPayloadStoreTest, SendsByKeyNeedTheSharedStore) {
  shared_->WriteAsClient(5, "by key");
  shared_->set_available(false);
  absl::Status status;
  store_->Adopt(5, 6, [&](const absl::Status& s) { status = s; });
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
}

}  // namespace
}  // namespace trestle::daemon
