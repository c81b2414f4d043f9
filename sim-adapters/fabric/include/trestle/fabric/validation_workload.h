// ValidationWorkload: a traffic pattern that `trestle-sim validate` runs
// through every backend (the congestion-unaware model, the flow model,
// ns-3), so that their message times can be compared message by message.
//
// A workload is a list of messages. A root message leaves at its t_send;
// a chained one leaves when the message it follows is delivered (a rank
// that keeps one message in flight). Every backend sees the same list.
// Kinds, on N endpoints, from a spec string:
//   permutation:SIZE     every endpoint sends SIZE to another, a seeded
//                        random derangement, all at time 0 (N samples).
//   incast:K:SIZE        seeded random groups of K + 1 endpoints (as many as
//                        fit, at least one; K is cut to N − 1): K senders
//                        each send SIZE to the group's receiver at time 0.
//   alltoall:SIZE        rank r sends SIZE to r + 1, r + 2, ..., r + N − 1
//                        (mod N), each when the one before is delivered:
//                        one message in flight per rank, N(N − 1) samples.
//   victim:SIZE[+AGG]    a latency victim beside an aggressor: 20 % of the
//                        endpoints (seeded random, at least 2; the rest run
//                        the aggressor) send SIZE to the next victim rank
//                        every kVictimPeriodNs from kVictimStartNs on,
//                        kVictimMessages times (the samples); AGG is
//                        alltoall:SIZE (each aggressor rank sends to its
//                        next ranks in turn, one message in flight) or
//                        incast:SIZE (every aggressor rank sends to
//                        aggressor rank 0, one in flight), from time 0, at
//                        most kAggressorMessages per rank. Without AGG the
//                        victim runs alone on the same endpoints. Backends
//                        stop once every sample is in, so the aggressor
//                        outlasts the victim.
// Samples are the messages a workload's statistics count: every message,
// or the victim's.
//
// Deterministic for a given seed. Threading: immutable once made.
// C++17-clean.
#ifndef TRESTLE_FABRIC_VALIDATION_WORKLOAD_H_
#define TRESTLE_FABRIC_VALIDATION_WORKLOAD_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "trestle/fabric/link.h"

namespace trestle::fabric {

struct WorkloadMessage {
  static constexpr std::uint32_t kRoot = 0xffffffffu;

  NodeId src = 0;
  NodeId dst = 0;
  std::uint64_t bytes = 0;
  // A root: when it leaves (ns). Chained: 0 (it leaves at its
  // predecessor's delivery).
  std::uint64_t t_send_ns = 0;
  // kRoot, or the index of the message whose delivery sends it (always an
  // earlier index).
  std::uint32_t after = kRoot;
  bool sample = true;
};

class ValidationWorkload {
 public:
  enum class Kind { kPermutation, kIncast, kAllToAll, kVictim };
  enum class Aggressor { kNone, kAllToAll, kIncast };

  static constexpr std::uint32_t kVictimMessages = 20;
  static constexpr std::uint64_t kVictimStartNs = 20'000;
  static constexpr std::uint64_t kVictimPeriodNs = 2'000;
  static constexpr std::uint32_t kAggressorMessages = 16;

  struct Spec {
    Kind kind = Kind::kPermutation;
    std::uint64_t bytes = 0;          // per message (victim: the victim's)
    std::uint32_t fan_in = 0;         // incast: senders per receiver
    Aggressor aggressor = Aggressor::kNone;
    std::uint64_t aggressor_bytes = 0;

    // InvalidArgument naming the text and what is expected.
    static absl::StatusOr<Spec> Parse(std::string_view text);
    // The spec as parsed ("incast:8:1MiB").
    std::string Name() const;
    // Whether its samples measure bandwidth-bound transfers (every kind but
    // the victim).
    bool BandwidthBound() const { return kind != Kind::kVictim; }
  };

  // InvalidArgument: fewer than 2 endpoints (a victim beside an aggressor:
  // fewer than 4).
  static absl::StatusOr<ValidationWorkload> Make(const Spec& spec, std::uint32_t endpoints,
                                                 std::uint64_t seed);

  const Spec& spec() const { return spec_; }
  const std::vector<WorkloadMessage>& messages() const { return messages_; }
  std::size_t sample_count() const { return samples_; }
  // Each ordered (src, dst) pair the messages use, once, in first use order
  // (the connections a backend may open before time 0).
  std::vector<std::pair<NodeId, NodeId>> Pairs() const;

 private:
  ValidationWorkload(Spec spec, std::vector<WorkloadMessage> messages);

  Spec spec_;
  std::vector<WorkloadMessage> messages_;
  std::size_t samples_ = 0;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_VALIDATION_WORKLOAD_H_
