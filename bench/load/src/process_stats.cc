#include "process_stats.h"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>


namespace trestle::bench {

std::optional<std::uint64_t> ProcessStats::CpuNanos() const {
  std::ifstream in("/proc/" + std::to_string(pid_) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  // The command name (field 2) may hold spaces and parentheses: fields are
  // counted from the last ')'. utime and stime are fields 14 and 15.
  const std::size_t close = line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(line.substr(close + 1));
  std::string skip;
  for (int field = 3; field < 14; ++field) fields >> skip;
  unsigned long long utime = 0;
  unsigned long long stime = 0;
  if (!(fields >> utime >> stime)) return std::nullopt;
  const long ticks = sysconf(_SC_CLK_TCK);
  if (ticks <= 0) return std::nullopt;
  return (utime + stime) * (1'000'000'000ULL / static_cast<unsigned long long>(ticks));
}

std::optional<std::uint64_t> ProcessStats::StatusField(const char* name) const {
  std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
  std::string line;
  const std::size_t name_len = std::strlen(name);
  while (std::getline(in, line)) {
    if (line.compare(0, name_len, name) != 0 || line.size() <= name_len ||
        line[name_len] != ':') {
      continue;
    }
    unsigned long long kib = 0;
    if (std::sscanf(line.c_str() + name_len + 1, "%llu", &kib) != 1) return std::nullopt;
    return kib * 1024;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> ProcessStats::PeakRssBytes() const { return StatusField("VmHWM"); }

std::optional<std::uint64_t> ProcessStats::RssBytes() const { return StatusField("VmRSS"); }

}  // namespace trestle::bench
