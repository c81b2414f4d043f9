// MessageTimeModel: the one place that turns a path and a size into a time.
// Every caller (sweeps, the live adapter, benchmarks) goes through it.
//
// Congestion-unaware, cut-through:
//
//   time = endpoint_overhead
//        + sum over links of link latency
//        + (links - 1) × switch_latency          (nodes passed through)
//        + size / min over links of bandwidth     (the bottleneck)
//
// A message to itself (empty path) takes endpoint_overhead. Times are in ns,
// sizes in bytes, bandwidths in bytes/ns.
//
// PathProfile separates the size-independent part: a sweep prices many sizes
// from one route with it, and the contention model (FlowNetworkModel,
// flow_network_model.h) takes it as a flow's fixed latency and replaces the
// bottleneck term with the rates MaxMinFairSolver grants the flow.
//
// Thread safety: Profile() and the TimeNs overloads taking a path are const
// and thread-safe; TimeNs(src, dst, ...) reuses an internal scratch path and
// mutates the Routing, so use one model per thread for it.
#ifndef TRESTLE_FABRIC_MESSAGE_TIME_MODEL_H_
#define TRESTLE_FABRIC_MESSAGE_TIME_MODEL_H_

#include <array>
#include <cstdint>

#include "trestle/fabric/duration.h"
#include "trestle/fabric/path.h"
#include "trestle/fabric/routing.h"
#include "trestle/fabric/topology.h"

namespace trestle::fabric {

// The size-independent summary of a path.
struct PathProfile {
  double fixed_ns = 0;                // Overhead + latencies + switch latencies.
  double bottleneck_bytes_per_ns = 0; // 0 for an empty path (no bandwidth term).
  std::uint32_t hops = 0;
};

class MessageTimeModel {
 public:
  struct Options {
    // Per-message software cost at the endpoints (send + receive), paid once.
    Duration endpoint_overhead;
  };

  // `topology` must outlive the model.
  MessageTimeModel(const Topology& topology, Options options);
  explicit MessageTimeModel(const Topology& topology) : MessageTimeModel(topology, Options()) {}

  PathProfile Profile(const Path& path) const;

  static double TimeNs(const PathProfile& profile, std::uint64_t bytes) {
    if (profile.bottleneck_bytes_per_ns <= 0) return profile.fixed_ns;
    return profile.fixed_ns + static_cast<double>(bytes) / profile.bottleneck_bytes_per_ns;
  }
  double TimeNs(const Path& path, std::uint64_t bytes) const {
    return TimeNs(Profile(path), bytes);
  }
  // Routes src -> dst (endpoint ids) for class `tclass` with `routing` and
  // prices the path.
  double TimeNs(NodeId src, NodeId dst, std::uint64_t bytes, TrafficClass tclass,
                Routing& routing);

  const Topology& topology() const { return topology_; }
  const Options& options() const { return options_; }

 private:
  const Topology& topology_;
  Options options_;
  std::array<LinkProperties, kLinkKindCount> by_kind_;
  Path scratch_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_MESSAGE_TIME_MODEL_H_
