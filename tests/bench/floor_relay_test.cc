// The floor in one process: FloorRelay, FloorEcho and FloorFleet on one
// loop (the benchmark runs each in its own process; the routing and the
// stamps are the same). Messages reach the right app exactly once with
// their payload and stamps in trip order; a stalled app's messages wait in
// the relay; frames sent before the echo connects wait for it.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "floor_echo.h"
#include "floor_fleet.h"
#include "floor_relay.h"
#include "trestle/event_loop.h"

namespace trestle::bench {
namespace {

using std::chrono::milliseconds;

struct Arrival {
  std::uint32_t receiver;
  std::uint64_t id;
  std::string payload;
  Stamps stamps;
};

class FloorRelayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::uint16_t> port =
        relay_.Listen(*platform::ParseSocketAddress("127.0.0.1:0"), "");
    ASSERT_TRUE(port.ok()) << port.status();
    address_ = *platform::ParseSocketAddress("127.0.0.1:" + std::to_string(*port));
  }
  void TearDown() override {
    fleet_.reset();
    echo_.Close();
    relay_.Close();
    loop_.RunFor(milliseconds(1));
  }

  void ConnectEcho() {
    bool done = false;
    echo_.Connect(
        address_,
        [&](const absl::Status& s) {
          EXPECT_TRUE(s.ok()) << s;
          done = true;
        },
        [] { ADD_FAILURE() << "the relay dropped the echo"; });
    ASSERT_TRUE(loop_.RunUntil([&] { return done; }, milliseconds(10'000)));
  }

  // `apps` apps, the last `stalled` of them never reading.
  void ConnectFleet(std::uint32_t apps, std::uint32_t stalled) {
    fleet_ = std::make_unique<FloorFleet>(loop_, address_);
    AppFleet::Handlers handlers;
    handlers.on_arrival = [this](std::uint32_t receiver, const Message& m) {
      arrivals_.push_back({receiver, m.id, m.payload, m.stamps});
    };
    handlers.on_error = [](const absl::Status& s) { ADD_FAILURE() << s; };
    fleet_->Create(apps, stalled, std::move(handlers));
    std::uint32_t connected = 0;
    for (std::uint32_t i = 0; i < apps; ++i) {
      ASSERT_TRUE(fleet_->ConnectAsync(i, [&](absl::Status s) {
                          EXPECT_TRUE(s.ok()) << s;
                          ++connected;
                        }).ok());
    }
    ASSERT_TRUE(loop_.RunUntil([&] { return connected == apps; }, milliseconds(10'000)));
  }

  EventLoop loop_;
  FloorRelay relay_{loop_.uv_loop()};
  FloorEcho echo_{loop_.uv_loop()};
  platform::SocketAddress address_;
  std::unique_ptr<FloorFleet> fleet_;
  std::vector<Arrival> arrivals_;
};

TEST_F(FloorRelayTest, EachMessageReachesItsAppOnceWithStampsInTripOrder) {
  ConnectEcho();
  ConnectFleet(3, 0);
  absl::StatusOr<std::uint64_t> a = fleet_->Send(0, 2, "to two");
  absl::StatusOr<std::uint64_t> b = fleet_->Send(2, 1, "to one");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(*a, *b);
  ASSERT_TRUE(loop_.RunUntil([&] { return arrivals_.size() == 2; }, milliseconds(10'000)));
  loop_.RunFor(milliseconds(50));  // nothing more comes
  ASSERT_EQ(arrivals_.size(), 2u);
  for (const Arrival& m : arrivals_) {
    if (m.id == *a) {
      EXPECT_EQ(m.receiver, 2u);
      EXPECT_EQ(m.payload, "to two");
    } else {
      EXPECT_EQ(m.id, *b);
      EXPECT_EQ(m.receiver, 1u);
      EXPECT_EQ(m.payload, "to one");
    }
    const Stamps& s = m.stamps;
    EXPECT_GT(s.app_sent, 0u);
    EXPECT_LE(s.app_sent, s.daemon_accepted);
    EXPECT_LE(s.daemon_accepted, s.sim_handed);
    EXPECT_LE(s.sim_handed, s.sim_posted);
    EXPECT_LE(s.sim_posted, s.daemon_delivered);
    EXPECT_LE(s.daemon_delivered, s.app_received);
  }
}

TEST_F(FloorRelayTest, FramesBeforeTheEchoWaitForIt) {
  ConnectFleet(2, 0);
  ASSERT_TRUE(fleet_->Send(0, 1, "early").ok());
  loop_.RunFor(milliseconds(50));
  EXPECT_TRUE(arrivals_.empty()) << "no echo yet";
  ConnectEcho();
  ASSERT_TRUE(loop_.RunUntil([&] { return arrivals_.size() == 1; }, milliseconds(10'000)));
  EXPECT_EQ(arrivals_[0].payload, "early");
  EXPECT_EQ(arrivals_[0].receiver, 1u);
}

TEST_F(FloorRelayTest, AStalledAppReceivesNothingAndHoldsUpNoOne) {
  ConnectEcho();
  ConnectFleet(3, 1);  // app 2 never reads
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(fleet_->Send(0, 2, std::string(1000, 'x')).ok());
  ASSERT_TRUE(fleet_->Send(0, 1, "after").ok());
  ASSERT_TRUE(loop_.RunUntil([&] { return arrivals_.size() == 1; }, milliseconds(10'000)));
  loop_.RunFor(milliseconds(50));
  ASSERT_EQ(arrivals_.size(), 1u);
  EXPECT_EQ(arrivals_[0].receiver, 1u);
  EXPECT_EQ(arrivals_[0].payload, "after");
}

}  // namespace
}  // namespace trestle::bench
