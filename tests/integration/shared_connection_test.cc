// Hello.shared_connection on a real trestled: one socket carries a client's
// ctrl, send and recv channels. Frames keep their channels' rules, the
// session is ready at Welcome, and losing the one socket ends the session.
#include <gtest/gtest.h>
#include <unistd.h>

#include "daemon_process.h"
#include "raw_connection.h"

namespace trestle::testing {
namespace {

wire::Frame SendFrame(const std::string& dst, const std::string& payload) {
  wire::Frame f;
  f.mutable_send()->set_dst(dst);
  f.mutable_send()->set_payload(payload);
  return f;
}

// The next frame on `c` is an Error with `code` whose text contains `text`.
void ExpectError(RawConnection& c, wire::ErrorCode code, const std::string& text) {
  auto error = c.ReadFrame();
  ASSERT_TRUE(error.has_value() && error->has_error());
  EXPECT_EQ(error->error().code(), code);
  EXPECT_NE(error->error().text().find(text), std::string::npos) << error->error().text();
}

TEST(SharedConnection, SendsAndDeliveriesTravelOnTheCtrlSocket) {
  DaemonProcess daemon;
  RawSession sim(daemon.port(), "ghost", wire::ROLE_SIM);
  ASSERT_TRUE(sim.ok);
  RawConnection a(daemon.port());
  RawConnection b(daemon.port());
  ASSERT_TRUE(a.Hello("a", wire::ROLE_APP, "", wire::PUSH, /*shared=*/true).has_welcome());
  ASSERT_TRUE(b.Hello("b", wire::ROLE_APP, "", wire::PUSH, /*shared=*/true).has_welcome());

  a.WriteFrame(SendFrame("b", std::string("x\0y", 3)));
  ASSERT_EQ(AnswerTransits(sim, 1), 1);
  auto delivered = b.ReadFrame();
  ASSERT_TRUE(delivered.has_value() && delivered->has_deliveries());
  ASSERT_EQ(delivered->deliveries().deliveries_size(), 1);
  EXPECT_EQ(delivered->deliveries().deliveries(0).src(), "a");
  EXPECT_EQ(delivered->deliveries().deliveries(0).payload(), std::string("x\0y", 3));

  // Ctrl frames still work on the same socket, and the counters balance.
  wire::Frame ping;
  ping.mutable_ping()->set_nonce(7);
  a.WriteFrame(ping);
  auto pong = a.ReadFrame();
  ASSERT_TRUE(pong.has_value() && pong->has_pong());
  EXPECT_EQ(pong->pong().nonce(), 7u);
  const wire::StatsReply stats = b.Stats();
  EXPECT_EQ(stats.total().accepted(), 1u);
  EXPECT_EQ(stats.total().delivered(), 1u);
  EXPECT_EQ(stats.total().in_flight(), 0u);
}

TEST(SharedConnection, ARejectedSendIsAnsweredOnTheSameSocket) {
  DaemonProcess daemon;
  RawConnection a(daemon.port());
  ASSERT_TRUE(a.Hello("a", wire::ROLE_APP, "", wire::PUSH, true).has_welcome());
  a.WriteFrame(SendFrame("", "p"));
  auto error = a.ReadFrame();
  ASSERT_TRUE(error.has_value() && error->has_error());
  EXPECT_EQ(error->error().code(), wire::BAD_REQUEST);
  EXPECT_NE(error->error().ref_id(), 0u) << "the refused send is named by its id";
  EXPECT_NE(error->error().text().find("Send.dst"), std::string::npos) << error->error().text();
  // The session carries on.
  a.WriteFrame(SendFrame("b", "q"));
  EXPECT_EQ(a.Stats().total().accepted(), 1u);
}

TEST(SharedConnection, RolesStillDecideWhatASocketMayDo) {
  DaemonProcess daemon;
  RawConnection sim(daemon.port());
  ASSERT_TRUE(sim.Hello("ghost", wire::ROLE_SIM, "", wire::PUSH, true).has_welcome());
  sim.WriteFrame(SendFrame("b", "p"));
  ExpectError(sim, wire::PERMISSION_DENIED, "role SIM");

  // A shared socket has no separate channels to attach.
  wire::Frame attach;
  attach.mutable_attach()->set_channel(wire::CHANNEL_SEND);
  sim.WriteFrame(attach);
  ExpectError(sim, wire::BAD_REQUEST, "only valid as the first frame");
}

TEST(SharedConnection, APullAppIsRefusedWithTheReason) {
  DaemonProcess daemon;
  RawConnection a(daemon.port());
  wire::Frame f = a.Hello("a", wire::ROLE_APP, "", wire::PULL, true);
  ASSERT_TRUE(f.has_error());
  EXPECT_EQ(f.error().code(), wire::BAD_REQUEST);
  EXPECT_NE(f.error().text().find("shared_connection needs PUSH"), std::string::npos)
      << f.error().text();
  EXPECT_TRUE(a.WaitClosed());
  // A PULL simulator may share: nothing it sends waits on its own fetches.
  RawConnection sim(daemon.port());
  EXPECT_TRUE(sim.Hello("ghost", wire::ROLE_SIM, "", wire::PULL, true).has_welcome());
}

TEST(SharedConnection, ClosingTheSocketEndsTheSessionAndFreesTheId) {
  // No linger: the id is free as soon as the socket is gone.
  DaemonProcess daemon({"--session-linger-ms", "0"});
  {
    RawConnection a(daemon.port());
    ASSERT_TRUE(a.Hello("a", wire::ROLE_APP, "", wire::PUSH, true).has_welcome());
  }
  bool welcomed = false;
  for (int attempt = 0; attempt < 50 && !welcomed; ++attempt) {
    RawConnection again(daemon.port());
    welcomed = again.Hello("a", wire::ROLE_APP, "", wire::PUSH, true).has_welcome();
    if (!welcomed) usleep(20'000);
  }
  EXPECT_TRUE(welcomed) << "the id stayed taken after its only socket closed";
  EXPECT_TRUE(daemon.running());
}

}  // namespace
}  // namespace trestle::testing
