// MaxMinFairSolver: the bandwidth each flow gets when flows share links, for
// the flow-level network model (FlowNetworkModel). No time, no bytes: flows
// come and go, and the solver keeps every flow's rate at the fair allocation.
//
// Resources are links (dense ids below resource_count, each with a capacity
// in bytes/ns); a flow crosses a sequence of them and belongs to a traffic
// class (a dense index into Options::classes).
//
// Sharing on one link is hierarchical:
//   - Between the classes present, class c first gets its guarantee
//     min(demand_c, min_fraction_c × capacity); what is left goes to the
//     classes that want more, in proportion to their weights, and a class that
//     wants less than its weighted share leaves the rest to the others
//     (work-conserving: a class alone gets the whole link).
//   - Inside a class, the class's allocation is shared max-min fairly.
// A flow's demand on a link is what its other links let it take:
//   kEndToEnd  (endpoint congestion control on) the lowest share its other
//              links give it. Every flow has one rate along its whole path,
//              and rates are the max-min fair (with classes: hierarchical)
//              allocation.
//   kUpstream  (congestion control off) the share it got on the link before
//              (its demand cap on its first link). A flow keeps, on every
//              link, the rate it arrives with, whatever happens further
//              down: its occupancy there. Its delivered rate is its
//              occupancy on its last link.
// With one class and kEndToEnd this is plain max-min fairness; a flow alone
// gets exactly the lowest capacity on its path.
//
// Incremental: AddFlow and RemoveFlow only record the change; Solve()
// re-evaluates the links the changes touch, and goes on to a link only when a
// flow crossing it got a new rate (kEndToEnd: any link of that flow;
// kUpstream: its next link). Each link computes its shares from the demands
// of its own flows (a local water-filling), so an event costs in proportion to
// the flows whose rate changes and the links they cross, not to the size of
// the network or the number of flows elsewhere. With kEndToEnd, queued links
// are evaluated lowest level first (as progressive filling settles
// bottlenecks: most links once per Solve), and a rate change does not queue a
// link that limits no flow and still fits its flows (one class only: there,
// evaluating it could change nothing). With one class and kEndToEnd, a link
// also keeps its candidates (the few flows it may limit: a rate within the
// tolerance margin of its level) and an upper bound on the rates of the
// others, and its evaluation reads only the candidates, the others being
// summed in its load, unless the bound says one of them may have reached
// the level (then, and after a flow comes or goes, all its flows; the same
// shares either way, to rounding). This is the distributed
// max-min fixed point (Charny's consistent marking, as in ATM explicit-rate
// control): it converges to the fair allocation. Rates count as unchanged
// within a relative `tolerance`, which bounds both the work of an event and
// the error of a rate.
//
// Costs: memory 4 bytes per resource id, about 200 bytes per link with flows
// and 100 bytes plus 20 per hop per flow; AddFlow/RemoveFlow O(path); Solve
// O(Σ over re-evaluated links of flows × path length, plus O(log queue) per
// queued link), where with one class and kEndToEnd a link's flows are most
// often only its candidates. Nothing is allocated per event once the pools
// have grown.
//
// Threading: one thread. C++17-clean.
#ifndef TRESTLE_FABRIC_MAX_MIN_FAIR_SOLVER_H_
#define TRESTLE_FABRIC_MAX_MIN_FAIR_SOLVER_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "trestle/fabric/level_queue.h"

namespace trestle::fabric {

// How a traffic class shares a link with the others.
struct ClassShare {
  double weight = 1;        // > 0
  double min_fraction = 0;  // guaranteed fraction of each link, in [0, 1]
};

class MaxMinFairSolver {
 public:
  using ResourceId = std::uint32_t;
  using FlowHandle = std::uint32_t;
  static constexpr double kUnlimited = std::numeric_limits<double>::infinity();

  enum class Sharing { kEndToEnd, kUpstream };

  struct Options {
    Sharing sharing = Sharing::kEndToEnd;
    // Index = class index. Must not be empty; the min_fractions must sum to
    // at most 1 (Validate).
    std::vector<ClassShare> classes = {ClassShare{}};
    // Relative change below which a rate counts as unchanged.
    double tolerance = 1e-9;
  };

