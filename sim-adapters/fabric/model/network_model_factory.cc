#include "trestle/fabric/network_model_factory.h"

#include "trestle/platform/enum_names.h"
#include "trestle/fabric/flow_network_model.h"
#include "trestle/fabric/unaware_network_model.h"

namespace trestle::fabric {
namespace {

constexpr platform::EnumName<NetworkModelKind> kModelNames[] = {
    {NetworkModelKind::kUnaware, "unaware"},
    {NetworkModelKind::kFlow, "flow"},
};

}  // namespace

absl::StatusOr<NetworkModelKind> ParseNetworkModelKind(std::string_view text) {
  return platform::EnumNames<NetworkModelKind>(kModelNames).Parse(text, "network model");
}

std::string_view NetworkModelKindName(NetworkModelKind kind) {
  return platform::EnumNames<NetworkModelKind>(kModelNames).Name(kind);
}

NetworkModelPtr MakeNetworkModel(NetworkModelKind kind, const Topology& topology,
                                 const NetworkModelOptions& options) {
  switch (kind) {
    case NetworkModelKind::kUnaware:
      return std::make_unique<UnawareNetworkModel>(topology, options);
    case NetworkModelKind::kFlow:
      return std::make_unique<FlowNetworkModel>(topology, options);
  }
  return nullptr;
}

}  // namespace trestle::fabric
