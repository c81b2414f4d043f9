#include "trestle/platform/latency_histogram.h"

#include <algorithm>
#include <array>

namespace trestle::platform {
namespace {

constexpr std::array<std::uint64_t, 22> kCoarseBounds = {
    1'000,         2'000,         5'000,         10'000,         20'000,      50'000,
    100'000,       200'000,       500'000,       1'000'000,      2'000'000,   5'000'000,
    10'000'000,    20'000'000,    50'000'000,    100'000'000,    200'000'000, 500'000'000,
    1'000'000'000, 2'000'000'000, 5'000'000'000, 10'000'000'000};

// The fine scale: 2^kSubBits buckets per power of two above 2^(kSubBits +
// 1) ns, one per value below it, up to 2^kMaxBits ns.
constexpr int kSubBits = 7;
constexpr std::uint64_t kSubCount = std::uint64_t{1} << kSubBits;
constexpr int kMaxBits = 40;
constexpr std::size_t kFineCount = (kMaxBits - kSubBits + 1) * kSubCount;

// Bucket i's upper bound: i itself below 2 * kSubCount, then the last value
// of a bucket 2^shift wide.
constexpr std::array<std::uint64_t, kFineCount> FineBounds() {
  std::array<std::uint64_t, kFineCount> bounds{};
  for (std::size_t i = 0; i < kFineCount; ++i) {
    if (i < 2 * kSubCount) {
      bounds[i] = i;
      continue;
    }
    const std::uint64_t shift = i / kSubCount - 1;
    const std::uint64_t low = (i % kSubCount + kSubCount) << shift;
    bounds[i] = low + (std::uint64_t{1} << shift) - 1;
  }
  return bounds;
}
constexpr std::array<std::uint64_t, kFineCount> kFineBounds = FineBounds();

}  // namespace

LatencyHistogram::LatencyHistogram(Scale scale)
    : bounds_(scale == Scale::kFine ? std::span<const std::uint64_t>(kFineBounds)
                                    : std::span<const std::uint64_t>(kCoarseBounds)),
      counts_(bounds_.size() + 1, 0) {}

void LatencyHistogram::Record(std::uint64_t ns) {
  const auto it = std::lower_bound(bounds_.begin(), bounds_.end(), ns);
  counts_[static_cast<std::size_t>(it - bounds_.begin())]++;
  count_++;
  sum_ns_ += ns;
  max_ns_ = std::max(max_ns_, ns);
}

void LatencyHistogram::Clear() {
  std::fill(counts_.begin(), counts_.end(), 0);
  count_ = sum_ns_ = max_ns_ = 0;
}

double LatencyHistogram::MeanNs() const {
  return count_ == 0 ? 0 : static_cast<double>(sum_ns_) / static_cast<double>(count_);
}

double LatencyHistogram::PercentileNs(double q) const {
  if (count_ == 0) return 0;
  const double rank = std::clamp(q, 0.0, 1.0) * static_cast<double>(count_);
  std::uint64_t below = 0;
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] == 0 || static_cast<double>(below + counts_[i]) < rank) {
      below += counts_[i];
      continue;
    }
    // Bucket i holds (bounds_[i - 1], bounds_[i]]; the last one runs to the maximum.
    const double lo = i == 0 ? 0.0 : static_cast<double>(bounds_[i - 1]);
    const double hi = i < bounds_.size() ? static_cast<double>(bounds_[i])
                                         : static_cast<double>(max_ns_);
    const double within = (rank - static_cast<double>(below)) / static_cast<double>(counts_[i]);
    return std::min(lo + (hi - lo) * std::clamp(within, 0.0, 1.0), static_cast<double>(max_ns_));
  }
  return static_cast<double>(max_ns_);
}

LatencySummary LatencyHistogram::Summary() const {
  LatencySummary s;
  s.count = count_;
  if (count_ == 0) return s;
  s.mean_us = MeanNs() / 1e3;
  s.p50_us = PercentileNs(0.50) / 1e3;
  s.p99_us = PercentileNs(0.99) / 1e3;
  s.p999_us = PercentileNs(0.999) / 1e3;
  s.max_us = static_cast<double>(max_ns_) / 1e3;
  return s;
}

}  // namespace trestle::platform
