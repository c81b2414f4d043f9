#include "trestle/fabric/standing_queues.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "trestle/fabric/routing.h"

namespace trestle::fabric {
namespace {

// Relative slack when comparing a rate with a share: the solver's rates are
// exact only to its tolerance.
constexpr double kSlack = 1e-6;

// A unit-mean exponential draw, from a 64-bit key (splitmix64, then the
// inverse of the exponential distribution at a uniform in (0, 1)).
double ExponentialDraw(std::uint64_t key) {
  std::uint64_t x = key;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  x ^= x >> 31;
  const double uniform = (static_cast<double>(x >> 11) + 0.5) / 9007199254740992.0;  // 2^53
  return -std::log(uniform);
}

}  // namespace

StandingQueues::StandingQueues(const MaxMinFairSolver& solver, const Topology& topology,
                               const std::vector<std::uint64_t>& start_ns, Options options)
    : solver_(solver),
      topology_(topology),
      start_ns_(start_ns),
      options_(std::move(options)),
      queues_(options_.classes.size()) {}

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
  const bool host = topology_.KindOf(link) == LinkKind::kHost;
  for (const MaxMinFairSolver::Crossing& c : solver_.FlowsOn(link)) {
    ClassQueue& q = queues_[solver_.ClassOf(c.flow)];
    const double rate = solver_.Rate(c.flow);
    q.delivered += rate;
    if (start_ns_[c.flow] >= before_ns) continue;  // its queue is not built yet
    if (c.hop == 0 && host) continue;               // the source's NIC: not a switch port
    const double here = solver_.Occupancy(c.flow, c.hop);
    q.use += here;
    ++q.flows;
    if (options_.congestion_control) {
      if (!q.saturated && Bottleneck(c.flow) == c.hop) q.saturated = true;
    } else {
      const double arriving = c.hop == 0 ? here : solver_.Occupancy(c.flow, c.hop - 1);
      if (arriving > here * (1 + kSlack) || here > rate * (1 + kSlack)) q.backed = true;
    }
  }
  // What each class can have here: the link less the others' use, and at
  // least its share by weight (among the classes present) or minimum.
  const double capacity = solver_.CapacityOf(link);
  double use = 0;
  double weights = 0;
  for (std::size_t k = 0; k < queues_.size(); ++k) {
    use += queues_[k].use;
    if (queues_[k].use > 0) weights += options_.classes[k].weight;
  }
  for (std::size_t k = 0; k < queues_.size(); ++k) {
    ClassQueue& q = queues_[k];
    if (q.flows == 0) continue;
    const ClassShare& share = options_.classes[k];
    const double entitled =
        weights > 0 ? std::max(share.min_fraction, share.weight / weights) : 1.0;
    const double available = std::max(capacity - (use - q.use), capacity * entitled);
    const bool full = q.backed || q.saturated;
    q.bytes = QueueBytes(q, available);
    q.drain = full ? q.delivered : available;
  }
}

double StandingQueues::QueueBytes(const ClassQueue& q, double available) const {
  const QueueModelOptions& sizes = options_.sizes;
  const auto buffer = static_cast<double>(sizes.buffer_bytes);
  if (q.backed) return buffer;
  const double held = options_.congestion_control
                          ? static_cast<double>(sizes.cc_queue_bytes) * q.flows
                          : buffer;
  if (q.saturated) return held;
  if (q.flows < 2 || sizes.burstiness == 0) return 0;
  const double load = q.use / available;
  if (load >= 1 - kSlack) return held;
  // Kingman's G/D/1 waiting room (the packet in transmission apart).
  const double kingman = sizes.burstiness * (1 - 1.0 / q.flows) * load * load / (1 - load) *
                         static_cast<double>(sizes.packet_bytes) / 2;
  return std::min(held, kingman);
}

double StandingQueues::QueueDelayNs(LinkId link) const {
  if (solver_.FlowsOn(link).empty()) return 0;
  Measure(link, kEveryFlow);
  double bytes = 0;
  for (const ClassQueue& q : queues_) bytes += q.bytes;
  return bytes / solver_.CapacityOf(link);
}

double StandingQueues::PathDelayNs(const Path& path, std::uint32_t class_index,
                                   std::uint64_t now_ns, const ModelMessage& message) const {
  const auto packet = static_cast<double>(options_.sizes.packet_bytes);
  const std::uint64_t key =
      FlowHash(message.src, message.dst,
               options_.seed ^ (message.t_send_ns * 0x9e3779b97f4a7c15ull) ^
                   (message.size_bytes * 0xc2b2ae3d27d4eb4full) ^
                   (static_cast<std::uint64_t>(message.tclass) << 56));
  double delay = 0;
  for (std::size_t hop = 0; hop < path.HopCount(); ++hop) {
    const LinkId link = path[hop];
    if (solver_.FlowsOn(link).empty()) continue;
    Measure(link, now_ns);
    const ClassQueue& q = queues_[class_index];
    if (q.bytes > 0 && q.drain > 0) {
      // A full buffer is full; other queues vary about their size.
      const double found = q.backed ? 1 : ExponentialDraw(key + (hop + 1) * 0x632be59bd9b4e019ull);
      delay += q.bytes / q.drain * found;
    }
    // The rest of the packet in transmission (switches do not preempt): the
    // port is busy a fraction (its use ÷ capacity) of the time, with half a
    // packet left on average.
    double use = 0;
    for (const ClassQueue& c : queues_) use += c.use;
    if (use > 0) {
      const double capacity = solver_.CapacityOf(link);
      delay += std::min(1.0, use / capacity) * packet / 2 / capacity;
    }
  }
  return delay;
}

}  // namespace trestle::fabric
