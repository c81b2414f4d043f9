// LocalDestinationLookup: every destination is an app of this daemon. A name
// no app has used yet gets a registry entry, so that its deliveries can wait
// for it to connect (until delivery_ttl_ms).
#pragma once

#include "client_registry.h"
#include "destination_lookup.h"

namespace trestle::daemon {

class LocalDestinationLookup final : public DestinationLookup {
 public:
  // `apps` must outlive the lookup.
  explicit LocalDestinationLookup(ClientRegistry& apps) : apps_(apps) {}

  absl::StatusOr<Destination> Resolve(std::uint32_t /*sender*/, std::string_view dst) override {
    return Destination{Destination::Where::kLocalApp, apps_.GetOrCreate(dst).index, 0};
  }

 private:
  ClientRegistry& apps_;
};

}  // namespace trestle::daemon
