// Decimal numbers in the text fields of Redis replies and stream entries
// (the bridge's registry, counters and streams; docs/federation.md).
//
//   ParseDecimal   all of `text` is an unsigned decimal number;
//   DecimalSlots   the text of up to N numbers, kept in fixed buffers so that
//                  the string_views handed out stay valid until a slot is
//                  written again (a stream entry's fields, without
//                  allocating).
//   AppendDecimal  `n` as text at the end of a string (a packed field).
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace trestle::daemon {

inline bool ParseDecimal(std::string_view text, std::uint64_t* out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

inline void AppendDecimal(std::string& out, std::uint64_t n) {
  char text[20];  // 20 digits: the largest uint64
  const char* end = std::to_chars(text, text + sizeof text, n).ptr;
  out.append(text, static_cast<std::size_t>(end - text));
}

template <std::size_t N>
class DecimalSlots {
 public:
  // `n` as text in slot `slot` (< N); valid until that slot is written again.
  std::string_view Write(std::size_t slot, std::uint64_t n) {
    char* begin = text_[slot];
    char* end = std::to_chars(begin, begin + sizeof text_[slot], n).ptr;
    return std::string_view(begin, static_cast<std::size_t>(end - begin));
  }

 private:
  char text_[N][20] = {};  // 20 digits: the largest uint64
};

}  // namespace trestle::daemon
