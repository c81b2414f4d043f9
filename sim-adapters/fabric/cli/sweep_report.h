// SweepReport: the rows of a collective sweep and their three renderings:
// a console table, a CSV file, and (through GnuplotPlotter) a plot.
#ifndef TRESTLE_FABRIC_CLI_SWEEP_REPORT_H_
#define TRESTLE_FABRIC_CLI_SWEEP_REPORT_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace trestle::fabric::cli {

struct SweepRow {
  std::string backend;
  std::string topology;  // The spec as the user gave it.
  std::string algorithm;
  std::string collective;
  std::uint64_t size_bytes = 0;
  double time_ns = 0;
};

class SweepReport {
 public:
  static constexpr const char* kCsvHeader =
      "backend,topology,algorithm,collective,size_bytes,time_ns";

  void Add(SweepRow row) { rows_.push_back(std::move(row)); }
  const std::vector<SweepRow>& rows() const { return rows_; }

  // One line per row, columns aligned, times in adaptive units.
  void PrintTable(std::FILE* out) const;
  // Exactly kCsvHeader's columns, as platform::TextTable writes CSV (fields
  // with commas or quotes quoted, RFC 4180). Errors name the file.
  absl::Status WriteCsv(const std::string& path) const;

 private:
  std::vector<SweepRow> rows_;
};

}  // namespace trestle::fabric::cli

#endif  // TRESTLE_FABRIC_CLI_SWEEP_REPORT_H_
