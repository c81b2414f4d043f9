#include "cli/sweep_report.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "absl/strings/str_replace.h"
#include "trestle/fabric/byte_size.h"
#include "trestle/fabric/duration.h"
#include "common/text.h"

namespace trestle::fabric::cli {
namespace {

std::string CsvField(const std::string& field) {
  if (field.find_first_of(",\"\n") == std::string::npos) return field;
  return internal::Concat("\"", absl::StrReplaceAll(field, {{"\"", "\"\""}}), "\"");
}

}  // namespace

void SweepReport::PrintTable(std::FILE* out) const {
  std::size_t topology_width = 8;
  std::size_t algorithm_width = 9;
  for (const SweepRow& row : rows_) {
    topology_width = std::max(topology_width, row.topology.size());
    algorithm_width = std::max(algorithm_width, row.algorithm.size());
  }
  const int tw = static_cast<int>(topology_width);
  const int aw = static_cast<int>(algorithm_width);
  std::fprintf(out, "%-*s  %-*s  %-13s  %10s  %14s  %12s\n", tw, "topology", aw, "algorithm",
               "collective", "size", "time_ns", "time");
  for (const SweepRow& row : rows_) {
    std::fprintf(out, "%-*s  %-*s  %-13s  %10s  %14.1f  %12s\n", tw, row.topology.c_str(), aw,
                 row.algorithm.c_str(), row.collective.c_str(),
                 ByteSize::Bytes(row.size_bytes).ToString().c_str(), row.time_ns,
                 Duration::Nanoseconds(row.time_ns).ToString().c_str());
  }
}

absl::Status SweepReport::WriteCsv(const std::string& path) const {
  std::ofstream out(path, std::ios::trunc);
  if (!out) {
    return absl::UnavailableError(
        internal::Concat("cannot write CSV '", path, "': ", std::strerror(errno)));
  }
  out << kCsvHeader << "\n";
  char time[64];
  for (const SweepRow& row : rows_) {
    std::snprintf(time, sizeof(time), "%.3f", row.time_ns);
    out << CsvField(row.backend) << ',' << CsvField(row.topology) << ','
        << CsvField(row.algorithm) << ',' << CsvField(row.collective) << ',' << row.size_bytes
        << ',' << time << '\n';
  }
  out.close();
  if (!out) return absl::UnavailableError(internal::Concat("error writing CSV '", path, "'"));
  return absl::OkStatus();
}

}  // namespace trestle::fabric::cli
