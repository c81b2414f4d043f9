#include "cli/sweep_report.h"

#include <sstream>
#include <vector>

#include "absl/strings/str_split.h"
#include "common/text.h"
#include "trestle/fabric/byte_size.h"
#include "trestle/fabric/duration.h"
#include "trestle/platform/text_table.h"

namespace trestle::fabric::cli {

void SweepReport::PrintTable(std::FILE* out) const {
  platform::TextTable table({"topology", "algorithm", "collective", "size", "time_ns", "time"});
  for (const SweepRow& row : rows_) {
    table.AddRow({row.topology, row.algorithm, row.collective,
                  ByteSize::Bytes(row.size_bytes).ToString(), fmt::format("{:.1f}", row.time_ns),
                  Duration::Nanoseconds(row.time_ns).ToString()});
  }
  std::ostringstream text;
  table.Print(text);
  std::fputs(text.str().c_str(), out);
}

absl::Status SweepReport::WriteCsv(const std::string& path) const {
  const std::vector<std::string> header = absl::StrSplit(kCsvHeader, ',');
  platform::TextTable table(header);
  for (const SweepRow& row : rows_) {
    table.AddRow({row.backend, row.topology, row.algorithm, row.collective,
                  fmt::format("{}", row.size_bytes), fmt::format("{:.3f}", row.time_ns)});
  }
  return table.WriteCsvFile(path);
}

}  // namespace trestle::fabric::cli
