// SimClient against a FakeDaemon: transits in PUSH and PULL, and outcome
// batching (one OutcomeBatch per loop pass, split at max_batch).
#include "trestle/sim_client.h"

#include <gtest/gtest.h>

#include <chrono>

#include "fake_daemon.h"
#include "trestle/platform/uv_handle.h"

namespace trestle {
namespace {

using std::chrono::milliseconds;
using testing::FakeDaemon;

ClientOptions Options(const FakeDaemon& daemon, DeliveryMode mode = DeliveryMode::kPush) {
  return testing::OptionsFor(daemon, "sim", mode);
}

wire::Frame Transits(std::uint64_t first_id, int n) {
  wire::Frame f;
  wire::TransitBatch* batch = f.mutable_transits();
  for (int i = 0; i < n; ++i) {
    wire::Transit* t = batch->add_transits();
    t->set_id(first_id + static_cast<std::uint64_t>(i));
    t->set_src("a");
    t->set_dst("b");
    t->set_size(100);
    t->set_tclass(1);
    t->set_t_send(1000 + static_cast<std::uint64_t>(i));
  }
  return f;
}

std::size_t OutcomesReceived(const FakeDaemon& daemon) {
  std::size_t n = 0;
  for (const wire::Frame& f : daemon.send_frames) n += static_cast<std::size_t>(f.outcomes().outcomes_size());
  return n;
}

class SimClientTest : public ::testing::Test {
 protected:
  EventLoop loop_;
  FakeDaemon daemon_{loop_};
};

TEST_F(SimClientTest, OutcomesPostedInOneCallbackLeaveAsOneBatch) {
  daemon_.welcome.mutable_config()->set_max_batch(100);
  SimClient sim(loop_, Options(daemon_));
  std::vector<Transit> seen;
  sim.OnTransits([&](std::span<const Transit> transits) {
    for (const Transit& t : transits) {
      seen.push_back(t);
      sim.Post({t.id, Outcome::Status::kDelivered, t.t_send + 5, 0});
    }
  });
  ASSERT_TRUE(sim.Connect().ok());
  daemon_.WriteOn(wire::CHANNEL_RECV, Transits(1, 3));
  ASSERT_TRUE(loop_.RunUntil([&] { return OutcomesReceived(daemon_) == 3; }, milliseconds(1000)));
  ASSERT_EQ(daemon_.send_frames.size(), 1u);
  const wire::OutcomeBatch& batch = daemon_.send_frames[0].outcomes();
  EXPECT_EQ(batch.outcomes(0).id(), 1u);
  EXPECT_EQ(batch.outcomes(2).t_deliver(), 1007u);
  EXPECT_EQ(batch.outcomes(0).status(), wire::DELIVERED);
  EXPECT_NE(batch.outcomes(0).sim_posted(), 0u);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[1].src, "a");
  EXPECT_EQ(seen[1].size, 100u);
  EXPECT_EQ(seen[1].tclass, 1u);
  EXPECT_EQ(sim.queued_outcomes(), 0u);
}

TEST_F(SimClientTest, BatchesAreSplitAtTheDaemonsMaxBatch) {
  // The fake announces max_batch 4.
  SimClient sim(loop_, Options(daemon_));
  sim.OnTransits([&](std::span<const Transit> transits) {
    for (const Transit& t : transits) sim.Post({t.id, Outcome::Status::kDropped, 0, 0});
  });
  ASSERT_TRUE(sim.Connect().ok());
  daemon_.WriteOn(wire::CHANNEL_RECV, Transits(1, 10));
  ASSERT_TRUE(loop_.RunUntil([&] { return OutcomesReceived(daemon_) == 10; }, milliseconds(1000)));
  ASSERT_EQ(daemon_.send_frames.size(), 3u);
  EXPECT_EQ(daemon_.send_frames[0].outcomes().outcomes_size(), 4);
  EXPECT_EQ(daemon_.send_frames[2].outcomes().outcomes_size(), 2);
  EXPECT_EQ(daemon_.send_frames[2].outcomes().outcomes(1).status(), wire::DROPPED);
}

TEST_F(SimClientTest, PullFetchAsksAndReturnsTheBatch) {
  SimClient sim(loop_, Options(daemon_, DeliveryMode::kPull));
  ASSERT_TRUE(sim.Connect().ok());
  platform::UvHandle<uv_timer_t> timer;
  timer.Init(uv_timer_init, loop_.uv_loop());
  timer->data = &daemon_;
  uv_timer_start(
      timer.get(),
      [](uv_timer_t* t) {
        auto* d = static_cast<FakeDaemon*>(t->data);
        if (d->recv_frames.size() == 1) d->WriteOn(wire::CHANNEL_RECV, Transits(7, 2));
      },
      5, 0);
  absl::StatusOr<std::vector<Transit>> got = sim.Fetch(16, milliseconds(1000));
  timer.Close();
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->size(), 2u);
  EXPECT_EQ((*got)[0].id, 7u);
  ASSERT_EQ(daemon_.recv_frames.size(), 1u);
  EXPECT_EQ(daemon_.recv_frames[0].fetch().max_count(), 16u);
  sim.Post({7, Outcome::Status::kDelivered, 1, 0});
  EXPECT_EQ(sim.queued_outcomes(), 1u);
  ASSERT_TRUE(sim.Flush(milliseconds(1000)).ok());
  ASSERT_TRUE(loop_.RunUntil([&] { return OutcomesReceived(daemon_) == 1; }, milliseconds(1000)));
}

