// DaemonAddress: the parsed form of ClientOptions::daemon.
//
// Accepted forms: "unix:/path/to/socket", "HOST:PORT" where HOST is an IPv4
// literal, a bracketed IPv6 literal ("[::1]:7878") or a host name. PORT is
// 1..65535. Anything else is InvalidArgument, reported before any I/O.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace trestle::internal {

struct DaemonAddress {
  enum class Kind { kTcp, kUnix };
  Kind kind = Kind::kTcp;
  std::string host;  // kTcp: without brackets
  std::uint16_t port = 0;
  std::string path;  // kUnix

  // Back to the text form, for error messages.
  std::string ToString() const;
};

absl::StatusOr<DaemonAddress> ParseDaemonAddress(std::string_view text);

}  // namespace trestle::internal
