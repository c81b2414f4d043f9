// HopStatistics: diameter and average minimal hop count of a topology,
// measured by breadth-first search over the router graph.
//
// Hops are router-to-router (switch-to-switch in indirect networks, endpoint-
// to-endpoint in direct ones): a message between two endpoints on one switch
// has 0. The average is over ordered pairs of distinct endpoints; the diameter
// is the largest distance between routers that have endpoints.
//
// Cost: one BFS per source router, O(sources × links). Sources are the
// topology's SymmetricHopSources() when it offers them (exact), else every
// router with endpoints when there are at most `max_sources`, else an evenly
// spaced sample of `max_sources` routers (exact = false: the diameter is then
// a lower bound and the average an estimate).
#ifndef TRESTLE_FABRIC_HOP_STATISTICS_H_
#define TRESTLE_FABRIC_HOP_STATISTICS_H_

#include <cstdint>

#include "trestle/fabric/topology.h"

namespace trestle::fabric {

struct HopStatistics {
  std::uint32_t diameter = 0;
  double average_hops = 0;
  bool connected = true;   // False if some endpoint cannot reach another.
  bool exact = true;
  std::uint32_t sources = 0;  // BFS runs made.

  static HopStatistics Compute(const Topology& topology, std::uint32_t max_sources = 256);
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_HOP_STATISTICS_H_