  // Capacity of a resource in bytes/ns (> 0), asked once per resource when a
  // flow first crosses it.
  using CapacityFn = std::function<double(ResourceId)>;

  // InvalidArgument naming the class: a weight <= 0, a min_fraction outside
  // [0, 1], min_fractions summing above 1, no class.
  static absl::Status Validate(const Options& options);

  // `options` must be valid.
  MaxMinFairSolver(ResourceId resource_count, CapacityFn capacity, Options options);

  // Registers a flow over `path` (resource ids, in order; not empty, each
  // below resource_count) in class `class_index` (< classes.size()), that
  // never takes more than `demand_cap` bytes/ns. Its rate is 0 until Solve().
  // Handles are reused after RemoveFlow.
  FlowHandle AddFlow(const std::vector<ResourceId>& path, std::uint32_t class_index,
                     double demand_cap = kUnlimited);
  // Forgets a flow; the others' rates change at the next Solve().
  void RemoveFlow(FlowHandle flow);
  // Brings every rate up to date with the changes since the last Solve.
  // Afterwards Changed() lists the flows (still registered) whose rate
  // changed, each once.
  void Solve();
  const std::vector<FlowHandle>& Changed() const { return changed_; }

  // The flow's delivered rate in bytes/ns.
  double Rate(FlowHandle flow) const { return flows_[flow].rate; }
  // What the flow occupies on the `hop`-th link of its path: its rate with
  // kEndToEnd, its occupancy there with kUpstream.
  double Occupancy(FlowHandle flow, std::size_t hop) const;
  const std::vector<ResourceId>& PathOf(FlowHandle flow) const { return paths_[flow]; }
  std::uint32_t ClassOf(FlowHandle flow) const { return flows_[flow].class_index; }
  std::size_t FlowCount() const { return active_flows_; }

  // One flow crossing a link: which flow, and at which hop of its path.
  struct Crossing {
    FlowHandle flow;
    std::uint32_t hop;
  };
  // The flows crossing `link` (empty when none), in no particular order.
  const std::vector<Crossing>& FlowsOn(ResourceId link) const;
  // The share class `class_index` gives each of its flows limited at `link`
  // (kUnlimited when the class does not fill its allocation there, or has no
  // flow there).
  double LevelOf(ResourceId link, std::uint32_t class_index) const;
  // Capacity of a link that has or had flows (0 for one never crossed).
  double CapacityOf(ResourceId link) const;

  // Work done by the last Solve (links re-evaluated), and in total.
  std::uint64_t last_evaluations() const { return last_evaluations_; }
  std::uint64_t total_evaluations() const { return total_evaluations_; }
  // Solves that settled only with the class allocations frozen (Solve): each
  // class shares its allocation max-min, but the split between classes may
  // be off the hierarchical one (by about 1e-4 in the tests). Never with one
  // class.
  bool last_solve_approximate() const { return last_approximate_; }
  std::uint64_t approximate_solves() const { return approximate_solves_; }

  // Debug checks, O(all flows × path). CheckCapacity: on no link does the
  // occupancy of its flows exceed its capacity (relative slack 1e-6).
  // CheckFixedPoint: re-evaluating any link would change no share and no
  // rate beyond the tolerance (×1000), i.e. the rates are the fair
  // allocation; on links an approximate solve left behind (and on every link
  // with `given_allocations`), keeping each class's current part of the link,
  // which is what an approximate solve guarantees. The error names the link
  // and the numbers.
  absl::Status CheckCapacity() const;
  absl::Status CheckFixedPoint(bool given_allocations = false) const;

