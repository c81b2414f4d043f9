// LatencyHistogram: counts of durations in fixed buckets on a 1-2-5 scale
// from 1 µs to 10 s (plus one bucket above), with sum and maximum. Recording
// is a short search and an increment: cheap enough for every message.
// Percentiles interpolate within a bucket, so they are estimates whose error
// is bounded by the bucket's width.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "admin.pb.h"

namespace trestle::daemon {

class LatencyHistogram {
 public:
  static constexpr std::array<std::uint64_t, 22> kBoundsNs = {
      1'000,       2'000,       5'000,         10'000,        20'000,        50'000,
      100'000,     200'000,     500'000,       1'000'000,     2'000'000,     5'000'000,
      10'000'000,  20'000'000,  50'000'000,    100'000'000,   200'000'000,   500'000'000,
      1'000'000'000, 2'000'000'000, 5'000'000'000, 10'000'000'000};

  void Record(std::uint64_t ns);
  std::uint64_t count() const { return count_; }
  std::uint64_t sum_ns() const { return sum_ns_; }
  // q in [0, 1]; 0 when empty.
  double PercentileNs(double q) const;
  void CopyTo(const std::string& stage, admin::Histogram* out) const;

 private:
  std::array<std::uint64_t, kBoundsNs.size() + 1> counts_{};
  std::uint64_t count_ = 0;
  std::uint64_t sum_ns_ = 0;
  std::uint64_t max_ns_ = 0;
};

}  // namespace trestle::daemon
