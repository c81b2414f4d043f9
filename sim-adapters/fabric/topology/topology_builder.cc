#include "trestle/fabric/topology_builder.h"

#include "trestle/fabric/dragonfly_topology.h"
#include "trestle/fabric/fat_tree_topology.h"
#include "trestle/fabric/full_mesh_topology.h"
#include "trestle/fabric/ring_topology.h"
#include "trestle/fabric/switch_topology.h"
#include "trestle/fabric/torus_topology.h"

namespace trestle::fabric {

TopologyPtr TopologyBuilder::Build(const TopologySpec& spec, const FabricParams& defaults) {
  FabricParams params = spec.FabricParamsOver(defaults);
  switch (spec.kind) {
    case TopologyKind::kSwitch: return std::make_unique<SwitchTopology>(spec.endpoints, params);
    case TopologyKind::kRing: return std::make_unique<RingTopology>(spec.endpoints, params);
    case TopologyKind::kTorus: return std::make_unique<TorusTopology>(spec.dims, true, params);
    case TopologyKind::kMesh: return std::make_unique<TorusTopology>(spec.dims, false, params);
    case TopologyKind::kFullMesh:
      return std::make_unique<FullMeshTopology>(spec.endpoints, params);
    case TopologyKind::kFatTree:
      return std::make_unique<FatTreeTopology>(spec.k, spec.oversubscription, params);
    case TopologyKind::kDragonfly:
      return std::make_unique<DragonflyTopology>(spec.dragonfly, params);
  }
  return nullptr;
}

absl::StatusOr<TopologyPtr> TopologyBuilder::FromText(std::string_view text,
                                                      const FabricParams& defaults) {
  absl::StatusOr<TopologySpec> spec = TopologySpec::Parse(text);
  if (!spec.ok()) return spec.status();
  return Build(*spec, defaults);
}

}  // namespace trestle::fabric