 private:
  // A flow's state read on the hot paths, in one cache line: with a path of
  // at most kInlineHops links, their indices too (a link evaluation reads a
  // flow's rate and, for a flow it may limit, its other links' levels).
  static constexpr std::size_t kInlineHops = 9;
  struct alignas(64) Flow {
    double rate = 0;
    double demand_cap = kUnlimited;
    std::uint32_t class_index = 0;
    // Bit h: a candidate of its h-th link (Candidates; hops below 32).
    std::uint32_t candidate_at = 0;
    std::uint16_t hop_count = 0;
    bool active = false;
    bool changed = false;
    std::uint32_t links[kInlineHops];
  };
  // A link's state read on the hot paths (32 bytes); its crossings are in
  // crossings_, its per-class shares in level_ and allocation_, the rest in
  // link_info_.
  struct Link {
    double load = 0;  // kEndToEnd: Σ rates of its flows (StillFits)
    double capacity = 0;
    double lowest_level = kUnlimited;  // the lowest of its classes' levels
    // One class, kEndToEnd: at least the rate of each of its flows that is
    // not one of its Candidates.
    double others_max = 0;
  };
  struct LinkInfo {
    ResourceId id = 0;
    bool queued = false;
    bool approximate = false;  // last evaluated with frozen class allocations
  };
  // One class, kEndToEnd: the flows a link may limit (a rate within the
  // tolerance margin of its level, or 0), by flow and hop, as of its last
  // evaluation; every other flow of the link takes its rate as its demand
  // there while that rate stays below the link's level by the margin
  // (Link::others_max tells). An evaluation then needs only these
  // (EvaluateCandidates). kAll: not known, evaluate every flow.
  static constexpr std::uint16_t kMaxCandidates = 10;
  static constexpr std::uint16_t kAll = 0xffff;
  struct alignas(64) Candidates {
    std::uint16_t count = kAll;
    std::uint16_t hop[kMaxCandidates];
    FlowHandle flow[kMaxCandidates];
  };
  // One class on a link being evaluated.
  struct ClassGroup {
    double demand = 0;  // Σ demands of its flows there (kUnlimited if any is)
    std::uint32_t count = 0;
    double allocation = 0;
    // The demands below the class's current level there (the hint), and the
    // lowest of the others: if the new level keeps them below and the
    // others above, it follows from them without a water-fill.
    std::uint32_t below_count = 0;
    double below_sum = 0;
    double below_max = -kUnlimited;
    double above_min = kUnlimited;
    void Add(double flow_demand, double hint) {
      demand += flow_demand;  // stays kUnlimited once it is
      ++count;
      if (flow_demand < hint) {
        ++below_count;
        below_sum += flow_demand;
        below_max = flow_demand > below_max ? flow_demand : below_max;
      } else {
        above_min = flow_demand < above_min ? flow_demand : above_min;
      }
    }
  };
  // One flow's entry in a link evaluation.
  struct Demand {
    std::uint32_t class_index;
    double demand;
    std::uint32_t crossing;  // index into the link's crossings
  };
  // A link's shares, one per class (kUnlimited and 0 for a class not there).
  struct Shares {
    std::vector<double> level;
    std::vector<double> allocation;
  };
  // link_index_ of a resource that no flow crosses.
  static constexpr std::uint32_t kNone = 0xffffffffu;
  const Link* FindLink(ResourceId id) const;
  std::uint32_t LinkFor(ResourceId id);
  double Level(std::uint32_t link, std::uint32_t class_index) const {
    return level_[static_cast<std::size_t>(link) * class_count_ + class_index];
  }
  std::size_t HopBase(FlowHandle flow) const { return static_cast<std::size_t>(flow) * stride_; }
  // The flow's path as link indices (into links_), hop_count of them.
  const std::uint32_t* LinksOf(FlowHandle flow) const {
    const Flow& f = flows_[flow];
    return f.hop_count <= kInlineHops ? f.links : &hop_link_[HopBase(flow)];
  }
  // Lays the hop arrays out again with room for `stride` hops per flow (a
  // path longer than any before; at most once per new path length).
  void Restride(std::size_t stride);
  // The demand of the flow at `crossing` (see the file comment); `here` is
  // the link's current share for the flow's class.
  double DemandAt(const Crossing& crossing, double here) const;
  // kEndToEnd: the lowest share the flow's other links give it (and its cap).
  double LowestElsewhere(const Crossing& crossing) const {
    const Flow& flow = flows_[crossing.flow];
    double demand = flow.demand_cap;
    const std::uint32_t* links = LinksOf(crossing.flow);
    for (std::size_t hop = 0; hop < flow.hop_count; ++hop) {
      if (hop != crossing.hop) demand = std::min(demand, Level(links[hop], flow.class_index));
    }
    return demand;
  }
  // Shares one link between classes and inside each: the allocations and
  // levels from the demands (solver/class_share_water_fill.h).
  class ClassShareWaterFill;
  // New shares of link `link` from its flows' current demands, into *shares;
  // *scratch holds the demands, in crossing order. Class allocations move
  // `damping` of the way from their current value (1: all the way).
  void ComputeShares(std::uint32_t link, double damping, std::vector<Demand>* scratch,
                     Shares* shares) const;
  void Evaluate(std::uint32_t link);
  // Evaluate when there is one class and kEndToEnd (the common case): from
  // the link's candidates when they tell enough, else from all its flows.
  void EvaluateOneClass(std::uint32_t link);
  // False (and nothing changed) when the candidates do not tell the level.
  bool EvaluateCandidates(std::uint32_t link);
  // As ComputeShares and Evaluate for one class, then the candidates anew.
  void EvaluateAll(std::uint32_t link);
  double Near() const { return near_; }
  // Would the flow at this rate take the slow path of DemandAt on a link at
  // `level`, i.e. can the link limit it.
  bool IsCandidate(double rate, double level) const {
    return rate == 0 || rate * Near() >= level;
  }
  static void MarkCandidate(Flow& flow, std::uint32_t hop, bool candidate) {
    if (hop >= 32) return;
    flow.candidate_at = candidate ? flow.candidate_at | (1u << hop)
                                  : flow.candidate_at & ~(1u << hop);
  }
  // The link's level changed: level_, lowest_level.
  void SetLevel(std::uint32_t link, double level);
  // kEndToEnd: gives the flow at `crossing` its new rate, and queues the
  // other links of its path that this can change.
  void SetRate(const Crossing& crossing, double rate);
  // kEndToEnd: the link's load, from its flows' rates.
  void SumLoad(std::uint32_t link);
  void Enqueue(std::uint32_t link);
  // kEndToEnd, one class: true when evaluating the link could change nothing
  // (no flow limited there, and their rates still fit its capacity), so a
  // rate change elsewhere need not queue it.
  bool StillFits(std::uint32_t link) const;
  void MarkChanged(FlowHandle flow);
  bool Same(double a, double b) const;

