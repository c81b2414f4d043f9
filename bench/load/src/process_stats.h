// ProcessStats: CPU time and memory of a running process, read from /proc.
//
// CPU is utime + stime from /proc/PID/stat (clock-tick resolution, usually
// 10 ms); memory is VmHWM (peak resident set) and VmRSS from
// /proc/PID/status. Every reader returns nullopt when the process is gone or
// /proc cannot be read; nothing throws.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>

namespace trestle::bench {

class ProcessStats {
 public:
  explicit ProcessStats(pid_t pid) : pid_(pid) {}

  pid_t pid() const { return pid_; }
  // User plus system CPU time consumed so far, ns.
  std::optional<std::uint64_t> CpuNanos() const;
  // Peak resident set size (VmHWM), bytes.
  std::optional<std::uint64_t> PeakRssBytes() const;
  // Current resident set size (VmRSS), bytes.
  std::optional<std::uint64_t> RssBytes() const;

 private:
  std::optional<std::uint64_t> StatusField(const char* name) const;

  pid_t pid_;
};

}  // namespace trestle::bench
