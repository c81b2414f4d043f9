#include "trestle/adapter/endpoint_resolver.h"

#include <spdlog/spdlog.h>

namespace trestle::adapter {

EndpointId EndpointResolver::Resolve(const std::string& client_id) {
  absl::StatusOr<EndpointId> endpoint = endpoints_.Resolve(client_id);
  if (endpoint.ok()) return *endpoint;
  if (warned_ids_.insert(client_id).second) {
    spdlog::warn("{} adapter: {}; its messages are dropped (DROPPED outcomes)", adapter_name_,
                 std::string(endpoint.status().message()));
  }
  return kNoEndpoint;
}

}  // namespace trestle::adapter