  Options options_;
  std::uint32_t class_count_;
  CapacityFn capacity_;
  std::vector<std::uint32_t> link_index_;  // per resource id: index into links_, or kNone
  std::vector<Link> links_;
  std::vector<LinkInfo> link_info_;               // by link index
  std::vector<std::vector<Crossing>> crossings_;  // by link index
  std::vector<Candidates> candidates_;            // by link index (one class, kEndToEnd)
  std::vector<double> level_;       // [link index × class_count_ + class]
  std::vector<double> allocation_;  // the same layout: each class's part of the link
  std::vector<std::uint32_t> free_links_;
  std::vector<Flow> flows_;
  std::vector<std::vector<ResourceId>> paths_;  // by flow handle (PathOf)
  // Per flow and hop, at [handle × stride_ + hop]: the link's index into
  // links_ (stable while the flow crosses it; Flow::links holds a copy for
  // short paths), this flow's slot in that link's crossings, and
  // (kUpstream only) its occupancy there.
  std::size_t stride_ = 0;
  std::vector<std::uint32_t> hop_link_;
  std::vector<std::uint32_t> hop_slot_;
  std::vector<double> hop_occupancy_;
  std::vector<FlowHandle> free_flows_;
  std::size_t active_flows_ = 0;
  // Links to evaluate (Enqueue): kEndToEnd by their lowest level when
  // queued, kUpstream a FIFO from fifo_head_.
  LevelQueue by_level_;
  std::vector<std::uint32_t> fifo_;
  std::size_t fifo_head_ = 0;
  std::vector<FlowHandle> changed_;
  std::vector<Demand> scratch_;
  Shares new_shares_;
  mutable std::vector<ClassGroup> groups_;                          // ComputeShares scratch
  mutable std::vector<std::pair<double, std::uint32_t>> wanting_;  // ClassShareWaterFill scratch
  std::uint64_t last_evaluations_ = 0;
  std::uint64_t total_evaluations_ = 0;
  std::uint64_t approximate_solves_ = 0;
  bool last_approximate_ = false;
  double damping_ = 1;  // how far a class allocation moves per evaluation (Solve)
  double near_;         // 1 + 4 × tolerance: DemandAt's margin
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_MAX_MIN_FAIR_SOLVER_H_
