// LatencyHistogram: the one histogram of durations (ns) with percentiles.
// Counts go in buckets with fixed upper bounds; the count, the sum and the
// maximum are exact. A percentile interpolates within the bucket its rank
// falls in, so its error is at most that bucket's width.
//
// Two scales:
//   kCoarse  1-2-5 steps from 1 µs to 10 s (22 bounds, and a bucket above
//            them): the daemon's stage latencies, as admin and /metrics
//            export them (bounds() and counts() are the exported buckets).
//   kFine    log-linear: every value below 256 ns has a bucket of its own,
//            above that 128 buckets per power of two (each narrower than
//            1/128 of the values in it) up to 2^40 ns (about 18 minutes):
//            the bench's p99.9 within 1 %.
//
// Record() is a binary search over the bounds and an increment; it never
// allocates (the buckets are allocated at construction). Not thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace trestle::platform {

// A histogram's figures in µs (count: how many durations).
struct LatencySummary {
  std::uint64_t count = 0;
  double mean_us = 0;
  double p50_us = 0;
  double p99_us = 0;
  double p999_us = 0;
  double max_us = 0;
};

class LatencyHistogram {
 public:
  enum class Scale { kCoarse, kFine };

  explicit LatencyHistogram(Scale scale = Scale::kCoarse);

  void Record(std::uint64_t ns);
  void Clear();

  std::uint64_t count() const { return count_; }
  std::uint64_t sum_ns() const { return sum_ns_; }
  std::uint64_t max_ns() const { return max_ns_; }
  double MeanNs() const;
  // q in [0, 1] (clamped); 0 when empty. Never above max_ns().
  double PercentileNs(double q) const;
  LatencySummary Summary() const;

  // counts()[i] durations were at most bounds()[i] (and above bounds()[i -
  // 1]); the last count is of those above every bound.
  std::span<const std::uint64_t> bounds() const { return bounds_; }
  std::span<const std::uint64_t> counts() const { return counts_; }

 private:
  std::span<const std::uint64_t> bounds_;  // static, ascending
  std::vector<std::uint64_t> counts_;      // bounds_.size() + 1
  std::uint64_t count_ = 0;
  std::uint64_t sum_ns_ = 0;
  std::uint64_t max_ns_ = 0;
};

}  // namespace trestle::platform
