// Backpressure instead of loss: a full transit queue stops the daemon reading
// from the sender; deliveries waiting beyond the global memory budget stop it
// reading the simulator's outcomes (one app's full queue does not). Once the
// pressure goes, everything is delivered.
#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <string>

#include "absl/strings/str_cat.h"
#include "daemon_process.h"
#include "raw_connection.h"
#include "trestle/wire/frame_encoder.h"

namespace trestle::testing {
namespace {

std::uint64_t Queued(const wire::StatsReply& s, const std::string& id, wire::Role role) {
  for (const auto& c : s.clients()) {
    if (c.client_id() == id && c.role() == role) return c.queued();
  }
  return 0;
}

TEST(Backpressure, FullTransitQueuePausesTheSenderAndLosesNothing) {
  DaemonProcess daemon({"--transit-queue-limit", "10"});
  RawSession app(daemon.port(), "a", wire::ROLE_APP);
  ASSERT_TRUE(app.ok);
  // 300 sends in one write, with no simulator to take them.
  std::string bytes;
  for (int i = 0; i < 300; ++i) {
    wire::Frame f;
    f.mutable_send()->set_dst("a");
    f.mutable_send()->set_payload(absl::StrCat("p", i));
    wire::AppendFrame(f, &bytes);
  }
  app.send.WriteBytes(bytes);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  wire::StatsReply paused = app.ctrl.Stats();
  EXPECT_EQ(paused.total().accepted(), 10u) << "reading stopped at the limit";
  EXPECT_EQ(Queued(paused, "", wire::ROLE_SIM), 0u);

  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  ASSERT_TRUE(sim.ok);
  std::thread answer([&] { EXPECT_EQ(AnswerTransits(sim, 300), 300); });
  std::set<std::string> payloads;
  while (payloads.size() < 300) {
    auto batch = app.recv.ReadFrame(3000);
    ASSERT_TRUE(batch.has_value() && batch->has_deliveries()) << payloads.size() << " so far";
    for (const auto& d : batch->deliveries().deliveries()) {
      EXPECT_TRUE(payloads.insert(d.payload()).second) << "duplicate " << d.payload();
    }
  }
  answer.join();
  wire::StatsReply done = app.ctrl.Stats();
  EXPECT_EQ(done.total().accepted(), 300u);
  EXPECT_EQ(done.total().delivered(), 300u);
  EXPECT_EQ(done.total().in_flight(), 0u);
}

// Deliveries waiting for apps are bounded all together: once their payloads
// pass delivery_memory_budget, the daemon stops reading outcomes, and reads
// again once they fall to 3/4 of it. Nothing is lost.
TEST(Backpressure, DeliveryMemoryBudgetPausesTheSimulatorAndLosesNothing) {
  DaemonProcess daemon({"--delivery-memory-budget", "1000"});
  RawSession sender(daemon.port(), "a", wire::ROLE_APP);
  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  ASSERT_TRUE(sender.ok && sim.ok);
  for (int i = 0; i < 100; ++i) {
    wire::Frame f;
    f.mutable_send()->set_dst("b");  // b is not connected yet
    f.mutable_send()->set_payload(std::string(100, static_cast<char>('a' + i % 26)));
    sender.send.WriteFrame(f);
  }
  std::thread answer([&] { EXPECT_EQ(AnswerTransits(sim, 100), 100); });
  answer.join();  // all 100 outcomes are written; the daemon reads only some
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  wire::StatsReply paused = sender.ctrl.Stats();
  // The 11th outcome takes the waiting payloads to 1,100 bytes > 1,000.
  EXPECT_EQ(Queued(paused, "b", wire::ROLE_APP), 11u) << "outcomes stopped at the budget";
  EXPECT_EQ(paused.total().in_flight(), 100u);

  RawSession b(daemon.port(), "b", wire::ROLE_APP);
  ASSERT_TRUE(b.ok);
  int got = 0;
  while (got < 100) {
    auto batch = b.recv.ReadFrame(3000);
    ASSERT_TRUE(batch.has_value() && batch->has_deliveries()) << got << " so far";
    got += batch->deliveries().deliveries_size();
  }
  EXPECT_EQ(got, 100);
  wire::StatsReply done = sender.ctrl.Stats();
  EXPECT_EQ(done.total().delivered(), 100u);
  EXPECT_EQ(done.total().in_flight(), 0u);
}

// One app's backlog is its own: deliveries for an app past
// delivery_queue_limit keep coming (they wait in the store), and the
// simulator keeps being read, so the other apps are served.
TEST(Backpressure, AFullAppQueueDoesNotPauseTheSimulator) {
  DaemonProcess daemon({"--delivery-queue-limit", "10"});
  RawSession sender(daemon.port(), "a", wire::ROLE_APP);
  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  ASSERT_TRUE(sender.ok && sim.ok);
  for (int i = 0; i < 100; ++i) {
    wire::Frame f;
    f.mutable_send()->set_dst(i % 2 == 0 ? "b" : "a");  // b is absent; a reads
    f.mutable_send()->set_payload(absl::StrCat("q", i));
    sender.send.WriteFrame(f);
  }
  std::thread answer([&] { EXPECT_EQ(AnswerTransits(sim, 100), 100); });
  int got = 0;
  while (got < 50) {
    auto batch = sender.recv.ReadFrame(3000);
    ASSERT_TRUE(batch.has_value() && batch->has_deliveries()) << got << " so far";
    got += batch->deliveries().deliveries_size();
  }
  answer.join();
  EXPECT_EQ(got, 50);
  wire::StatsReply s = sender.ctrl.Stats();
  EXPECT_EQ(Queued(s, "b", wire::ROLE_APP), 50u) << "b's queue went past its limit";
  EXPECT_EQ(s.total().delivered(), 50u);
  EXPECT_EQ(s.total().in_flight(), 50u);
}

}  // namespace
}  // namespace trestle::testing
