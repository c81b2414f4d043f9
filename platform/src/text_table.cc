#include "trestle/platform/text_table.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iomanip>

#include "absl/strings/str_cat.h"

namespace trestle::platform {
namespace {

bool LooksNumeric(const std::string& cell) {
  return !cell.empty() && (std::isdigit(static_cast<unsigned char>(cell[0])) || cell[0] == '-');
}

void WriteCsvLine(const std::vector<std::string>& cells, std::ostream& out) {
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out << ',';
    out << TextTable::CsvField(cells[i]);
  }
  out << '\n';
}

}  // namespace

std::string TextTable::CsvField(std::string_view cell) {
  if (cell.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(cell);
  std::string quoted = "\"";
  for (char c : cell) {
    if (c == '"') quoted.push_back('"');
    quoted.push_back(c);
  }
  quoted.push_back('"');
  return quoted;
}

void TextTable::Print(std::ostream& out) const {
  std::vector<std::size_t> width(header_.size());
  for (std::size_t i = 0; i < header_.size(); ++i) width[i] = header_[i].size();
  for (const auto& row : rows_) {
    for (std::size_t i = 0; i < row.size() && i < width.size(); ++i) {
      width[i] = std::max(width[i], row[i].size());
    }
  }
  auto line = [&](const std::vector<std::string>& cells, bool header) {
    for (std::size_t i = 0; i < width.size(); ++i) {
      const std::string& cell = i < cells.size() ? cells[i] : std::string();
      if (i > 0) out << "  ";
      const bool right = !header && LooksNumeric(cell);
      out << (right ? std::right : std::left) << std::setw(static_cast<int>(width[i])) << cell;
    }
    out << '\n';
  };
  line(header_, true);
  for (const auto& row : rows_) line(row, false);
  out << std::left;
}

void TextTable::WriteCsv(std::ostream& out) const {
  WriteCsvLine(header_, out);
  for (const auto& row : rows_) WriteCsvLine(row, out);
}

absl::Status TextTable::WriteCsvFile(const std::string& path) const {
  std::ofstream out(path, std::ios::trunc);
  if (!out) {
    return absl::UnavailableError(
        absl::StrCat("cannot write CSV '", path, "': ", std::strerror(errno)));
  }
  WriteCsv(out);
  out.close();
  if (!out) return absl::UnavailableError(absl::StrCat("error writing CSV '", path, "'"));
  return absl::OkStatus();
}

}  // namespace trestle::platform
