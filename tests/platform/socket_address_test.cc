// ParseSocketAddress: every form, and errors that name the text.
#include "trestle/platform/socket_address.h"

#include <gtest/gtest.h>

#include <string>

namespace trestle::platform {
namespace {

TEST(SocketAddressTest, ParsesHostAndPort) {
  absl::StatusOr<SocketAddress> a = ParseSocketAddress("127.0.0.1:7878");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->kind, SocketAddress::Kind::kTcp);
  EXPECT_EQ(a->host, "127.0.0.1");
  EXPECT_EQ(a->port, 7878);
  EXPECT_EQ(a->ToString(), "127.0.0.1:7878");
  a = ParseSocketAddress("trestled.internal:0");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->host, "trestled.internal");
  EXPECT_EQ(a->port, 0) << "port 0 is a form; whether it is allowed is the caller's";
}

TEST(SocketAddressTest, ParsesBracketedIpv6) {
  absl::StatusOr<SocketAddress> a = ParseSocketAddress("[::1]:65535");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->host, "::1");
  EXPECT_EQ(a->port, 65535);
  EXPECT_EQ(a->ToString(), "[::1]:65535");
}

TEST(SocketAddressTest, ParsesUnixSocketPaths) {
  absl::StatusOr<SocketAddress> a = ParseSocketAddress("unix:/run/trestle/d.sock");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->kind, SocketAddress::Kind::kUnix);
  EXPECT_EQ(a->path, "/run/trestle/d.sock");
  EXPECT_EQ(a->ToString(), "unix:/run/trestle/d.sock");
  const std::string longest(MaxUnixPathBytes(), 'x');
  EXPECT_TRUE(ParseSocketAddress("unix:" + longest).ok());
}

TEST(SocketAddressTest, ErrorsNameTheTextAndTheProblem) {
  const struct {
    const char* text;
    const char* why;
  } cases[] = {
      {"", "expected HOST:PORT or unix:PATH"},
      {"127.0.0.1", "expected HOST:PORT or unix:PATH"},
      {"127.0.0.1:", "empty port"},
      {":7878", "empty host"},
      {"host:65536", "port must be a number in 0..65535"},
      {"host:78x", "port must be a number in 0..65535"},
      {"host:-1", "port must be a number in 0..65535"},
      {"::1:7878", "IPv6 hosts must be written in brackets, e.g. [::1]:7878"},
      {"[::1]7878", "expected ':PORT' after ']'"},
      {"[::1", "missing ']'"},
      {"[]:7878", "empty host"},
      {"unix:", "empty socket path"},
  };
  for (const auto& c : cases) {
    absl::StatusOr<SocketAddress> a = ParseSocketAddress(c.text, "relay address");
    ASSERT_FALSE(a.ok()) << "accepted \"" << c.text << "\"";
    EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(a.status().message(),
              std::string("bad relay address \"") + c.text + "\": " + c.why);
  }
  const std::string too_long = "unix:/" + std::string(MaxUnixPathBytes(), 'x');
  EXPECT_EQ(ParseSocketAddress(too_long).status().message(),
            "bad address \"" + too_long + "\": socket path longer than " +
                std::to_string(MaxUnixPathBytes()) + " bytes");
}

}  // namespace
}  // namespace trestle::platform
