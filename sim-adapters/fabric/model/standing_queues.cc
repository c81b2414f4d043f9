#include "trestle/fabric/standing_queues.h"

#include <algorithm>
#include <cmath>

namespace trestle::fabric {
namespace {

// Relative slack when comparing a rate with a share: the solver's rates are
// exact only to its tolerance.
constexpr double kSlack = 1e-6;

}  // namespace

StandingQueues::StandingQueues(const MaxMinFairSolver& solver, const Topology& topology,
                               const std::vector<std::uint64_t>& start_ns, Options options)
    : solver_(solver),
      topology_(topology),
      start_ns_(start_ns),
      options_(options),
      queues_(options.class_count),
      count_(options.class_count),
      backed_(options.class_count) {}

std::size_t StandingQueues::Bottleneck(MaxMinFairSolver::FlowHandle flow) const {
  const std::vector<MaxMinFairSolver::ResourceId>& path = solver_.PathOf(flow);
  const std::uint32_t class_index = solver_.ClassOf(flow);
  const double rate = solver_.Rate(flow);
  for (std::size_t hop = 0; hop < path.size(); ++hop) {
    const double level = solver_.LevelOf(path[hop], class_index);
    if (std::isfinite(level) && rate >= level * (1 - kSlack)) return hop;
  }
  return path.size();
}

void StandingQueues::Measure(LinkId link, std::uint64_t before_ns) const {
  std::fill(queues_.begin(), queues_.end(), ClassQueue{});
  std::fill(count_.begin(), count_.end(), 0);
  std::fill(backed_.begin(), backed_.end(), 0);
  const bool host = topology_.KindOf(link) == LinkKind::kHost;
  for (const MaxMinFairSolver::Crossing& c : solver_.FlowsOn(link)) {
    const std::uint32_t k = solver_.ClassOf(c.flow);
    const double rate = solver_.Rate(c.flow);
    queues_[k].throughput += rate;
    if (start_ns_[c.flow] >= before_ns) continue;  // its queue is not built yet
    if (c.hop == 0 && host) continue;               // the source's NIC: not a switch port
    if (options_.congestion_control) {
      if (Bottleneck(c.flow) == c.hop) ++count_[k];
    } else {
      const double here = solver_.Occupancy(c.flow, c.hop);
      const double arriving = c.hop == 0 ? here : solver_.Occupancy(c.flow, c.hop - 1);
      if (arriving > here * (1 + kSlack) || here > rate * (1 + kSlack)) backed_[k] = 1;
    }
  }
  for (std::size_t k = 0; k < queues_.size(); ++k) {
    queues_[k].bytes = options_.congestion_control
                           ? std::min(options_.buffer_bytes, options_.cc_queue_bytes * count_[k])
                           : (backed_[k] ? options_.buffer_bytes : 0.0);
  }
}

double StandingQueues::QueueDelayNs(LinkId link) const {
  if (solver_.FlowsOn(link).empty()) return 0;
  Measure(link, kEveryFlow);
  double bytes = 0;
  for (const ClassQueue& q : queues_) bytes += q.bytes;
  return bytes / solver_.CapacityOf(link);
}

double StandingQueues::PathDelayNs(const Path& path, std::uint32_t class_index,
                                   std::uint64_t now_ns) const {
  double delay = 0;
  for (LinkId link : path.Links()) {
    if (solver_.FlowsOn(link).empty()) continue;
    Measure(link, now_ns);
    const ClassQueue& q = queues_[class_index];
    if (q.bytes > 0 && q.throughput > 0) delay += q.bytes / q.throughput;
  }
  return delay;
}

}  // namespace trestle::fabric
