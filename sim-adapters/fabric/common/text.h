// Internal text helpers for messages and names. Debian's Abseil is built with
// its own string_view (ABSL_OPTION_USE_STD_STRING_VIEW 0), so absl::StrCat
// and friends reject std::string_view; these accept it, via fmt.
#ifndef TRESTLE_FABRIC_COMMON_TEXT_H_
#define TRESTLE_FABRIC_COMMON_TEXT_H_

#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace trestle::fabric::internal {

// Concatenates the text forms of `args` (strings, string_views, numbers).
template <typename... Args>
std::string Concat(const Args&... args) {
  std::string out;
  (fmt::format_to(std::back_inserter(out), "{}", args), ...);
  return out;
}

// Joins the text forms of `items` with `separator`.
template <typename Range>
std::string Join(const Range& items, std::string_view separator) {
  return fmt::format("{}", fmt::join(items, separator));
}

// Splits at every `separator`; the pieces view `text`.
inline std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == separator) {
      pieces.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return pieces;
}

}  // namespace trestle::fabric::internal

#endif  // TRESTLE_FABRIC_COMMON_TEXT_H_
