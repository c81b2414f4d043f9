#include "trestle/fabric/switch_topology.h"
#include "common/text.h"


namespace trestle::fabric {

SwitchTopology::SwitchTopology(std::uint32_t endpoints, const FabricParams& params)
    : Topology(params), n_(endpoints) {}

std::string SwitchTopology::Name() const { return internal::Concat("switch:", n_); }

LinkEnds SwitchTopology::EndsOf(LinkId link) const {
  if (link < n_) return {link, n_};
  return {n_, link - n_};
}

void SwitchTopology::AppendLinksFrom(NodeId node, std::vector<LinkId>* out) const {
  if (node < n_) {
    out->push_back(node);
    return;
  }
  for (std::uint32_t e = 0; e < n_; ++e) out->push_back(n_ + e);
}

void SwitchTopology::AppendMinimalRoute(NodeId from, NodeId to, std::uint64_t,
                                        Path* path) const {
  if (from == to) return;
  if (from < n_) path->Append(from);   // Up to the switch.
  if (to < n_) path->Append(n_ + to);  // Down to the destination.
}

}  // namespace trestle::fabric
