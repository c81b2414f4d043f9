#include "messages/latency_histogram.h"

#include <algorithm>

namespace trestle::daemon {

void LatencyHistogram::Record(std::uint64_t ns) {
  const auto it = std::lower_bound(kBoundsNs.begin(), kBoundsNs.end(), ns);
  counts_[static_cast<std::size_t>(it - kBoundsNs.begin())]++;
  count_++;
  sum_ns_ += ns;
  max_ns_ = std::max(max_ns_, ns);
}

double LatencyHistogram::PercentileNs(double q) const {
  if (count_ == 0) return 0;
  const double rank = q * static_cast<double>(count_);
  std::uint64_t below = 0;
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] == 0 || static_cast<double>(below + counts_[i]) < rank) {
      below += counts_[i];
      continue;
    }
    const double lo = i == 0 ? 0.0 : static_cast<double>(kBoundsNs[i - 1]);
    const double hi = i < kBoundsNs.size() ? static_cast<double>(kBoundsNs[i])
                                           : static_cast<double>(max_ns_);
    const double within = (rank - static_cast<double>(below)) / static_cast<double>(counts_[i]);
    return std::min(lo + (hi - lo) * std::clamp(within, 0.0, 1.0), static_cast<double>(max_ns_));
  }
  return static_cast<double>(max_ns_);
}

void LatencyHistogram::CopyTo(const std::string& stage, admin::Histogram* out) const {
  out->set_stage(stage);
  for (std::uint64_t b : kBoundsNs) out->add_bounds_ns(b);
  for (std::uint64_t c : counts_) out->add_counts(c);
  out->set_count(count_);
  out->set_sum_ns(sum_ns_);
  out->set_p50_us(PercentileNs(0.5) / 1e3);
  out->set_p99_us(PercentileNs(0.99) / 1e3);
  out->set_p999_us(PercentileNs(0.999) / 1e3);
  out->set_mean_us(count_ == 0 ? 0 : static_cast<double>(sum_ns_) / static_cast<double>(count_) / 1e3);
}

}  // namespace trestle::daemon
