#include "cpu_meter.h"

#include "trestle/wire/monotonic_clock.h"

namespace trestle::bench {

void CpuMeter::Start() {
  cpu_start_ns_ = stats_ != nullptr ? stats_->CpuNanos() : std::nullopt;
  wall_start_ns_ = wire::MonotonicNanos();
}

std::optional<double> CpuMeter::Percent() const {
  if (stats_ == nullptr || !cpu_start_ns_) return std::nullopt;
  const std::optional<std::uint64_t> cpu = stats_->CpuNanos();
  const std::uint64_t wall = wire::MonotonicNanos() - wall_start_ns_;
  if (!cpu || wall == 0) return std::nullopt;
  return 100.0 * static_cast<double>(*cpu - *cpu_start_ns_) / static_cast<double>(wall);
}

}  // namespace trestle::bench
