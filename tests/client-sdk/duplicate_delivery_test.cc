// AppClient's duplicate suppression across sessions, against a FakeDaemon.
// A daemon writes again what an app's earlier session had not acknowledged:
// to a new session numbered as the last (Welcome.delivery_numbering), with
// the same delivery_seq, which tells; under another numbering (a federated
// daemon restarted from its journal), numbered from 1, which cannot tell,
// so the SDK drops by message id the deliveries it was already handed, but
// only when Welcome.redelivers_across_sessions says the daemon may do that
// (the duplicate window); what it drops is still acknowledged, so that the
// daemon finishes it.
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

// Deliveries of `ids`, numbered delivery_seq `first_seq`, `first_seq` + 1, ...
wire::Frame Numbered(const std::vector<std::uint64_t>& ids, std::uint64_t first_seq = 1) {
  wire::Frame f;
  std::uint64_t seq = first_seq;
  for (std::uint64_t id : ids) {
    wire::Delivery* d = f.mutable_deliveries()->add_deliveries();
    d->set_id(id);
    d->set_delivery_seq(seq++);
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

// What the two sessions' Welcomes say, and the app's window.
struct Sessions {
  bool redelivers = true;                  // Welcome.redelivers_across_sessions, both
  std::uint64_t numbering[2] = {11, 22};   // Welcome.delivery_numbering of each
  std::size_t duplicate_window = 65536;
};

// Connects, takes the first session's deliveries 100 and 101 (delivery_seq 1
// and 2), then loses the daemon and connects again, not resumed: the new
// session gets 101 again, then 102, numbered on (2, 3) when its numbering is
// the first's, else from 1. Returns the ids the app was handed in the second
// session; `last_ack` is the highest Ack of the second session.
std::vector<std::uint64_t> Reconnect(const Sessions& sessions, std::uint64_t* last_ack) {
  EventLoop loop;
  FakeDaemon daemon(loop);
  ClientOptions options = testing::OptionsFor(daemon, "node-a");
  options.duplicate_window = sessions.duplicate_window;
  AppClient app(loop, options);
  daemon.welcome.set_redelivers_across_sessions(sessions.redelivers);
  daemon.welcome.set_delivery_numbering(sessions.numbering[0]);
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
  const bool continued = sessions.numbering[1] == sessions.numbering[0];
  daemon.welcome.set_delivery_numbering(sessions.numbering[1]);
  daemon.on_recv_attached.push_back(Numbered({101, 102}, continued ? 2 : 1));  // resumed: false
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

TEST(DuplicateDeliveryTest, AReplayUnderANewNumberingHandsOverOnlyWhatIsNewAndAcksAll) {
  std::uint64_t last_ack = 0;
  EXPECT_EQ(Reconnect({}, &last_ack), std::vector<std::uint64_t>{102});
  EXPECT_EQ(last_ack, 2u) << "the dropped duplicate must be acknowledged too";
}

TEST(DuplicateDeliveryTest, WithTheWindowOffTheReplayIsHandedOverAgain) {
  std::uint64_t last_ack = 0;
  EXPECT_EQ(Reconnect({.duplicate_window = 0}, &last_ack),
            (std::vector<std::uint64_t>{101, 102}));
  EXPECT_EQ(last_ack, 2u);
}

// A daemon that says it never redelivers under another numbering (not
// federated) costs no window: nothing is remembered, so a replay it was not
// supposed to make is handed over.
TEST(DuplicateDeliveryTest, ADaemonThatDoesNotRedeliverGetsNoWindow) {
  std::uint64_t last_ack = 0;
  EXPECT_EQ(Reconnect({.redelivers = false}, &last_ack), (std::vector<std::uint64_t>{101, 102}));
  EXPECT_EQ(last_ack, 2u);
}

// A new session numbered as the last (the daemon still had the app's
// entry): its delivery_seq check goes on, window or not.
TEST(DuplicateDeliveryTest, ANewSessionNumberedAsTheLastDropsWhatItHadByDeliverySeq) {
  for (bool redelivers : {false, true}) {
    SCOPED_TRACE(redelivers ? "redelivers" : "does not redeliver");
    std::uint64_t last_ack = 0;
    EXPECT_EQ(Reconnect({.redelivers = redelivers, .numbering = {7, 7}}, &last_ack),
              std::vector<std::uint64_t>{102});
    EXPECT_EQ(last_ack, 3u) << "the daemon must hear that 101 (seq 2) and 102 (seq 3) arrived";
  }
}

// Numbering 0 (a daemon that does not say) names none: the SDK starts the
// delivery_seq check over, as it did before daemons said, even if the
// daemon in fact numbered on.
TEST(DuplicateDeliveryTest, AnUnnamedNumberingStartsOver) {
  std::uint64_t last_ack = 0;
  EXPECT_EQ(Reconnect({.redelivers = false, .numbering = {0, 0}}, &last_ack),
            (std::vector<std::uint64_t>{101, 102}));
  EXPECT_EQ(last_ack, 3u);
}

}  // namespace
}  // namespace trestle
