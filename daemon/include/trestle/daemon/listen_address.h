// ListenAddress: a parsed "HOST:PORT" (IPv4, [IPv6] or localhost) for one of
// trestled's TCP listeners, and whether it stays on loopback.
//
// The text forms are platform::ParseSocketAddress's, shared with the SDK's
// daemon addresses; a listener differs in what it accepts: a numeric host or
// localhost only (no name lookup), port 0 (any free port), and no
// "unix:PATH" (the Unix socket has its own setting).
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace trestle::daemon {

struct ListenAddress {
  std::string host;  // numeric address ("localhost" becomes 127.0.0.1)
  std::uint16_t port = 0;
  bool loopback = false;  // 127.0.0.0/8, ::1 or localhost
};

// Errors are InvalidArgument naming the text:
// bad listen address "7878": expected HOST:PORT or unix:PATH.
absl::StatusOr<ListenAddress> ParseListenAddress(const std::string& text);

}  // namespace trestle::daemon
