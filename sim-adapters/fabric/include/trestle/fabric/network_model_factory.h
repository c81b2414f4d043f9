// Which network model prices messages, and the settings every model takes.
// Callers (the live adapter, sweeps) build models here and use them only
// through NetworkModel, so a new model is one more NetworkModelKind.
#ifndef TRESTLE_FABRIC_NETWORK_MODEL_FACTORY_H_
#define TRESTLE_FABRIC_NETWORK_MODEL_FACTORY_H_

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "trestle/fabric/duration.h"
#include "trestle/fabric/network_model.h"
#include "trestle/fabric/routing.h"
#include "trestle/fabric/topology.h"

namespace trestle::fabric {

// kUnaware: UnawareNetworkModel, every message priced alone on an idle
// network.
enum class NetworkModelKind { kUnaware };

// "unaware"; anything else is InvalidArgument listing the names.
absl::StatusOr<NetworkModelKind> ParseNetworkModelKind(std::string_view text);
std::string_view NetworkModelKindName(NetworkModelKind kind);

struct NetworkModelOptions {
  RoutingKind routing = RoutingKind::kMinimal;
  std::uint64_t seed = 1;   // the routing policy's random choices
  Duration endpoint_delay;  // per-message software cost at the endpoints, paid once
};

// `topology` must outlive the model.
NetworkModelPtr MakeNetworkModel(NetworkModelKind kind, const Topology& topology,
                                 const NetworkModelOptions& options);

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_NETWORK_MODEL_FACTORY_H_
