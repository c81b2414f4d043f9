// Backpressure instead of loss: a full transit queue stops the daemon reading
// from the sender; a full delivery queue stops it reading the simulator's
// outcomes. Once the pressure goes, everything is delivered.
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

TEST(Backpressure, FullDeliveryQueuePausesTheSimulatorAndLosesNothing) {
  DaemonProcess daemon({"--delivery-queue-limit", "10"});
  RawSession sender(daemon.port(), "a", wire::ROLE_APP);
  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  ASSERT_TRUE(sender.ok && sim.ok);
  for (int i = 0; i < 100; ++i) {
    wire::Frame f;
    f.mutable_send()->set_dst("b");  // b is not connected yet
    f.mutable_send()->set_payload(absl::StrCat("q", i));
    sender.send.WriteFrame(f);
  }
  std::thread answer([&] { EXPECT_EQ(AnswerTransits(sim, 100), 100); });
  answer.join();  // all 100 outcomes are written; the daemon reads only some
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  wire::StatsReply paused = sender.ctrl.Stats();
  EXPECT_EQ(Queued(paused, "b", wire::ROLE_APP), 10u) << "outcomes stopped at the limit";
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

}  // namespace
}  // namespace trestle::testing
