// DestinationLookup: where the destination named by a Send is. Today every
// destination is an app of this daemon, attached now or not yet (its
// deliveries then wait for it); with several daemons in one bridge it will
// also answer "a client attached to daemon D" (the federation seam).
#pragma once

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"

namespace trestle::daemon {

struct Destination {
  enum class Where : std::uint8_t {
    kLocalApp,    // an app of this daemon: `app` is its client index
    kPeerDaemon,  // a client attached to another daemon of the bridge
  };
  Where where = Where::kLocalApp;
  std::uint32_t app = 0;
  std::uint32_t daemon = 0;
};

class DestinationLookup {
 public:
  virtual ~DestinationLookup() = default;
  // The destination `dst` named by app `sender` (client index). An error
  // refuses the send; its text names the problem.
  virtual absl::StatusOr<Destination> Resolve(std::uint32_t sender, std::string_view dst) = 0;
};

}  // namespace trestle::daemon
