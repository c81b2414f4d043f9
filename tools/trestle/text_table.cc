#include "text_table.h"

#include <algorithm>
#include <cctype>
#include <iomanip>

namespace trestle {
namespace {
bool LooksNumeric(const std::string& s) {
  return !s.empty() && (std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-');
}
}  // namespace

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

}  // namespace trestle
