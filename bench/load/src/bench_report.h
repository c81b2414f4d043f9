// BenchReport: prints results as they come, one configuration at a time: a
// Markdown table on `table_out` (header before the first row) and, if a
// JSON path was given, one JSON object per line (JSON Lines) in that file.
#pragma once

#include <cstdio>
#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "bench_result.h"
#include "nlohmann/json.hpp"

namespace trestle::bench {

class BenchReport {
 public:
  // `table_out` must outlive the report. `json_path` "" = no JSON.
  BenchReport(std::FILE* table_out, std::string json_path);

  // Creates (truncates) the JSON file. Call once before Add.
  absl::Status Open();
  // Prints `result`'s row (and the header first, once) and appends its JSON
  // line; both are flushed at once so a long matrix can be followed live.
  void Add(const BenchResult& result);

  static std::string MarkdownHeader();
  static std::string MarkdownRow(const BenchResult& result);
  static nlohmann::json ToJson(const BenchResult& result);

 private:
  std::FILE* table_out_;
  std::string json_path_;
  std::ofstream json_;
  bool header_printed_ = false;
};

}  // namespace trestle::bench