TEST_F(SimClientTest, PullCallbackModeKeepsTwoFetchesOutstanding) {
  SimClient sim(loop_, Options(daemon_, DeliveryMode::kPull));
  ASSERT_TRUE(sim.Connect().ok());
  std::vector<std::uint64_t> seen;
  sim.OnTransits([&](std::span<const Transit> batch) {
    for (const Transit& t : batch) seen.push_back(t.id);
  });
  ASSERT_TRUE(loop_.RunUntil([&] { return daemon_.recv_frames.size() == 2; }, milliseconds(1000)));
  daemon_.WriteOn(wire::CHANNEL_RECV, Transits(4, 2));
  ASSERT_TRUE(loop_.RunUntil([&] { return daemon_.recv_frames.size() == 3; }, milliseconds(1000)));
  loop_.RunFor(milliseconds(20));
  EXPECT_EQ(daemon_.recv_frames.size(), 3u);  // one answer, one new Fetch
  for (const wire::Frame& f : daemon_.recv_frames) EXPECT_TRUE(f.has_fetch());
  EXPECT_EQ(seen, (std::vector<std::uint64_t>{4, 5}));
}

// A Fetch answered empty (its timeout) hands nothing to the callback, and
// is replaced by a new Fetch.
TEST_F(SimClientTest, PullCallbackModeHandsNoEmptyAnswerOver) {
  SimClient sim(loop_, Options(daemon_, DeliveryMode::kPull));
  ASSERT_TRUE(sim.Connect().ok());
  std::vector<std::size_t> batches;
  sim.OnTransits([&](std::span<const Transit> batch) { batches.push_back(batch.size()); });
  ASSERT_TRUE(loop_.RunUntil([&] { return daemon_.recv_frames.size() == 2; }, milliseconds(1000)));
  daemon_.WriteOn(wire::CHANNEL_RECV, Transits(1, 0));
  daemon_.WriteOn(wire::CHANNEL_RECV, Transits(1, 2));
  ASSERT_TRUE(loop_.RunUntil([&] { return daemon_.recv_frames.size() == 4; }, milliseconds(1000)));
  ASSERT_TRUE(loop_.RunUntil([&] { return !batches.empty(); }, milliseconds(1000)));
  EXPECT_EQ(batches, std::vector<std::size_t>{2});
}

TEST_F(SimClientTest, PushFetchReturnsOnlyWhatWasAskedAndKeepsTheRest) {
  SimClient sim(loop_, Options(daemon_));
  ASSERT_TRUE(sim.Connect().ok());
  daemon_.WriteOn(wire::CHANNEL_RECV, Transits(1, 5));
  absl::StatusOr<std::vector<Transit>> first = sim.Fetch(2, milliseconds(1000));
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_EQ(first->size(), 2u);
  absl::StatusOr<std::vector<Transit>> rest = sim.Fetch(0, milliseconds(1000));
  ASSERT_TRUE(rest.ok());
  ASSERT_EQ(rest->size(), 3u);
  EXPECT_EQ((*rest)[0].id, 3u);
  absl::StatusOr<std::vector<Transit>> none = sim.Fetch(0, milliseconds(20));
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

// Fetch(0) returns at most the daemon's max_batch (4 here), what one Fetch
// request is answered with at most, even when more has come (six in one
// pushed frame, which this fake daemon may write).
TEST_F(SimClientTest, FetchZeroReturnsAtMostMaxBatch) {
  SimClient sim(loop_, Options(daemon_));
  ASSERT_TRUE(sim.Connect().ok());
  daemon_.WriteOn(wire::CHANNEL_RECV, Transits(1, 6));
  std::vector<std::uint64_t> sizes;
  while (sizes.size() < 2) {
    absl::StatusOr<std::vector<Transit>> got = sim.Fetch(0, milliseconds(1000));
    ASSERT_TRUE(got.ok()) << got.status();
    sizes.push_back(got->size());
  }
  EXPECT_EQ(sizes, (std::vector<std::uint64_t>{4, 2}));
}

TEST_F(SimClientTest, BufferedTransitsAreBoundedByMaxBufferedMessages) {
  ClientOptions o = Options(daemon_);
  o.max_buffered_messages = 2;
  SimClient sim(loop_, o);
  ASSERT_TRUE(sim.Connect().ok());
  for (std::uint64_t first : {1, 3, 5}) daemon_.WriteOn(wire::CHANNEL_RECV, Transits(first, 2));
  loop_.RunFor(milliseconds(50));
  std::vector<std::uint64_t> ids;
  absl::StatusOr<std::vector<Transit>> got = sim.Fetch(0, milliseconds(100));
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->size(), 2u);  // the rest stayed in the socket
  for (const Transit& t : *got) ids.push_back(t.id);
  while (ids.size() < 6) {
    got = sim.Fetch(0, milliseconds(1000));
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_FALSE(got->empty());
    for (const Transit& t : *got) ids.push_back(t.id);
  }
  EXPECT_EQ(ids, (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6}));
}

TEST_F(SimClientTest, PostWhileDisconnectedIsDiscarded) {
  SimClient sim(loop_, Options(daemon_));
  sim.Post({1, Outcome::Status::kDelivered, 0, 0});
  EXPECT_EQ(sim.queued_outcomes(), 0u);
}

}  // namespace
}  // namespace trestle
