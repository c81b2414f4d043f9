// EnumNames: the one mechanism for an enum's text form. One table per enum
// gives both directions, so that its parser and its printer cannot drift
// apart, and every "unknown X" error and every list of choices (a --help
// line, a config key's help) names the accepted words the same way, in the
// table's order.
//
//   constexpr platform::EnumName<Color> kColorNames[] = {
//       {Color::kRed, "red"}, {Color::kGreen, "green"}};
//   constexpr platform::EnumNames<Color> kColors(kColorNames);
//   kColors.Parse("blue", "color");  // InvalidArgument: unknown color 'blue' (red, green)
//   kColors.Name(Color::kGreen);     // "green"
//
// Header-only and C++17-clean (the ns-3 adapter compiles as C++17). The
// table must outlive every EnumNames over it (a constexpr array at
// namespace scope does).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace trestle::platform {

template <typename E>
struct EnumName {
  E value;
  std::string_view name;
};

template <typename E>
class EnumNames {
 public:
  template <std::size_t N>
  constexpr EnumNames(const EnumName<E> (&table)[N]) : table_(table), size_(N) {}  // NOLINT

  // The value named `text`, if any.
  constexpr std::optional<E> Find(std::string_view text) const {
    for (const EnumName<E>& entry : *this) {
      if (entry.name == text) return entry.value;
    }
    return std::nullopt;
  }
  // The value named `text`, or InvalidArgument "unknown <what> '<text>' (a, b, c)".
  absl::StatusOr<E> Parse(std::string_view text, std::string_view what) const {
    if (std::optional<E> value = Find(text)) return *value;
    // std::string: Debian's Abseil takes no std::string_view.
    return absl::InvalidArgumentError(absl::StrCat("unknown ", std::string(what), " '",
                                                   std::string(text), "' (", Joined(), ")"));
  }
  // The first name of `value`, or "?" if it has none.
  constexpr std::string_view Name(E value) const {
    for (const EnumName<E>& entry : *this) {
      if (entry.value == value) return entry.name;
    }
    return "?";
  }
  // Every name, in the table's order, `separator` between them.
  std::string Joined(std::string_view separator = ", ") const {
    std::string out;
    for (const EnumName<E>& entry : *this) {
      if (!out.empty()) out.append(separator);
      out.append(entry.name);
    }
    return out;
  }

  constexpr const EnumName<E>* begin() const { return table_; }
  constexpr const EnumName<E>* end() const { return table_ + size_; }
  constexpr std::size_t size() const { return size_; }

 private:
  const EnumName<E>* table_;
  std::size_t size_;
};

}  // namespace trestle::platform
