// EndpointResolver: the unmapped-id policy. It resolves a transit's client
// ids to endpoints through an EndpointMap; an id that has none (beyond the
// network's endpoints, or missing from the map file) resolves to
// kNoEndpoint, and its messages are dropped (SimAdapter posts DROPPED and
// counts dropped_unmapped). The reason is logged once per id (spdlog warn,
// naming the id), never per message; every other app keeps being served.
//
// Costs: one hash lookup per id for a mapped id, no allocation. One thread.
#ifndef TRESTLE_ADAPTER_ENDPOINT_RESOLVER_H_
#define TRESTLE_ADAPTER_ENDPOINT_RESOLVER_H_

#include <string>
#include <unordered_set>
#include <utility>

#include "trestle/adapter/endpoint_id.h"
#include "trestle/adapter/endpoint_map.h"

namespace trestle::adapter {

class EndpointResolver {
 public:
  // `adapter_name` starts the warning: "fabric adapter: client id 'x' ...".
  EndpointResolver(EndpointMap endpoints, std::string adapter_name)
      : endpoints_(std::move(endpoints)), adapter_name_(std::move(adapter_name)) {}

  // The endpoint of `client_id`, or kNoEndpoint after warning (once per id).
  EndpointId Resolve(const std::string& client_id);

  // Ids that had no endpoint so far.
  std::size_t unmapped_ids() const { return warned_ids_.size(); }
  const EndpointMap& endpoints() const { return endpoints_; }

 private:
  EndpointMap endpoints_;
  std::string adapter_name_;
  std::unordered_set<std::string> warned_ids_;
};

}  // namespace trestle::adapter

#endif  // TRESTLE_ADAPTER_ENDPOINT_RESOLVER_H_
