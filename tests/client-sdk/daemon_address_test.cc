#include "daemon_address.h"

#include <gtest/gtest.h>

#include <string>

namespace trestle::internal {
namespace {

TEST(DaemonAddressTest, ParsesIpv4HostAndPort) {
  absl::StatusOr<DaemonAddress> a = ParseDaemonAddress("127.0.0.1:7878");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->kind, DaemonAddress::Kind::kTcp);
  EXPECT_EQ(a->host, "127.0.0.1");
  EXPECT_EQ(a->port, 7878);
  EXPECT_EQ(a->ToString(), "127.0.0.1:7878");
}

TEST(DaemonAddressTest, ParsesHostNames) {
  absl::StatusOr<DaemonAddress> a = ParseDaemonAddress("trestled.internal:1");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->host, "trestled.internal");
  EXPECT_EQ(a->port, 1);
}

TEST(DaemonAddressTest, ParsesBracketedIpv6) {
  absl::StatusOr<DaemonAddress> a = ParseDaemonAddress("[::1]:65535");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->host, "::1");
  EXPECT_EQ(a->port, 65535);
  EXPECT_EQ(a->ToString(), "[::1]:65535");
}

TEST(DaemonAddressTest, ParsesUnixSocketPath) {
  absl::StatusOr<DaemonAddress> a = ParseDaemonAddress("unix:/run/trestle/d.sock");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->kind, DaemonAddress::Kind::kUnix);
  EXPECT_EQ(a->path, "/run/trestle/d.sock");
  EXPECT_EQ(a->ToString(), "unix:/run/trestle/d.sock");
}

TEST(DaemonAddressTest, RejectsUnixPathTooLongForSockaddr) {
  const std::string path = "/" + std::string(200, 'x');
  absl::StatusOr<DaemonAddress> a = ParseDaemonAddress("unix:" + path);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(a.status().message().find("longer than"), std::string::npos) << a.status();
}

TEST(DaemonAddressTest, RejectsMalformedAddressesWithTheirText) {
  for (const char* bad : {"", "127.0.0.1", "127.0.0.1:", ":7878", "host:0", "host:65536",
                          "host:78x", "host:-1", "::1:7878", "[::1]7878", "[::1", "unix:",
                          "[]:7878"}) {
    absl::StatusOr<DaemonAddress> a = ParseDaemonAddress(bad);
    ASSERT_FALSE(a.ok()) << "accepted \"" << bad << "\"";
    EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(a.status().message().find(std::string("\"") + bad + "\""), std::string::npos)
        << a.status();
  }
}

}  // namespace
}  // namespace trestle::internal
