// The two jobs of a congestion experiment (`trestle-sim congestion`),
// after GPCNeT: a victim whose performance is measured, and an aggressor that
// loads the network beside it.
//
// Victims (SIZE with a unit, e.g. 8B, 128KiB), run as bulk-synchronous steps
// (a step ends when its last message arrives) among the victim ranks:
//   allreduce:SIZE     latency: dissemination all-reduce, ceil(log2 V) steps,
//                      rank r sends SIZE to r + 2^s; one sample per
//                      iteration (its time).
//   ring-latency:SIZE  latency: rank r sends SIZE to r + 1; one sample per
//                      message (its latency).
//   ring-bw:SIZE       bandwidth: the same pattern; one sample per message
//                      (SIZE / its latency).
//   alltoall:SIZE      bandwidth: V - 1 steps, rank r sends SIZE to r + s;
//                      one sample per step (SIZE / the step's time).
// Aggressors ([:SIZE], default 256KiB), each aggressor rank keeping one
// message in flight and sending the next as soon as it arrives:
//   incast             every aggressor rank sends to aggressor rank 0.
//   alltoall           rank r sends to r + 1, r + 2, ... (round robin).
#ifndef TRESTLE_FABRIC_CONGESTION_WORKLOAD_H_
#define TRESTLE_FABRIC_CONGESTION_WORKLOAD_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace trestle::fabric {

struct VictimSpec {
  enum class Kind { kAllReduce, kRingLatency, kRingBandwidth, kAllToAll };
  Kind kind = Kind::kAllReduce;
  std::uint64_t bytes = 8;

  // "allreduce:8B" etc.; the size is required. InvalidArgument naming the
  // text and listing the kinds.
  static absl::StatusOr<VictimSpec> Parse(std::string_view text);
  // The text form, e.g. "ring-bw:128KiB".
  std::string Name() const;
  // Latency victims report congested ÷ alone times; bandwidth victims
  // alone ÷ congested bandwidths.
  bool MeasuresLatency() const { return kind == Kind::kAllReduce || kind == Kind::kRingLatency; }
};

struct AggressorSpec {
  enum class Kind { kIncast, kAllToAll };
  Kind kind = Kind::kIncast;
  std::uint64_t bytes = 256 * 1024;

  // "incast", "alltoall:1MiB"; InvalidArgument naming the text.
  static absl::StatusOr<AggressorSpec> Parse(std::string_view text);
  // "incast", or "incast:1MiB" when the size is not the default.
  std::string Name() const;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_CONGESTION_WORKLOAD_H_
