// DeliveryPacer on a real uv loop: packets leave in due order (ties in
// arrival order), never before their due time, at once when already due,
// and no more than max_held wait.
#include "trestle/gateway/delivery_pacer.h"

#include <uv.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace trestle::gateway {
namespace {

class DeliveryPacerTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(uv_loop_init(&loop_), 0); }
  void TearDown() override {
    uv_run(&loop_, UV_RUN_DEFAULT);  // the pacer's handle closes
    EXPECT_EQ(uv_loop_close(&loop_), 0);
  }
  std::unique_ptr<DeliveryPacer> MakePacer(std::size_t max_held) {
    auto pacer = DeliveryPacer::Create(&loop_, max_held, [this](const std::string& p) {
      released_.push_back(p);
      released_at_.push_back(DeliveryPacer::NowNs());
    });
    EXPECT_TRUE(pacer.ok()) << pacer.status();
    return *std::move(pacer);
  }
  void RunUntilReleased(std::size_t n) {
    const std::uint64_t give_up = DeliveryPacer::NowNs() + 2'000'000'000u;
    while (released_.size() < n && DeliveryPacer::NowNs() < give_up) uv_run(&loop_, UV_RUN_ONCE);
  }

  uv_loop_t loop_;
  std::vector<std::string> released_;
  std::vector<std::uint64_t> released_at_;
};

TEST_F(DeliveryPacerTest, ReleasesInDueOrderTiesInArrivalOrderNeverEarly) {
  auto pacer = MakePacer(16);
  const std::uint64_t t0 = DeliveryPacer::NowNs();
  const std::uint64_t due_c = t0 + 30'000'000, due_a = t0 + 10'000'000, due_b = t0 + 20'000'000;
  ASSERT_TRUE(pacer->Hold(due_c, "c"));
  ASSERT_TRUE(pacer->Hold(due_a, "a1"));
  ASSERT_TRUE(pacer->Hold(due_b, "b"));
  ASSERT_TRUE(pacer->Hold(due_a, "a2"));
  EXPECT_EQ(pacer->held(), 4u);
  RunUntilReleased(4);
  ASSERT_EQ(released_, (std::vector<std::string>{"a1", "a2", "b", "c"}));
  EXPECT_GE(released_at_[0], due_a);
  EXPECT_GE(released_at_[2], due_b);
  EXPECT_GE(released_at_[3], due_c);
  // How late a release is depends on the machine's load: that is measured
  // by bench/gateway and by gateway_ping_netns_test's fastest echo, not
  // here.
  EXPECT_EQ(pacer->held(), 0u);
}

TEST_F(DeliveryPacerTest, APacketAlreadyDueLeavesAtOnce) {
  auto pacer = MakePacer(16);
  ASSERT_TRUE(pacer->Hold(DeliveryPacer::NowNs() - 1, "late"));
  EXPECT_EQ(released_, std::vector<std::string>{"late"});
  EXPECT_EQ(pacer->held(), 0u);
}

TEST_F(DeliveryPacerTest, RefusesMoreThanMaxHeld) {
  auto pacer = MakePacer(2);
  const std::uint64_t due = DeliveryPacer::NowNs() + 5'000'000;
  EXPECT_TRUE(pacer->Hold(due, "1"));
  EXPECT_TRUE(pacer->Hold(due, "2"));
  EXPECT_FALSE(pacer->Hold(due, "3"));
  RunUntilReleased(2);
  EXPECT_EQ(released_, (std::vector<std::string>{"1", "2"}));
}

}  // namespace
}  // namespace trestle::gateway
