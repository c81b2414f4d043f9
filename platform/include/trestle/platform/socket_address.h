// SocketAddress: the one parser of the address texts Trestle takes on its
// command lines and in its config: "HOST:PORT", "[IPV6]:PORT" and
// "unix:PATH".
//
// It checks the form only. What a caller needs beyond it stays with the
// caller, because listening and connecting really differ there: a client
// connects to a host name and to ports 1..65535 (trestle/client-sdk
// DaemonAddress); a listener binds a numeric address, may ask for port 0 (any
// free port) and takes its Unix socket from a flag of its own
// (daemon ListenAddress).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace trestle::platform {

struct SocketAddress {
  enum class Kind { kTcp, kUnix };
  Kind kind = Kind::kTcp;
  std::string host;        // kTcp: a name, IPv4 or IPv6 literal, without brackets
  std::uint16_t port = 0;  // kTcp: 0..65535
  std::string path;        // kUnix: at most kMaxUnixPathBytes

  // Back to the text form: "host:port", "[v6]:port", "unix:path".
  std::string ToString() const;
};

// The longest Unix socket path: sockaddr_un.sun_path less its NUL.
std::size_t MaxUnixPathBytes();

// Parses `text`. An IPv6 host must be in brackets; HOST and PORT must not be
// empty; PORT is a decimal number 0..65535. Errors are InvalidArgument and
// name the text and the problem: `bad <what> "127.0.0.1": expected HOST:PORT
// or unix:PATH`, where `what` is the caller's word ("daemon address",
// "listen address").
absl::StatusOr<SocketAddress> ParseSocketAddress(std::string_view text,
                                                 std::string_view what = "address");

// The InvalidArgument error ParseSocketAddress would give, for the callers'
// own checks: `bad <what> "<text>": <why>`.
absl::Status BadSocketAddress(std::string_view what, std::string_view text, std::string_view why);

}  // namespace trestle::platform
