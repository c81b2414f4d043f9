#include "daemon_address.h"

namespace trestle::internal {

absl::StatusOr<DaemonAddress> ParseDaemonAddress(std::string_view text) {
  constexpr std::string_view kWhat = "daemon address";
  absl::StatusOr<DaemonAddress> address = platform::ParseSocketAddress(text, kWhat);
  if (address.ok() && address->kind == DaemonAddress::Kind::kTcp && address->port == 0) {
    return platform::BadSocketAddress(kWhat, text, "port must be a number in 1..65535");
  }
  return address;
}

}  // namespace trestle::internal
