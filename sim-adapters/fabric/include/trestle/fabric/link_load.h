// LinkLoad: what adaptive routing knows about current congestion, as the
// expected queueing delay in front of each directed link.
//
// The congestion-unaware model has no load (its routing is given none); the
// flow model's StandingQueues (standing_queues.h) is the load of a contention
// run, kept as flows start and finish; LinkLoadTable holds delays set by hand.
// Lookups must be O(1): adaptive routing calls QueueDelayNs for every link of
// every candidate path.
#ifndef TRESTLE_FABRIC_LINK_LOAD_H_
#define TRESTLE_FABRIC_LINK_LOAD_H_

#include <vector>

#include "trestle/fabric/link.h"

namespace trestle::fabric {

class LinkLoad {
 public:
  virtual ~LinkLoad() = default;
  // Expected wait, in ns, before a new packet starts on `link`; >= 0.
  virtual double QueueDelayNs(LinkId link) const = 0;
};

// Per-link delays in a flat array indexed by link id; unset links are 0.
// Memory: 8 bytes per link id.
class LinkLoadTable final : public LinkLoad {
 public:
  explicit LinkLoadTable(LinkId link_id_count) : delay_ns_(link_id_count, 0.0) {}
  double QueueDelayNs(LinkId link) const override { return delay_ns_[link]; }
  void Set(LinkId link, double delay_ns) { delay_ns_[link] = delay_ns; }

 private:
  std::vector<double> delay_ns_;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_LINK_LOAD_H_
