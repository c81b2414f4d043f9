// Test helpers: the small instances every topology test runs on, and a check
// that a Path really leads from one node to another over existing links.
#ifndef TRESTLE_TESTS_FABRIC_PATH_CHECK_H_
#define TRESTLE_TESTS_FABRIC_PATH_CHECK_H_

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "trestle/fabric/path.h"
#include "trestle/fabric/topology.h"
#include "trestle/fabric/topology_builder.h"

namespace trestle::fabric {

// One or more small instances of every topology kind and arrangement.
inline std::vector<std::string> SmallTopologySpecs() {
  return {"switch:5",
          "ring:7",
          "ring:2",
          "torus:3x4",
          "torus:2x3x4",
          "mesh:3x3",
          "fullmesh:5",
          "fattree:k=4",
          "fattree:k=6,oversub=2",
          "dragonfly:p=2,a=4,h=2,g=9",
          "dragonfly:p=2,a=4,h=2,g=9,arrangement=absolute",
          "dragonfly:p=2,a=4,h=2,g=9,arrangement=circulant",
          "dragonfly:p=2,a=4,h=2,g=8,arrangement=circulant",
          "dragonfly:p=1,a=3,h=2,g=3",
          "dragonfly:p=2,a=5,h=3,g=4,arrangement=absolute",
          "slingshot-1k"};
}

inline TopologyPtr MustBuild(const std::string& spec) {
  absl::StatusOr<TopologyPtr> t = TopologyBuilder::FromText(spec);
  EXPECT_TRUE(t.ok()) << spec << ": " << t.status();
  return t.ok() ? *std::move(t) : nullptr;
}

// True when `path` is a walk from `from` to `to` over existing links that
// passes through no endpoint except at its ends in an indirect network.
inline ::testing::AssertionResult IsWalk(const Topology& t, const Path& path, NodeId from,
                                         NodeId to) {
  NodeId at = from;
  for (std::size_t i = 0; i < path.HopCount(); ++i) {
    LinkId link = path[i];
    if (!t.LinkExists(link)) {
      return ::testing::AssertionFailure() << "link " << link << " does not exist";
    }
    LinkEnds ends = t.EndsOf(link);
    if (ends.from != at) {
      return ::testing::AssertionFailure()
             << "hop " << i << " leaves node " << ends.from << ", not " << at;
    }
    at = ends.to;
    if (!t.IsDirect() && at < t.EndpointCount() && i + 1 < path.HopCount()) {
      return ::testing::AssertionFailure() << "passes through endpoint " << at;
    }
  }
  if (at != to) {
    return ::testing::AssertionFailure() << "ends at " << at << ", not " << to;
  }
  return ::testing::AssertionSuccess();
}

// Router-to-router hops of an endpoint-to-endpoint path.
inline std::size_t RouterHops(const Topology& t, const Path& path) {
  if (path.Empty() || t.IsDirect()) return path.HopCount();
  return path.HopCount() - 2;  // Minus the two host links.
}

}  // namespace trestle::fabric

#endif  // TRESTLE_TESTS_FABRIC_PATH_CHECK_H_
