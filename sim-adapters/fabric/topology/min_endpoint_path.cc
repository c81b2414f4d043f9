#include "trestle/fabric/min_endpoint_path.h"

#include <limits>
#include <vector>

namespace trestle::fabric {

std::uint32_t MinEndpointPathLinks(const Topology& topology) {
  // Breadth-first search from every endpoint at once, each node labelled with
  // the endpoint it was reached from. A link between two nodes reached from
  // different endpoints closes a path between them of
  // distance[u] + 1 + distance[v] links; the shortest such path is the
  // answer. The closest pair's path passes through no third endpoint (that
  // one would be closer), so it does not matter that endpoints of an
  // indirect network do not forward.
  constexpr std::uint32_t kUnseen = std::numeric_limits<std::uint32_t>::max();
  const NodeId nodes = topology.NodeCount();
  std::vector<std::uint32_t> distance(nodes, kUnseen);
  std::vector<NodeId> origin(nodes, kNoNode);
  std::vector<NodeId> queue;
  queue.reserve(nodes);
  for (NodeId e = 0; e < topology.EndpointCount(); ++e) {
    distance[e] = 0;
    origin[e] = e;
    queue.push_back(e);
  }
  std::uint32_t best = kUnseen;
  std::vector<LinkId> links;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const NodeId u = queue[head];
    // Nodes come off the queue by distance; a visited neighbour is at most
    // one closer, so no path found from here is shorter than 2 × distance.
    if (best != kUnseen && 2 * distance[u] >= best) break;
    if (best == 1) break;  // nothing is shorter than one link
    links.clear();
    topology.AppendLinksFrom(u, &links);
    for (LinkId link : links) {
      const NodeId v = topology.EndsOf(link).to;
      if (distance[v] == kUnseen) {
        distance[v] = distance[u] + 1;
        origin[v] = origin[u];
        queue.push_back(v);
      } else if (origin[v] != origin[u]) {
        const std::uint32_t length = distance[u] + 1 + distance[v];
        if (length < best) best = length;
      }
    }
  }
  return best == kUnseen ? 0 : best;
}

}  // namespace trestle::fabric
