#include "cli/congestion_report.h"

#include <sstream>
#include <vector>

#include "absl/strings/str_split.h"
#include "common/text.h"
#include "trestle/platform/text_table.h"

namespace trestle::fabric::cli {

void CongestionReport::PrintTable(std::FILE* out) const {
  platform::TextTable table({"victim", "aggressor", "split", "allocation", "cc", "tc",
                             "impact_mean", "impact_p99"});
  for (const CongestionRow& row : rows_) {
    table.AddRow({row.victim, row.aggressor, row.split, row.allocation, row.cc, row.tc,
                  fmt::format("{:.3f}", row.impact_mean), fmt::format("{:.3f}", row.impact_p99)});
  }
  std::ostringstream text;
  table.Print(text);
  std::fputs(text.str().c_str(), out);
}

absl::Status CongestionReport::WriteCsv(const std::string& path) const {
  const std::vector<std::string> header = absl::StrSplit(kCsvHeader, ',');
  platform::TextTable table(header);
  for (const CongestionRow& row : rows_) {
    table.AddRow({row.victim, row.aggressor, row.split, row.allocation, row.cc, row.tc,
                  fmt::format("{:.3f}", row.impact_mean), fmt::format("{:.3f}", row.impact_p99)});
  }
  return table.WriteCsvFile(path);
}

}  // namespace trestle::fabric::cli
