// Client options for SDK-based integration tests: a client `id` of the
// daemon at `daemon`, everything else default.
#pragma once

#include <string>

#include "trestle/client_options.h"

namespace trestle::testing {

inline ClientOptions TestClientOptions(const std::string& daemon, const std::string& id) {
  ClientOptions o;
  o.daemon = daemon;
  o.client_id = id;
  return o;
}

}  // namespace trestle::testing
