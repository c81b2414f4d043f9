#include "daemon_address.h"

#include <sys/un.h>

#include <charconv>

#include "absl/status/status.h"

namespace trestle::internal {
namespace {

absl::Status Invalid(std::string_view text, std::string_view why) {
  return absl::InvalidArgumentError("bad daemon address \"" + std::string(text) +
                                    "\": " + std::string(why));
}

}  // namespace

std::string DaemonAddress::ToString() const {
  if (kind == Kind::kUnix) return "unix:" + path;
  if (host.find(':') != std::string::npos) {
    return "[" + host + "]:" + std::to_string(port);
  }
  return host + ":" + std::to_string(port);
}

absl::StatusOr<DaemonAddress> ParseDaemonAddress(std::string_view text) {
  DaemonAddress address;
  constexpr std::string_view kUnixPrefix = "unix:";
  if (text.substr(0, kUnixPrefix.size()) == kUnixPrefix) {
    address.kind = DaemonAddress::Kind::kUnix;
    address.path = std::string(text.substr(kUnixPrefix.size()));
    if (address.path.empty()) return Invalid(text, "empty socket path");
    // sun_path holds the path and its terminating NUL.
    if (address.path.size() >= sizeof(sockaddr_un{}.sun_path)) {
      return Invalid(text, "socket path longer than " +
                               std::to_string(sizeof(sockaddr_un{}.sun_path) - 1) +
                               " bytes");
    }
    return address;
  }

  std::string_view host;
  std::string_view port;
  if (!text.empty() && text.front() == '[') {
    const std::size_t close = text.find(']');
    if (close == std::string_view::npos) return Invalid(text, "missing ']'");
    host = text.substr(1, close - 1);
    const std::string_view rest = text.substr(close + 1);
    if (rest.empty() || rest.front() != ':') return Invalid(text, "expected ':PORT' after ']'");
    port = rest.substr(1);
  } else {
    const std::size_t colon = text.rfind(':');
    if (colon == std::string_view::npos) return Invalid(text, "expected HOST:PORT or unix:PATH");
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (host.find(':') != std::string_view::npos) {
      return Invalid(text, "IPv6 hosts must be written in brackets, e.g. [::1]:7878");
    }
  }
  if (host.empty()) return Invalid(text, "empty host");
  if (port.empty()) return Invalid(text, "empty port");
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (ec != std::errc() || end != port.data() + port.size() || value == 0 || value > 65535) {
    return Invalid(text, "port must be a number in 1..65535");
  }
  address.host = std::string(host);
  address.port = static_cast<std::uint16_t>(value);
  return address;
}

}  // namespace trestle::internal
