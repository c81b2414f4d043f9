// LocalDestinationLookup: every destination is an app of this daemon. A name
// no app has used yet gets a registry entry, so that its deliveries can wait
// for it to connect (until delivery_ttl_ms); an app may name at most
// `max_absent` such destinations at once (max_absent_destinations), beyond
// which its sends are refused with ResourceExhausted.
#pragma once

#include <string>

#include "absl/strings/str_cat.h"
#include "dispatch/destination_lookup.h"
#include "messages/client_registry.h"

namespace trestle::daemon {

class LocalDestinationLookup final : public DestinationLookup {
 public:
  // `apps` must outlive the lookup.
  LocalDestinationLookup(ClientRegistry& apps, std::uint64_t max_absent)
      : apps_(apps), max_absent_(max_absent) {}

  absl::StatusOr<Destination> Resolve(std::uint32_t sender, std::string_view dst) override {
    if (ClientEntry* e = apps_.Find(dst)) return Destination{Destination::Where::kLocalApp, e->index, 0};
    const ClientEntry& from = apps_.at(sender);
    if (from.absent_named >= max_absent_) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "app '", from.id, "' already names ", from.absent_named,
          " destinations that are not connected, the most allowed (max_absent_destinations); "
          "'", std::string(dst), "' is refused until some connect or expire"));
    }
    return Destination{Destination::Where::kLocalApp, apps_.CreateNamed(dst, sender).index, 0};
  }

 private:
  ClientRegistry& apps_;
  const std::uint64_t max_absent_;
};

}  // namespace trestle::daemon
