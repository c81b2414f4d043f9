#include "trestle/fabric/hop_statistics.h"

#include <algorithm>
#include <vector>

namespace trestle::fabric {

HopStatistics HopStatistics::Compute(const Topology& topology, std::uint32_t max_sources) {
  HopStatistics stats;
  const std::uint32_t routers = topology.RouterCount();
  const NodeId first_router = topology.RouterNode(0);
  // Endpoints attached to each router (1 per router in a direct network).
  std::vector<std::uint32_t> weight(routers, 0);
  for (NodeId e = 0; e < topology.EndpointCount(); ++e) {
    ++weight[topology.EndpointRouter(e) - first_router];
  }
  const double total_weight = topology.EndpointCount();
  if (total_weight < 2) return stats;

  std::vector<NodeId> sources = topology.SymmetricHopSources();
  if (sources.empty()) {
    std::vector<NodeId> with_endpoints;
    for (std::uint32_t r = 0; r < routers; ++r) {
      if (weight[r] > 0) with_endpoints.push_back(first_router + r);
    }
    if (with_endpoints.size() <= max_sources) {
      sources = std::move(with_endpoints);
    } else {
      stats.exact = false;
      for (std::uint32_t i = 0; i < max_sources; ++i) {
        sources.push_back(with_endpoints[i * with_endpoints.size() / max_sources]);
      }
    }
  }

  std::vector<std::uint32_t> distance(routers);
  std::vector<std::uint32_t> frontier, next;
  std::vector<LinkId> links;
  constexpr std::uint32_t kUnseen = 0xffffffffu;
  double hop_sum = 0;
  double pair_count = 0;
  for (NodeId source : sources) {
    std::uint32_t s = source - first_router;
    if (weight[s] == 0) continue;
    ++stats.sources;
    std::fill(distance.begin(), distance.end(), kUnseen);
    distance[s] = 0;
    frontier.assign(1, s);
    for (std::uint32_t depth = 1; !frontier.empty(); ++depth) {
      next.clear();
      for (std::uint32_t r : frontier) {
        links.clear();
        topology.AppendLinksFrom(first_router + r, &links);
        for (LinkId link : links) {
          // Host links lead to endpoints that do not forward.
          if (!topology.IsDirect() && topology.KindOf(link) == LinkKind::kHost) continue;
          std::uint32_t to = topology.EndsOf(link).to - first_router;
          if (distance[to] != kUnseen) continue;
          distance[to] = depth;
          next.push_back(to);
        }
      }
      frontier.swap(next);
    }
    for (std::uint32_t r = 0; r < routers; ++r) {
      if (weight[r] == 0) continue;
      if (distance[r] == kUnseen) {
        stats.connected = false;
        continue;
      }
      stats.diameter = std::max(stats.diameter, distance[r]);
      hop_sum += static_cast<double>(weight[s]) * weight[r] * distance[r];
    }
    pair_count += weight[s] * (total_weight - 1);
  }
  stats.average_hops = pair_count > 0 ? hop_sum / pair_count : 0;
  return stats;
}

}  // namespace trestle::fabric
