#include "trestle/daemon/listen_address.h"

#include <arpa/inet.h>

#include <charconv>

#include "absl/strings/str_cat.h"

namespace trestle::daemon {

absl::StatusOr<ListenAddress> ParseListenAddress(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
    return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not HOST:PORT"));
  }
  ListenAddress address;
  address.host = text.substr(0, colon);
  if (address.host.size() > 2 && address.host.front() == '[' && address.host.back() == ']') {
    address.host = address.host.substr(1, address.host.size() - 2);
  }
  unsigned port = 0;
  const char* begin = text.data() + colon + 1;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, port);
  if (ec != std::errc() || ptr != end || port > 65535) {
    return absl::InvalidArgumentError(absl::StrCat("'", text, "': port is not a number 0-65535"));
  }
  address.port = static_cast<std::uint16_t>(port);
  if (address.host == "localhost") {
    address.host = "127.0.0.1";
    address.loopback = true;
    return address;
  }
  in_addr v4{};
  in6_addr v6{};
  if (inet_pton(AF_INET, address.host.c_str(), &v4) == 1) {
    address.loopback = (ntohl(v4.s_addr) >> 24) == 127;
  } else if (inet_pton(AF_INET6, address.host.c_str(), &v6) == 1) {
    address.loopback = IN6_IS_ADDR_LOOPBACK(&v6);
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "': host is not a numeric IPv4/IPv6 address or localhost"));
  }
  return address;
}

}  // namespace trestle::daemon
