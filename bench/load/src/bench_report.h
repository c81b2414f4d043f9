// BenchReport: prints results as they come, one configuration at a time: a
// Markdown table on `table_out` (header before the first row) and, if a
// JSON path was given, one JSON object per line (JSON Lines) in that file.
//
// The table's columns depend on the run's options (Columns): stalled apps
// add their counts after "dup", then several daemons their number and the
// messages sent across daemons; the floor adds its p50/p99 and the bridge's
// p99 as a multiple of it at the end. JSON always has every key ("floor" is
// null without --floor, "per_daemon" with one daemon).
#pragma once

#include <cstdio>
#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "bench_result.h"
#include "nlohmann/json.hpp"

namespace trestle::bench {

// Optional columns of the table.
struct ReportColumns {
  bool stalled = false;  // --stalled-apps: stalled, to stalled, undelivered
  bool floor = false;    // --floor: the floor's figures and the ratios
  bool daemons = false;  // several daemons: daemons, across
};

class BenchReport {
 public:
  using Columns = ReportColumns;

  // `table_out` must outlive the report. `json_path` "" = no JSON.
  BenchReport(std::FILE* table_out, std::string json_path, Columns columns = {});

  // Creates (truncates) the JSON file. Call once before Add.
  absl::Status Open();
  // Prints `row` (and the header first, once) and appends its JSON line;
  // both are flushed at once so a long matrix can be followed live.
  void Add(const BenchRow& row);

  static std::string MarkdownHeader(Columns columns = {});
  static std::string MarkdownRow(const BenchRow& row, Columns columns = {});
  static nlohmann::json ToJson(const BenchRow& row);

 private:
  std::FILE* table_out_;
  std::string json_path_;
  Columns columns_;
  std::ofstream json_;
  bool header_printed_ = false;
};

}  // namespace trestle::bench
