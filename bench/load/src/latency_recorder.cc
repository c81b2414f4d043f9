#include "latency_recorder.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace trestle::bench {
namespace {

// 2^kSubBits buckets per power of two; values below 2^(kSubBits + 1) ns get a
// bucket each.
constexpr int kSubBits = 7;
constexpr std::uint64_t kSubCount = std::uint64_t{1} << kSubBits;
// Values are clamped to 2^kMaxBits ns (about 18 minutes).
constexpr int kMaxBits = 40;
constexpr std::size_t kBucketCount = (kMaxBits - kSubBits + 1) * kSubCount;

}  // namespace

LatencyRecorder::LatencyRecorder() : buckets_(kBucketCount, 0) {}

std::size_t LatencyRecorder::BucketOf(std::uint64_t ns) {
  ns = std::min(ns, (std::uint64_t{1} << kMaxBits) - 1);
  if (ns < 2 * kSubCount) return static_cast<std::size_t>(ns);
  const int msb = 63 - std::countl_zero(ns);
  const int shift = msb - kSubBits;
  return static_cast<std::size_t>((static_cast<std::uint64_t>(shift) + 1) * kSubCount +
                                  ((ns >> shift) - kSubCount));
}

std::uint64_t LatencyRecorder::ValueOf(std::size_t index) {
  if (index < 2 * kSubCount) return index;
  const std::uint64_t shift = index / kSubCount - 1;
  const std::uint64_t low = (index % kSubCount + kSubCount) << shift;
  return low + ((std::uint64_t{1} << shift) >> 1);
}

void LatencyRecorder::Record(std::uint64_t ns) {
  ++buckets_[BucketOf(ns)];
  ++count_;
  sum_ns_ += static_cast<long double>(ns);
  max_ns_ = std::max(max_ns_, ns);
}

void LatencyRecorder::Clear() {
  std::fill(buckets_.begin(), buckets_.end(), 0);
  count_ = 0;
  sum_ns_ = 0;
  max_ns_ = 0;
}

std::uint64_t LatencyRecorder::ValueAtQuantile(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  // Nearest rank: the smallest value with at least ceil(q * count) samples
  // at or below it.
  const auto rank = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_))));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < buckets_.size(); ++i) {
    seen += buckets_[i];
    if (seen >= rank) return std::min(ValueOf(i), max_ns_);
  }
  return max_ns_;
}

LatencySummary LatencyRecorder::Summary() const {
  LatencySummary s;
  s.count = count_;
  if (count_ == 0) return s;
  s.mean_us = static_cast<double>(sum_ns_ / static_cast<long double>(count_)) / 1e3;
  s.p50_us = static_cast<double>(ValueAtQuantile(0.50)) / 1e3;
  s.p99_us = static_cast<double>(ValueAtQuantile(0.99)) / 1e3;
  s.p999_us = static_cast<double>(ValueAtQuantile(0.999)) / 1e3;
  s.max_us = static_cast<double>(max_ns_) / 1e3;
  return s;
}

}  // namespace trestle::bench
