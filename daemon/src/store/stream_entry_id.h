// StreamEntryId: a Redis Stream entry id ("ms-seq"), parsed and printed.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"

namespace trestle::daemon {

struct StreamEntryId {
  std::uint64_t ms = 0;
  std::uint64_t seq = 0;

  bool operator==(const StreamEntryId&) const = default;
  template <typename H>
  friend H AbslHashValue(H h, const StreamEntryId& e) {
    return H::combine(std::move(h), e.ms, e.seq);
  }

  // False unless `text` is exactly "ms-seq".
  static bool Parse(std::string_view text, StreamEntryId* out) {
    const std::size_t dash = text.find('-');
    if (dash == std::string_view::npos) return false;
    const char* begin = text.data();
    auto a = std::from_chars(begin, begin + dash, out->ms);
    auto b = std::from_chars(begin + dash + 1, begin + text.size(), out->seq);
    return a.ec == std::errc() && a.ptr == begin + dash && b.ec == std::errc() &&
           b.ptr == begin + text.size();
  }
  std::string Text() const { return absl::StrCat(ms, "-", seq); }
};

}  // namespace trestle::daemon
