// Malformed and awkwardly split input on a real trestled: partial frames,
// coalesced frames, oversized frames, zero-length frames and garbage bytes.
// A bad stream gets an Error and is closed; everyone else keeps being served.
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "daemon_process.h"
#include "raw_connection.h"
#include "trestle/wire/frame_encoder.h"

namespace trestle::testing {
namespace {

wire::Frame PingFrame(std::uint64_t nonce) {
  wire::Frame f;
  f.mutable_ping()->set_nonce(nonce);
  return f;
}

wire::Frame HelloFrame(const std::string& id) {
  wire::Frame f;
  f.mutable_hello()->set_protocol_version(1);
  f.mutable_hello()->set_role(wire::ROLE_APP);
  f.mutable_hello()->set_client_id(id);
  return f;
}

// A ctrl connection that still answers Ping proves the daemon is serving.
void ExpectServing(RawConnection& ctrl, std::uint64_t nonce) {
  ctrl.WriteFrame(PingFrame(nonce));
  auto pong = ctrl.ReadFrame();
  ASSERT_TRUE(pong.has_value());
  ASSERT_TRUE(pong->has_pong());
  EXPECT_EQ(pong->pong().nonce(), nonce);
}

TEST(Framing, FrameSplitIntoSingleBytesIsReassembled) {
  DaemonProcess daemon;
  RawConnection c(daemon.port());
  std::string bytes;
  wire::AppendFrame(HelloFrame("split"), &bytes);
  for (char b : bytes) {
    c.WriteBytes(std::string(1, b));
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  auto welcome = c.ReadFrame();
  ASSERT_TRUE(welcome.has_value());
  EXPECT_TRUE(welcome->has_welcome());
}

TEST(Framing, CoalescedFramesInOneWriteAreAllAnswered) {
  DaemonProcess daemon;
  RawConnection c(daemon.port());
  std::string bytes;
  wire::AppendFrame(HelloFrame("merged"), &bytes);
  for (std::uint64_t n = 1; n <= 50; ++n) wire::AppendFrame(PingFrame(n), &bytes);
  c.WriteBytes(bytes);
  auto welcome = c.ReadFrame();
  ASSERT_TRUE(welcome.has_value() && welcome->has_welcome());
  for (std::uint64_t n = 1; n <= 50; ++n) {
    auto pong = c.ReadFrame();
    ASSERT_TRUE(pong.has_value() && pong->has_pong()) << "pong " << n;
    EXPECT_EQ(pong->pong().nonce(), n);
  }
}

TEST(Framing, OversizedFrameGetsBadFrameAndOnlyThatConnectionCloses) {
  DaemonProcess daemon({"--max-frame-bytes", "4096"});
  RawConnection bystander(daemon.port());
  ASSERT_TRUE(bystander.Hello("bystander", wire::ROLE_APP).has_welcome());

  RawConnection c(daemon.port());
  // A header announcing 1 MiB: refused before any body byte is needed.
  c.WriteBytes(std::string("\x00\x10\x00\x00", 4));
  auto error = c.ReadFrame();
  ASSERT_TRUE(error.has_value());
  ASSERT_TRUE(error->has_error());
  EXPECT_EQ(error->error().code(), wire::BAD_FRAME);
  EXPECT_NE(error->error().text().find("1048576"), std::string::npos) << error->error().text();
  EXPECT_NE(error->error().text().find("4096"), std::string::npos) << error->error().text();
  EXPECT_TRUE(c.WaitClosed());
  ExpectServing(bystander, 7);
}

TEST(Framing, GarbageBytesGetBadFrameAndOthersKeepBeingServed) {
  DaemonProcess daemon;
  RawConnection bystander(daemon.port());
  ASSERT_TRUE(bystander.Hello("bystander", wire::ROLE_APP).has_welcome());

  RawConnection c(daemon.port());
  // Length 8, then bytes that are no protobuf (field 0, wire type 7).
  c.WriteBytes(std::string("\x00\x00\x00\x08\xff\xff\xff\xff\xff\xff\xff\xff", 12));
  auto error = c.ReadFrame();
  ASSERT_TRUE(error.has_value());
  ASSERT_TRUE(error->has_error());
  EXPECT_EQ(error->error().code(), wire::BAD_FRAME);
  EXPECT_NE(error->error().text().find("not a valid"), std::string::npos);
  EXPECT_TRUE(c.WaitClosed());
  ExpectServing(bystander, 8);
  EXPECT_TRUE(daemon.running());
}

TEST(Framing, ZeroLengthFrameIsAnEmptyFrameError) {
  DaemonProcess daemon;
  RawConnection c(daemon.port());
  ASSERT_TRUE(c.Hello("zero", wire::ROLE_APP).has_welcome());
  c.WriteBytes(std::string("\x00\x00\x00\x00", 4));
  auto error = c.ReadFrame();
  ASSERT_TRUE(error.has_value() && error->has_error());
  EXPECT_EQ(error->error().code(), wire::BAD_REQUEST);
  EXPECT_NE(error->error().text().find("empty frame"), std::string::npos);
  ExpectServing(c, 9);  // a well-formed, empty frame does not end the session
}

TEST(Framing, FirstFrameMustBeHelloOrAttach) {
  DaemonProcess daemon;
  RawConnection c(daemon.port());
  c.WriteFrame(PingFrame(1));
  auto error = c.ReadFrame();
  ASSERT_TRUE(error.has_value() && error->has_error());
  EXPECT_EQ(error->error().code(), wire::BAD_REQUEST);
  EXPECT_NE(error->error().text().find("ping"), std::string::npos) << error->error().text();
  EXPECT_TRUE(c.WaitClosed());
}

TEST(Framing, TruncatedFrameThenDisconnectLeavesDaemonServing) {
  DaemonProcess daemon;
  {
    RawConnection c(daemon.port());
    std::string bytes;
    wire::AppendFrame(HelloFrame("truncated"), &bytes);
    c.WriteBytes(bytes.substr(0, bytes.size() - 3));
  }  // closed mid-frame
  RawConnection next(daemon.port());
  ASSERT_TRUE(next.Hello("truncated", wire::ROLE_APP).has_welcome())
      << "the id of a connection that never finished Hello is free";
  ExpectServing(next, 10);
}

}  // namespace
}  // namespace trestle::testing
