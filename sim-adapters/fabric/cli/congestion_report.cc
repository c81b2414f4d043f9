#include "cli/congestion_report.h"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "common/text.h"

namespace trestle::fabric::cli {

void CongestionReport::PrintTable(std::FILE* out) const {
  std::fprintf(out, "%-16s  %-14s  %-5s  %-11s  %-3s  %-8s  %11s  %10s\n", "victim", "aggressor",
               "split", "allocation", "cc", "tc", "impact_mean", "impact_p99");
  for (const CongestionRow& row : rows_) {
    std::fprintf(out, "%-16s  %-14s  %-5s  %-11s  %-3s  %-8s  %11.3f  %10.3f\n",
                 row.victim.c_str(), row.aggressor.c_str(), row.split.c_str(),
                 row.allocation.c_str(), row.cc.c_str(), row.tc.c_str(), row.impact_mean,
                 row.impact_p99);
  }
}

absl::Status CongestionReport::WriteCsv(const std::string& path) const {
  std::ofstream out(path, std::ios::trunc);
  if (!out) {
    return absl::UnavailableError(
        internal::Concat("cannot write CSV '", path, "': ", std::strerror(errno)));
  }
  out << kCsvHeader << "\n";
  for (const CongestionRow& row : rows_) {
    // No field can hold a comma or a quote (kinds, sizes, percentages).
    out << fmt::format("{},{},{},{},{},{},{:.3f},{:.3f}\n", row.victim, row.aggressor, row.split,
                       row.allocation, row.cc, row.tc, row.impact_mean, row.impact_p99);
  }
  out.close();
  if (!out) return absl::UnavailableError(internal::Concat("error writing CSV '", path, "'"));
  return absl::OkStatus();
}

}  // namespace trestle::fabric::cli
