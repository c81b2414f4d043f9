// CpuMeter: the CPU use of one process over an interval of wall time.
#pragma once

#include <cstdint>
#include <optional>

#include "process_stats.h"

namespace trestle::bench {

// CPU use of one process over an interval of wall time, as a percentage of
// one core (100 % = one core busy, as top shows it).
class CpuMeter {
 public:
  // `stats` null: Percent() is always nullopt.
  explicit CpuMeter(const ProcessStats* stats) : stats_(stats) {}
  // Starts (or restarts) the interval now.
  void Start();
  // CPU % since Start(); nullopt without a process or a start sample.
  std::optional<double> Percent() const;

 private:
  const ProcessStats* stats_;
  std::optional<std::uint64_t> cpu_start_ns_;
  std::uint64_t wall_start_ns_ = 0;
};

}  // namespace trestle::bench
