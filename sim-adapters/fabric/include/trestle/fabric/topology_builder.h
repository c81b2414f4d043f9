// TopologyBuilder: builds the Topology a TopologySpec describes. O(1) time
// and memory in the size of the topology (structure is arithmetic).
#ifndef TRESTLE_FABRIC_TOPOLOGY_BUILDER_H_
#define TRESTLE_FABRIC_TOPOLOGY_BUILDER_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "trestle/fabric/fabric_params.h"
#include "trestle/fabric/topology.h"
#include "trestle/fabric/topology_spec.h"

namespace trestle::fabric {

class TopologyBuilder {
 public:
  // Link parameters the spec leaves unset come from `defaults`.
  static TopologyPtr Build(const TopologySpec& spec, const FabricParams& defaults = {});
  // Parse + Build in one step; errors are those of TopologySpec::Parse.
  static absl::StatusOr<TopologyPtr> FromText(std::string_view text,
                                              const FabricParams& defaults = {});
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_TOPOLOGY_BUILDER_H_
