#include "cli/validation_report.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "trestle/fabric/sample_statistics.h"

namespace trestle::ns3_adapter::cli {

void ValidationReport::Add(const std::string& workload, const std::string& backend,
                           const std::vector<double>& latencies_ns, double wall_seconds) {
  ValidationRow row{workload, backend};
  std::vector<double> arrived;
  for (double latency : latencies_ns) {
    if (std::isnan(latency)) {
      ++row.lost;
    } else {
      arrived.push_back(latency);
    }
  }
  row.samples = arrived.size();
  row.p50_ns = fabric::Percentile(arrived, 50);
  row.p99_ns = fabric::Percentile(arrived, 99);
  row.wall_seconds = wall_seconds;
  rows_.push_back(std::move(row));
}

double ValidationReport::Error(const ValidationRow& row, bool p99) const {
  if (row.backend == reference_) return std::numeric_limits<double>::quiet_NaN();
  for (const ValidationRow& ref : rows_) {
    if (ref.workload == row.workload && ref.backend == reference_) {
      return p99 ? row.p99_ns / ref.p99_ns - 1 : row.p50_ns / ref.p50_ns - 1;
    }
  }
  return std::numeric_limits<double>::quiet_NaN();
}

void ValidationReport::PrintTable(std::FILE* out) const {
  std::fprintf(out, "%-30s  %-12s  %7s  %4s  %11s  %11s  %8s  %8s  %9s\n", "workload", "backend",
               "samples", "lost", "p50_us", "p99_us", "p50_err", "p99_err", "wall_s");
  auto percent = [](double error) {
    return std::isnan(error) ? std::string("-") : absl::StrFormat("%+.1f%%", 100 * error);
  };
  for (const ValidationRow& row : rows_) {
    std::fprintf(out, "%-30s  %-12s  %7zu  %4zu  %11.3f  %11.3f  %8s  %8s  %9.2f\n",
                 row.workload.c_str(), row.backend.c_str(), row.samples, row.lost,
                 row.p50_ns / 1000, row.p99_ns / 1000, percent(Error(row, false)).c_str(),
                 percent(Error(row, true)).c_str(), row.wall_seconds);
  }
}

absl::Status ValidationReport::WriteCsv(const std::string& path) const {
  std::ofstream out(path, std::ios::trunc);
  if (!out) {
    return absl::UnavailableError(
        absl::StrCat("cannot write CSV '", path, "': ", std::strerror(errno)));
  }
  out << kCsvHeader << "\n";
  for (const ValidationRow& row : rows_) {
    // Workload and backend names hold no comma or quote; topology specs may
    // hold commas.
    out << absl::StrFormat("\"%s\",%s,%s,%zu,%zu,%.3f,%.3f,%.4f,%.4f,%.3f\n", topology_,
                           row.workload, row.backend, row.samples, row.lost, row.p50_ns, row.p99_ns,
                           Error(row, false), Error(row, true), row.wall_seconds);
  }
  out.close();
  if (!out) return absl::UnavailableError(absl::StrCat("error writing CSV '", path, "'"));
  return absl::OkStatus();
}

}  // namespace trestle::ns3_adapter::cli
