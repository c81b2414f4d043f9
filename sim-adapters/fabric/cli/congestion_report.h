// CongestionReport: the runs of `trestle-sim congestion`, one row each, and
// their renderings: a console table and a CSV file (HeatMapPlotter draws
// them).
#ifndef TRESTLE_FABRIC_CLI_CONGESTION_REPORT_H_
#define TRESTLE_FABRIC_CLI_CONGESTION_REPORT_H_

#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace trestle::fabric::cli {

struct CongestionRow {
  std::string victim;      // e.g. "allreduce:8B"
  std::string aggressor;   // e.g. "incast"
  std::string split;       // "20:80"
  std::string allocation;  // linear, interleaved, random
  std::string cc;          // on, off
  std::string tc;          // same, separate
  double impact_mean = 0;
  double impact_p99 = 0;
};

class CongestionReport {
 public:
  static constexpr const char* kCsvHeader =
      "victim,aggressor,split,allocation,cc,tc,impact_mean,impact_p99";

  void Add(CongestionRow row) { rows_.push_back(std::move(row)); }
  const std::vector<CongestionRow>& rows() const { return rows_; }

  // One aligned line per row.
  void PrintTable(std::FILE* out) const;
  // Exactly kCsvHeader's columns, impacts with 3 decimals. Errors name the file.
  absl::Status WriteCsv(const std::string& path) const;

 private:
  std::vector<CongestionRow> rows_;
};

}  // namespace trestle::fabric::cli

#endif  // TRESTLE_FABRIC_CLI_CONGESTION_REPORT_H_
