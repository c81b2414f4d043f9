// ListenAddress: a parsed "HOST:PORT" (IPv4 or [IPv6]) for trestled's TCP
// listener, and whether it stays on loopback.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace trestle::daemon {

struct ListenAddress {
  std::string host;  // numeric address or "localhost"
  std::uint16_t port = 0;
  bool loopback = false;  // 127.0.0.0/8, ::1 or localhost
};

// Errors name the text: "'7878' is not HOST:PORT".
absl::StatusOr<ListenAddress> ParseListenAddress(const std::string& text);

}  // namespace trestle::daemon
