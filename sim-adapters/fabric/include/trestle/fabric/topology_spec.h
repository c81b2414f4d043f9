// TopologySpec: a parsed, validated description of a topology, from a spec
// string or a YAML file. TopologyBuilder turns it into a Topology.
//
// Spec strings:   KIND[:ARG][,KEY=VALUE...]
//   switch:8                 one switch, 8 endpoints
//   ring:8                   bidirectional ring of 8
//   torus:4x4x4  mesh:4x4    any number of dimensions
//   fullmesh:16
//   fattree:k=4[,oversub=2]
//   dragonfly:p=4,a=8,h=4,g=33[,arrangement=absolute|relative|circulant]
//   slingshot   slingshot-1k                       presets (dragonflies)
// Keys any kind accepts: link_bw, injection_bw (bandwidths), link_latency,
// switch_latency (durations), e.g. "ring:8,link_bw=400Gbps,link_latency=500ns".
//
// YAML files (a spec ending in .yaml or .yml) hold the same keys as a map:
//   topology: torus        # the KIND, or a preset name
//   dims: 4x4x4            # or [4, 4, 4]; "endpoints: 8" for switch/ring/fullmesh
//   link_bw: 400Gbps
// Unknown keys, keys that do not apply to the kind, bare numbers where a unit
// is needed, and shapes too large for 32-bit ids are errors naming the
// offending key or text.
#ifndef TRESTLE_FABRIC_TOPOLOGY_SPEC_H_
#define TRESTLE_FABRIC_TOPOLOGY_SPEC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "trestle/fabric/bandwidth.h"
#include "trestle/fabric/dragonfly_topology.h"
#include "trestle/fabric/duration.h"
#include "trestle/fabric/fabric_params.h"

namespace trestle::fabric {

enum class TopologyKind { kSwitch, kRing, kTorus, kMesh, kFullMesh, kFatTree, kDragonfly };

struct TopologySpec {
  TopologyKind kind = TopologyKind::kSwitch;
  std::string text;                  // The spec as given (labels output).
  std::uint32_t endpoints = 0;       // switch, ring, fullmesh
  std::vector<std::uint32_t> dims;   // torus, mesh
  std::uint32_t k = 0;               // fattree
  std::uint32_t oversubscription = 1;
  DragonflyShape dragonfly;          // dragonfly and presets

  // Unset means "not given in the spec": FabricParamsOver fills it.
  std::optional<Bandwidth> link_bandwidth;
  std::optional<Bandwidth> injection_bandwidth;
  std::optional<Duration> link_latency;
  std::optional<Duration> switch_latency;

  // Parses a spec string, or reads a YAML file when `text` ends in .yaml/.yml.
  static absl::StatusOr<TopologySpec> Parse(std::string_view text);
  static absl::StatusOr<TopologySpec> FromYamlFile(const std::string& path);

  // `defaults` with every value the spec sets replaced by the spec's. An
  // unset injection bandwidth follows the resulting link bandwidth.
  FabricParams FabricParamsOver(const FabricParams& defaults) const;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_TOPOLOGY_SPEC_H_
