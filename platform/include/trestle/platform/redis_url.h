// RedisUrl: the one parser of the Redis addresses Trestle takes,
// "redis://HOST[:PORT][/DB]": the daemon's store and store_client_url
// settings, the URL the SDK reads payloads by key from, the bench's --store.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace trestle::platform {

struct RedisUrl {
  std::string host;  // a name or an IPv4 address, as hiredis takes it
  int port = 6379;   // 1..65535
  int db = 0;        // the database SELECTed after connecting
};

// Parses `text`. Errors are InvalidArgument, naming the caller's word for
// it, the text and the problem: "<what> 'redis://h:0' is not
// redis://HOST:PORT[/DB]: bad port" (wrong scheme, bad DB number, bad port,
// no host).
absl::StatusOr<RedisUrl> ParseRedisUrl(std::string_view text,
                                       std::string_view what = "Redis URL");

}  // namespace trestle::platform
