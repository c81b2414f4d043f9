#include "trestle/platform/socket_address.h"

#include <sys/un.h>

#include <charconv>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace trestle::platform {

std::size_t MaxUnixPathBytes() { return sizeof(sockaddr_un{}.sun_path) - 1; }

absl::Status BadSocketAddress(std::string_view what, std::string_view text, std::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("bad ", std::string(what), " \"",
                                                 std::string(text), "\": ", std::string(why)));
}

std::string SocketAddress::ToString() const {
  if (kind == Kind::kUnix) return "unix:" + path;
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + std::to_string(port);
  return host + ":" + std::to_string(port);
}

absl::StatusOr<SocketAddress> ParseSocketAddress(std::string_view text, std::string_view what) {
  SocketAddress address;
  constexpr std::string_view kUnixPrefix = "unix:";
  if (text.substr(0, kUnixPrefix.size()) == kUnixPrefix) {
    address.kind = SocketAddress::Kind::kUnix;
    address.path = std::string(text.substr(kUnixPrefix.size()));
    if (address.path.empty()) return BadSocketAddress(what, text, "empty socket path");
    if (address.path.size() > MaxUnixPathBytes()) {
      return BadSocketAddress(what, text,
                              absl::StrCat("socket path longer than ", MaxUnixPathBytes(),
                                           " bytes"));
    }
    return address;
  }

  std::string_view host;
  std::string_view port;
  if (!text.empty() && text.front() == '[') {
    const std::size_t close = text.find(']');
    if (close == std::string_view::npos) return BadSocketAddress(what, text, "missing ']'");
    host = text.substr(1, close - 1);
    const std::string_view rest = text.substr(close + 1);
    if (rest.empty() || rest.front() != ':') {
      return BadSocketAddress(what, text, "expected ':PORT' after ']'");
    }
    port = rest.substr(1);
  } else {
    const std::size_t colon = text.rfind(':');
    if (colon == std::string_view::npos) {
      return BadSocketAddress(what, text, "expected HOST:PORT or unix:PATH");
    }
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (host.find(':') != std::string_view::npos) {
      return BadSocketAddress(what, text,
                              "IPv6 hosts must be written in brackets, e.g. [::1]:7878");
    }
  }
  if (host.empty()) return BadSocketAddress(what, text, "empty host");
  if (port.empty()) return BadSocketAddress(what, text, "empty port");
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (ec != std::errc() || end != port.data() + port.size() || value > 65535) {
    return BadSocketAddress(what, text, "port must be a number in 0..65535");
  }
  address.host = std::string(host);
  address.port = static_cast<std::uint16_t>(value);
  return address;
}

}  // namespace trestle::platform
