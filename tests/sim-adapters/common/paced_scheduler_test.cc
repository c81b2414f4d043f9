// PacedScheduler: release order and due times with an injected clock, and
// on a real uv loop that nothing is released before start + t × dilation.
#include "trestle/adapter/paced_scheduler.h"

#include <uv.h>

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace trestle::adapter {
namespace {

Outcome At(std::uint64_t id, std::uint64_t t_deliver) {
  return Outcome{id, Outcome::Status::kDelivered, t_deliver, 0};
}

class PacedSchedulerTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(uv_loop_init(&loop_), 0); }
  void TearDown() override {
    // The scheduler's timer must close cleanly: the loop closes with no handle left.
    uv_run(&loop_, UV_RUN_DEFAULT);
    EXPECT_EQ(uv_loop_close(&loop_), 0);
  }

  uv_loop_t loop_;
  std::vector<std::uint64_t> released_;
};

TEST_F(PacedSchedulerTest, ReleasesInDueOrderTiesInScheduleOrderAndNothingEarly) {
  std::uint64_t now = 1'000;
  {
    PacedScheduler scheduler(
        &loop_, 2.0, [&](const Outcome& o) { released_.push_back(o.id); }, [&] { return now; });
    scheduler.Start();
    EXPECT_EQ(scheduler.start_ns(), 1'000u);
    EXPECT_EQ(scheduler.DueNs(500), 2'000u);  // start + 500 × 2
    scheduler.Schedule(At(1, 300));
    scheduler.Schedule(At(2, 100));
    scheduler.Schedule(At(3, 300));
    scheduler.Schedule(At(4, 200));
    EXPECT_TRUE(released_.empty());
    EXPECT_EQ(scheduler.pending(), 4u);
    EXPECT_EQ(scheduler.next_due_ns(), 1'200u);

    EXPECT_EQ(scheduler.ReleaseDue(1'199), 0u);
    EXPECT_EQ(scheduler.ReleaseDue(1'400), 2u);
    EXPECT_EQ(released_, (std::vector<std::uint64_t>{2, 4}));
    EXPECT_EQ(scheduler.ReleaseDue(1'600), 2u);
    EXPECT_EQ(released_, (std::vector<std::uint64_t>{2, 4, 1, 3}));
    EXPECT_EQ(scheduler.pending(), 0u);
  }
}

TEST_F(PacedSchedulerTest, AnOutcomeAlreadyDueIsReleasedFromSchedule) {
  std::uint64_t now = 0;
  PacedScheduler scheduler(
      &loop_, 1.0, [&](const Outcome& o) { released_.push_back(o.id); }, [&] { return now; });
  scheduler.Schedule(At(7, 50));  // starts the clock at 0
  EXPECT_TRUE(scheduler.started());
  now = 60;
  scheduler.Schedule(At(8, 10));  // due at 10, long past: released with the other due one
  EXPECT_EQ(released_, (std::vector<std::uint64_t>{8, 7}));
  EXPECT_EQ(scheduler.pending(), 0u);
}

TEST_F(PacedSchedulerTest, DueTimeSaturatesInsteadOfOverflowing) {
  PacedScheduler scheduler(&loop_, 1e6, [](const Outcome&) {}, [] { return 5u; });
  scheduler.Start();
  EXPECT_EQ(scheduler.DueNs(UINT64_MAX / 2), UINT64_MAX);
  scheduler.Schedule(At(1, UINT64_MAX / 2));
  EXPECT_EQ(scheduler.pending(), 1u);  // held, never due; destruction discards it
}

TEST_F(PacedSchedulerTest, OnARealLoopTheTimerReleasesEachAtItsWallTimeNeverBefore) {
  struct Release {
    std::uint64_t id;
    std::uint64_t at_ns;
  };
  std::vector<Release> releases;
  PacedScheduler scheduler(&loop_, 2.0, [&](const Outcome& o) {
    releases.push_back({o.id, uv_hrtime()});
  });
  scheduler.Start();
  const std::uint64_t ms = 1'000'000;
  // Virtual 15, 5, 10 ms at dilation 2: wall 30, 10, 20 ms after start.
  scheduler.Schedule(At(1, 15 * ms));
  scheduler.Schedule(At(2, 5 * ms));
  scheduler.Schedule(At(3, 10 * ms));
  uv_run(&loop_, UV_RUN_DEFAULT);  // returns when the timer has nothing left to wait for

  ASSERT_EQ(releases.size(), 3u);
  EXPECT_EQ(releases[0].id, 2u);
  EXPECT_EQ(releases[1].id, 3u);
  EXPECT_EQ(releases[2].id, 1u);
  const std::uint64_t wall_due[] = {10 * ms, 20 * ms, 30 * ms};
  for (int i = 0; i < 3; ++i) {
    const std::uint64_t since_start = releases[i].at_ns - scheduler.start_ns();
    EXPECT_GE(since_start, wall_due[i]) << "released early: id " << releases[i].id;
    EXPECT_LT(since_start, wall_due[i] + 200 * ms) << "released far too late";
  }
}

TEST_F(PacedSchedulerTest, AReleaseMayScheduleMoreAndTheTimerFollows) {
  std::vector<std::uint64_t> ids;
  PacedScheduler* self = nullptr;
  PacedScheduler scheduler(&loop_, 1.0, [&](const Outcome& o) {
    ids.push_back(o.id);
    if (o.id < 3) self->Schedule(At(o.id + 1, o.t_deliver + 2'000'000));
  });
  self = &scheduler;
  scheduler.Start();
  scheduler.Schedule(At(1, 2'000'000));
  uv_run(&loop_, UV_RUN_DEFAULT);
  EXPECT_EQ(ids, (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_GE(uv_hrtime() - scheduler.start_ns(), 6'000'000u);
}

}  // namespace
}  // namespace trestle::adapter
