#include "trestle/daemon/listen_address.h"

#include <arpa/inet.h>

#include "trestle/platform/socket_address.h"

namespace trestle::daemon {

absl::StatusOr<ListenAddress> ParseListenAddress(const std::string& text) {
  constexpr std::string_view kWhat = "listen address";
  absl::StatusOr<platform::SocketAddress> parsed = platform::ParseSocketAddress(text, kWhat);
  if (!parsed.ok()) return parsed.status();
  if (parsed->kind == platform::SocketAddress::Kind::kUnix) {
    return platform::BadSocketAddress(kWhat, text,
                                      "expected HOST:PORT (a Unix socket is --unix-socket PATH)");
  }
  ListenAddress address;
  address.host = parsed->host;
  address.port = parsed->port;
  if (address.host == "localhost") {
    address.host = "127.0.0.1";
    address.loopback = true;
    return address;
  }
  // A listener binds an address: no name lookups, which could block or pick
  // an interface the operator did not mean.
  in_addr v4{};
  in6_addr v6{};
  if (inet_pton(AF_INET, address.host.c_str(), &v4) == 1) {
    address.loopback = (ntohl(v4.s_addr) >> 24) == 127;
  } else if (inet_pton(AF_INET6, address.host.c_str(), &v6) == 1) {
    address.loopback = IN6_IS_ADDR_LOOPBACK(&v6);
  } else {
    return platform::BadSocketAddress(kWhat, text,
                                      "host is not a numeric IPv4/IPv6 address or localhost");
  }
  return address;
}

}  // namespace trestle::daemon
