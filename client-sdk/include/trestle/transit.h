// trestle::Transit: a payload in flight, as a simulator sees it (metadata
// only, never the payload). Mirrors trestle.wire.Transit.
#pragma once

#include <cstdint>
#include <string>

namespace trestle {

struct Transit {
  std::uint64_t id = 0;      // message id; answer it with Outcome::id
  std::string src;           // sender client id
  std::string dst;           // destination client id
  std::uint64_t size = 0;    // payload bytes
  std::uint32_t tclass = 0;  // traffic class
  std::uint64_t t_send = 0;  // virtual ns
  // A serialized wire::CollectiveBatch (Send.collectives), or empty.
  std::string collectives;
};

}  // namespace trestle
