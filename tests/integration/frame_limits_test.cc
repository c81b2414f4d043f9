// Issue 9, defect 2: one batch could kill every simulator. Transit batches
// were bounded by count only, Send.dst had no length limit, and outcome
// batches from the SDK by count only, so a frame could exceed its reader's
// limit and break the connection. Now every batch frame is bounded by bytes
// as well as count, and client ids and destinations are at most 255 bytes.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "app_fleet.h"
#include "daemon_process.h"
#include "raw_connection.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"

namespace trestle::testing {
namespace {

using std::chrono::seconds;

std::string Name(char c, std::size_t bytes, int i) {
  std::string name = absl::StrCat(i, "-");
  name.resize(bytes, c);
  return name;
}

TEST(FrameLimits, QueuedTransitsWithLongIdsReachASimulatorInFramesWithinTheLimit) {
  DaemonProcess daemon({"--max-frame-bytes", "64KiB"});
  RawSession app(daemon.port(), Name('a', 250, 0), wire::ROLE_APP);
  ASSERT_TRUE(app.ok);
  for (int i = 0; i < 300; ++i) {  // 300 transits of ~570 bytes: 170 kB queued
    wire::Frame f;
    f.mutable_send()->set_dst(Name('d', 250, i));
    f.mutable_send()->set_payload("x");
    app.send.WriteFrame(f);
  }
  for (int i = 0; i < 100 && app.ctrl.Stats().total().accepted() < 300; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(app.ctrl.Stats().total().accepted(), 300u);

  RawSession sim(daemon.port(), "sim", wire::ROLE_SIM);
  ASSERT_TRUE(sim.ok);
  std::set<std::uint64_t> ids;
  while (ids.size() < 300) {
    auto batch = sim.recv.ReadFrame(3000);
    ASSERT_TRUE(batch.has_value() && batch->has_transits()) << ids.size() << " so far";
    EXPECT_LE(batch->ByteSizeLong(), 64u << 10) << "a TransitBatch above the frame limit";
    for (const auto& t : batch->transits().transits()) ids.insert(t.id());
  }
  EXPECT_EQ(ids.size(), 300u);
}

TEST(FrameLimits, ClientIdsAndDestinationsAreAtMost255Bytes) {
  DaemonProcess daemon;
  RawConnection too_long(daemon.port());
  wire::Frame f = too_long.Hello(std::string(256, 'i'), wire::ROLE_APP);
  ASSERT_TRUE(f.has_error());
  EXPECT_EQ(f.error().code(), wire::BAD_REQUEST);
  EXPECT_NE(f.error().text().find("1 to 255 bytes"), std::string::npos) << f.error().text();

  RawSession app(daemon.port(), std::string(255, 'i'), wire::ROLE_APP);  // at the limit
  ASSERT_TRUE(app.ok);
  wire::Frame send;
  send.mutable_send()->set_dst(std::string(256, 'd'));
  send.mutable_send()->set_payload("x");
  app.send.WriteFrame(send);
  auto error = app.send.ReadFrame(2000);
  ASSERT_TRUE(error.has_value() && error->has_error()) << "a 256-byte dst was accepted";
  EXPECT_EQ(error->error().code(), wire::BAD_REQUEST);
  EXPECT_NE(error->error().text().find("256 bytes"), std::string::npos) << error->error().text();
  EXPECT_NE(error->error().text().find("255"), std::string::npos) << error->error().text();
  EXPECT_NE(error->error().ref_id(), 0u);

  send.mutable_send()->set_dst(std::string(255, 'd'));  // at the limit
  app.send.WriteFrame(send);
  EXPECT_FALSE(app.send.ReadFrame(300).has_value());
  const wire::Counters t = app.ctrl.Stats().total();
  EXPECT_EQ(t.accepted(), 1u);
  EXPECT_EQ(t.rejected(), 1u);
}

// The ghost posts the outcomes of a large transit batch in one callback; with
// a 4 KiB frame limit they must leave in several OutcomeBatch frames.
TEST(FrameLimits, OutcomeBatchesFromTheSdkStayWithinTheDaemonsFrameLimit) {
  DaemonProcess daemon({"--max-frame-bytes", "4KiB"});
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon.address()});
  EventLoop loop;
  auto apps = ConnectApps(loop, daemon.address(), 1);
  ASSERT_EQ(apps.size(), 1u);
  int received = 0;
  apps[0]->OnMessage([&](Message&&) { ++received; });
  for (int i = 0; i < 2000; ++i) ASSERT_TRUE(apps[0]->Send("app-0", "x").ok());
  EXPECT_TRUE(loop.RunUntil([&] { return received == 2000; }, seconds(20)))
      << received << " of 2000 (the ghost's connection broke?)";
  EXPECT_EQ(SettledStats(*apps[0]).total().delivered(), 2000u);
}

}  // namespace
}  // namespace trestle::testing
