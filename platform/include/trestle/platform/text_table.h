// TextTable: the one writer of tables of text: rows of cells under a header,
// printed as aligned columns for people (Print: cells that start with a
// digit or a minus sign right-aligned, two spaces between columns) or as
// CSV for programs (WriteCsv).
//
// CSV has one quoting rule (RFC 4180), CsvField: a cell that holds a comma,
// a double quote, CR or LF is written in double quotes, its double quotes
// doubled; any other cell as it is. Rows end in "\n".
//
// A row may have fewer cells than the header (the rest are empty) or more
// (Print leaves the extra ones out; WriteCsv writes them). Not thread-safe.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace trestle::platform {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}

  void AddRow(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }

  // Aligned columns, the header first.
  void Print(std::ostream& out) const;
  // The header and the rows as CSV.
  void WriteCsv(std::ostream& out) const;
  // WriteCsv to the file at `path`, created or truncated. Unavailable,
  // naming the path and the system's reason, if it cannot be written.
  absl::Status WriteCsvFile(const std::string& path) const;

  // `cell` as a CSV field (the rule above).
  static std::string CsvField(std::string_view cell);

  const std::vector<std::string>& header() const { return header_; }
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace trestle::platform
