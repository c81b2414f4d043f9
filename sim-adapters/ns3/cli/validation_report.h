// ValidationReport: the rows of `trestle-sim validate`, one per workload and
// backend, with each backend's error against a reference backend, and their
// renderings: a console table and a CSV file (bench/validation/ draws it).
//
// A row's statistics are over its samples that arrived: p50 and p99 are
// nearest-rank percentiles of their latencies; lost samples are counted
// apart. The error of a percentile is backend ÷ reference − 1 (signed: a
// negative error is an optimistic backend), NaN for the reference itself or
// when the workload has no reference row.
#ifndef TRESTLE_NS3_CLI_VALIDATION_REPORT_H_
#define TRESTLE_NS3_CLI_VALIDATION_REPORT_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace trestle::ns3_adapter::cli {

struct ValidationRow {
  std::string workload;  // "incast:8:1MiB"
  std::string backend;   // "flow", "ns3-dctcp"
  std::size_t samples = 0;
  std::size_t lost = 0;
  double p50_ns = 0;
  double p99_ns = 0;
  double wall_seconds = 0;
};

class ValidationReport {
 public:
  static constexpr const char* kCsvHeader =
      "topology,workload,backend,samples,lost,p50_ns,p99_ns,p50_error,p99_error,wall_seconds";

  ValidationReport(std::string topology, std::string reference)
      : topology_(std::move(topology)), reference_(std::move(reference)) {}

  // A row from one backend's sample latencies (NaN: lost).
  void Add(const std::string& workload, const std::string& backend,
           const std::vector<double>& latencies_ns, double wall_seconds);
  const std::vector<ValidationRow>& rows() const { return rows_; }
  // backend ÷ reference − 1 of the row's p50 (`p99` false) or p99.
  double Error(const ValidationRow& row, bool p99) const;

  // One aligned line per row, times in µs, errors in %.
  void PrintTable(std::FILE* out) const;
  // Exactly kCsvHeader's columns, as platform::TextTable writes CSV (a
  // topology spec with commas is quoted); errors as fractions. Errors name
  // the file.
  absl::Status WriteCsv(const std::string& path) const;

 private:
  std::string topology_;
  std::string reference_;
  std::vector<ValidationRow> rows_;
};

}  // namespace trestle::ns3_adapter::cli

#endif  // TRESTLE_NS3_CLI_VALIDATION_REPORT_H_
