#include "cli/validation_report.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "trestle/fabric/sample_statistics.h"
#include "trestle/platform/text_table.h"

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
  platform::TextTable table({"workload", "backend", "samples", "lost", "p50_us", "p99_us",
                             "p50_err", "p99_err", "wall_s"});
  auto percent = [](double error) {
    return std::isnan(error) ? std::string("-") : absl::StrFormat("%+.1f%%", 100 * error);
  };
  for (const ValidationRow& row : rows_) {
    table.AddRow({row.workload, row.backend, absl::StrCat(row.samples), absl::StrCat(row.lost),
                  absl::StrFormat("%.3f", row.p50_ns / 1000),
                  absl::StrFormat("%.3f", row.p99_ns / 1000), percent(Error(row, false)),
                  percent(Error(row, true)), absl::StrFormat("%.2f", row.wall_seconds)});
  }
  std::ostringstream text;
  table.Print(text);
  std::fputs(text.str().c_str(), out);
}

absl::Status ValidationReport::WriteCsv(const std::string& path) const {
  const std::vector<std::string> header = absl::StrSplit(kCsvHeader, ',');
  platform::TextTable table(header);
  for (const ValidationRow& row : rows_) {
    table.AddRow({topology_, row.workload, row.backend, absl::StrCat(row.samples),
                  absl::StrCat(row.lost), absl::StrFormat("%.3f", row.p50_ns),
                  absl::StrFormat("%.3f", row.p99_ns), absl::StrFormat("%.4f", Error(row, false)),
                  absl::StrFormat("%.4f", Error(row, true)),
                  absl::StrFormat("%.3f", row.wall_seconds)});
  }
  return table.WriteCsvFile(path);
}

}  // namespace trestle::ns3_adapter::cli
