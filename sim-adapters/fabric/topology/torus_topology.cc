#include "trestle/fabric/torus_topology.h"

#include <algorithm>
#include "common/text.h"


namespace trestle::fabric {

TorusTopology::TorusTopology(std::vector<std::uint32_t> dims, bool wrap,
                             const FabricParams& params)
    : Topology(params), dims_(std::move(dims)), wrap_(wrap), n_(1) {
  for (std::uint32_t k : dims_) {
    strides_.push_back(n_);
    n_ *= k;
  }
}

std::string TorusTopology::Name() const {
  return internal::Concat(wrap_ ? "torus:" : "mesh:", internal::Join(dims_, "x"));
}

NodeId TorusTopology::Neighbour(NodeId node, std::size_t d, int dir) const {
  std::uint32_t k = dims_[d];
  std::uint32_t c = Coord(node, d);
  if (dir == 0) {
    if (c + 1 < k) return node + strides_[d];
    return Wraps(d) ? node - c * strides_[d] : kNoNode;
  }
  if (c > 0) return node - strides_[d];
  return Wraps(d) ? node + (k - 1) * strides_[d] : kNoNode;
}

bool TorusTopology::LinkExists(LinkId link) const {
  if (link >= LinkIdCount()) return false;
  std::size_t d = link / 2 % dims_.size();
  return Neighbour(link / 2 / dims_.size(), d, link % 2) != kNoNode;
}

LinkEnds TorusTopology::EndsOf(LinkId link) const {
  NodeId node = link / 2 / dims_.size();
  std::size_t d = link / 2 % dims_.size();
  return {node, Neighbour(node, d, link % 2)};
}

LinkCounts TorusTopology::CountLinks() const {
  LinkCounts counts;
  for (std::size_t d = 0; d < dims_.size(); ++d) {
    std::uint64_t rings = n_ / dims_[d];
    counts.local += rings * (Wraps(d) ? dims_[d] : dims_[d] - 1);
  }
  return counts;
}

void TorusTopology::AppendLinksFrom(NodeId node, std::vector<LinkId>* out) const {
  for (std::size_t d = 0; d < dims_.size(); ++d) {
    for (int dir = 0; dir < 2; ++dir) {
      if (Neighbour(node, d, dir) != kNoNode) {
        out->push_back(static_cast<LinkId>((node * dims_.size() + d) * 2 + dir));
      }
    }
  }
}

std::uint32_t TorusTopology::Radix() const {
  std::uint32_t radix = 0;
  for (std::uint32_t k : dims_) radix += k > 2 ? 2 : k - 1;
  return radix;
}

std::uint64_t TorusTopology::BisectionLinks() const {
  std::size_t d = std::max_element(dims_.begin(), dims_.end()) - dims_.begin();
  if (dims_[d] < 2) return 0;
  return static_cast<std::uint64_t>(n_ / dims_[d]) * (Wraps(d) ? 2 : 1);
}

std::string TorusTopology::BisectionCut() const {
  std::size_t d = std::max_element(dims_.begin(), dims_.end()) - dims_.begin();
  return internal::Concat("plane across the longest dimension (", d, ")");
}

void TorusTopology::AppendMinimalRoute(NodeId from, NodeId to, std::uint64_t salt,
                                       Path* path) const {
  NodeId cur = from;
  for (std::size_t d = 0; d < dims_.size(); ++d) {
    std::uint32_t k = dims_[d];
    std::uint32_t a = Coord(cur, d);
    std::uint32_t b = Coord(to, d);
    if (a == b) continue;
    int dir;
    std::uint32_t steps;
    if (Wraps(d)) {
      std::uint32_t forward = (b + k - a) % k;
      std::uint32_t backward = k - forward;
      bool go_forward = forward < backward || (forward == backward && ((salt >> d) & 1) == 0);
      dir = go_forward ? 0 : 1;
      steps = go_forward ? forward : backward;
    } else {
      dir = b > a ? 0 : 1;
      steps = b > a ? b - a : a - b;
    }
    for (std::uint32_t s = 0; s < steps; ++s) {
      path->Append(static_cast<LinkId>((cur * dims_.size() + d) * 2 + dir));
      cur = Neighbour(cur, d, dir);
    }
  }
}

NodeId TorusTopology::ValiantWaypoint(NodeId, NodeId, std::uint64_t random) const {
  return static_cast<NodeId>(random % n_);
}

std::vector<NodeId> TorusTopology::SymmetricHopSources() const {
  // A torus is vertex-transitive; a mesh is not.
  if (wrap_) return {0};
  return {};
}

}  // namespace trestle::fabric
