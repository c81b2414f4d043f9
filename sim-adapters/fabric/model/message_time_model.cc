#include "trestle/fabric/message_time_model.h"

#include <algorithm>
#include <limits>

namespace trestle::fabric {

MessageTimeModel::MessageTimeModel(const Topology& topology, Options options)
    : topology_(topology), options_(options) {
  for (int k = 0; k < kLinkKindCount; ++k) {
    by_kind_[k] = topology.params().ForKind(static_cast<LinkKind>(k));
  }
}

PathProfile MessageTimeModel::Profile(const Path& path) const {
  PathProfile profile;
  profile.fixed_ns = options_.endpoint_overhead.ns();
  profile.hops = static_cast<std::uint32_t>(path.HopCount());
  if (path.Empty()) return profile;
  double bottleneck = std::numeric_limits<double>::infinity();
  for (LinkId link : path.Links()) {
    const LinkProperties& p = by_kind_[static_cast<int>(topology_.KindOf(link))];
    profile.fixed_ns += p.latency.ns();
    bottleneck = std::min(bottleneck, p.bandwidth.bytes_per_ns());
  }
  profile.fixed_ns += (path.HopCount() - 1) * topology_.params().switch_latency.ns();
  profile.bottleneck_bytes_per_ns = bottleneck;
  return profile;
}

double MessageTimeModel::TimeNs(NodeId src, NodeId dst, std::uint64_t bytes, TrafficClass tclass,
                                Routing& routing) {
  routing.Route(src, dst, tclass, &scratch_);
  return TimeNs(scratch_, bytes);
}

}  // namespace trestle::fabric
