// Issue 9, defect 4: memory before Hello. A connection that had not said
// Hello could make the daemon buffer a whole max_frame_bytes frame (16 MiB),
// and a silent connection stayed open forever. Frames before the handshake
// are now limited to handshake_max_frame_bytes, and a connection that has
// not completed Hello or Attach within handshake_timeout_ms is closed.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "daemon_process.h"
#include "raw_connection.h"

namespace trestle::testing {
namespace {

std::string Header(std::uint32_t length) {
  return std::string{static_cast<char>(length >> 24), static_cast<char>(length >> 16),
                     static_cast<char>(length >> 8), static_cast<char>(length)};
}

TEST(HandshakeLimits, AFrameBeforeHelloIsRefusedAboveTheHandshakeLimit) {
  DaemonProcess daemon;  // max_frame_bytes stays 16 MiB
  RawConnection c(daemon.port());
  c.WriteBytes(Header(100'000) + std::string(1000, 'x'));
  auto error = c.ReadFrame(2000);
  ASSERT_TRUE(error.has_value() && error->has_error()) << "the daemon waited for the body";
  EXPECT_EQ(error->error().code(), wire::BAD_FRAME);
  EXPECT_NE(error->error().text().find("100000"), std::string::npos) << error->error().text();
  EXPECT_NE(error->error().text().find("4096"), std::string::npos) << error->error().text();
  EXPECT_TRUE(c.WaitClosed());
}

TEST(HandshakeLimits, AfterHelloTheConnectionTakesFullSizeFrames) {
  DaemonProcess daemon({"--max-frame-bytes", "1MiB"});
  RawSession app(daemon.port(), "a", wire::ROLE_APP);
  ASSERT_TRUE(app.ok);
  wire::Frame send;
  send.mutable_send()->set_dst("a");
  send.mutable_send()->set_payload(std::string(200'000, 'p'));
  app.send.WriteFrame(send);
  EXPECT_FALSE(app.send.ReadFrame(300).has_value()) << "a 200 kB Send after Attach was refused";
  EXPECT_EQ(app.ctrl.Stats().total().accepted(), 1u);
}

TEST(HandshakeLimits, ASilentConnectionIsClosedAfterTheHandshakeTimeout) {
  DaemonProcess daemon({"--handshake-timeout-ms", "300"});
  RawConnection silent(daemon.port());
  const auto start = std::chrono::steady_clock::now();
  auto error = silent.ReadFrame(3000);
  ASSERT_TRUE(error.has_value() && error->has_error()) << "the silent connection stayed open";
  EXPECT_EQ(error->error().code(), wire::BAD_REQUEST);
  EXPECT_NE(error->error().text().find("300 ms (handshake_timeout_ms)"), std::string::npos)
      << error->error().text();
  EXPECT_TRUE(silent.WaitClosed());
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(250));

  // A connection that completed its handshake in time is not affected.
  RawSession app(daemon.port(), "a", wire::ROLE_APP);
  ASSERT_TRUE(app.ok);
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  EXPECT_EQ(app.ctrl.Stats().total().accepted(), 0u) << "the ready session was closed";
}

}  // namespace
}  // namespace trestle::testing
