// TextTable: rows of cells printed as aligned columns, numbers right-aligned.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace trestle {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
  void AddRow(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  void Print(std::ostream& out) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace trestle
