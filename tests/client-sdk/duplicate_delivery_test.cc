// AppClient's duplicate suppression across sessions, against a FakeDaemon: a
// daemon restarted from its journal replays deliveries to a NEW session
// (Welcome.resumed false), numbered from 1 again, so delivery_seq cannot
// tell; the ids the app was already handed are dropped, and still
// acknowledged so that the daemon finishes them.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fake_daemon.h"
#include "trestle/app_client.h"

namespace trestle {
namespace {

using std::chrono::milliseconds;
using testing::FakeDaemon;

// Deliveries of `ids`, numbered delivery_seq 1, 2, ... as a new session's.
wire::Frame Numbered(const std::vector<std::uint64_t>& ids) {
  wire::Frame f;
  std::uint64_t seq = 0;
  for (std::uint64_t id : ids) {
    wire::Delivery* d = f.mutable_deliveries()->add_deliveries();
    d->set_id(id);
    d->set_delivery_seq(++seq);
    d->set_src("node-b");
    d->set_dst("node-a");
    d->set_payload("payload-" + std::to_string(id));
    d->set_status(wire::DELIVERED);
  }
  return f;
}

// The highest Ack the daemon has read on recv (0: none).
std::uint64_t LastAck(const FakeDaemon& daemon) {
  std::uint64_t last = 0;
  for (const wire::Frame& f : daemon.recv_frames) {
    if (f.has_ack()) last = f.ack().delivery_seq();
  }
  return last;
}

// Connects, takes the first session's deliveries 100 and 101, then loses the
// daemon and connects to its restart, which replays 101 and adds 102.
// Returns the ids the app was handed after the restart.
std::vector<std::uint64_t> ReplayAfterRestart(std::size_t duplicate_window,
                                              std::uint64_t* last_ack) {
  EventLoop loop;
  FakeDaemon daemon(loop);
  ClientOptions options = testing::OptionsFor(daemon, "node-a");
  options.duplicate_window = duplicate_window;
  AppClient app(loop, options);
  EXPECT_TRUE(app.Connect().ok());
  daemon.WriteOn(wire::CHANNEL_RECV, Numbered({100, 101}));
  for (std::uint64_t id : {100, 101}) {
    absl::StatusOr<Message> m = app.Receive(milliseconds(2000));
    EXPECT_TRUE(m.ok() && m->id == id) << (m.ok() ? std::to_string(m->id) : m.status().ToString());
  }
  EXPECT_TRUE(loop.RunUntil([&] { return LastAck(daemon) == 2; }, milliseconds(2000)));

  daemon.DropConnections();
  EXPECT_TRUE(loop.RunUntil([&] { return !app.connected(); }, milliseconds(2000)));
  daemon.recv_frames.clear();
  daemon.on_recv_attached.push_back(Numbered({101, 102}));  // resumed: false
  EXPECT_TRUE(app.Connect().ok());
  EXPECT_FALSE(app.resumed());
  std::vector<std::uint64_t> handed;
  while (true) {
    absl::StatusOr<Message> m = app.Receive(milliseconds(300));
    if (!m.ok()) break;
    handed.push_back(m->id);
  }
  *last_ack = LastAck(daemon);
  return handed;
}

TEST(DuplicateDeliveryTest, AReplayToANewSessionHandsOverOnlyWhatIsNewAndAcksAll) {
  std::uint64_t last_ack = 0;
  EXPECT_EQ(ReplayAfterRestart(65536, &last_ack), std::vector<std::uint64_t>{102});
  EXPECT_EQ(last_ack, 2u) << "the dropped duplicate must be acknowledged too";
}

TEST(DuplicateDeliveryTest, WithTheWindowOffTheReplayIsHandedOverAgain) {
  std::uint64_t last_ack = 0;
  EXPECT_EQ(ReplayAfterRestart(0, &last_ack), (std::vector<std::uint64_t>{101, 102}));
  EXPECT_EQ(last_ack, 2u);
}

}  // namespace
}  // namespace trestle
