// DaemonAddress: the parsed form of ClientOptions::daemon.
//
// Accepted forms: "unix:/path/to/socket", "HOST:PORT" where HOST is an IPv4
// literal, a bracketed IPv6 literal ("[::1]:7878") or a host name. PORT is
// 1..65535: a client cannot connect to port 0. Anything else is
// InvalidArgument naming the text ("bad daemon address \"...\": ..."),
// reported before any I/O. The forms are platform::ParseSocketAddress's,
// shared with the daemon's listen addresses.
#pragma once

#include <string_view>

#include "absl/status/statusor.h"
#include "trestle/platform/socket_address.h"

namespace trestle::internal {

using DaemonAddress = platform::SocketAddress;

absl::StatusOr<DaemonAddress> ParseDaemonAddress(std::string_view text);

}  // namespace trestle::internal
