// Internal: one table per enum gives both directions of its text form, so
// the parser and the printer cannot drift apart, and every "unknown X" error
// lists the accepted names the same way.
#ifndef TRESTLE_FABRIC_COMMON_ENUM_NAMES_H_
#define TRESTLE_FABRIC_COMMON_ENUM_NAMES_H_

#include <span>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/text.h"

namespace trestle::fabric::internal {

template <typename E>
struct EnumName {
  E value;
  std::string_view name;
};

// The entry named `text`, or InvalidArgument "unknown WHAT 'TEXT' (a, b, c)".
template <typename E>
absl::StatusOr<E> ParseEnum(std::span<const EnumName<E>> table, std::string_view text,
                            std::string_view what) {
  std::vector<std::string_view> names;
  for (const EnumName<E>& entry : table) {
    if (entry.name == text) return entry.value;
    names.push_back(entry.name);
  }
  return absl::InvalidArgumentError(
      Concat("unknown ", what, " '", text, "' (", Join(names, ", "), ")"));
}

// The first name of `value` in the table, or "?" if it has none.
template <typename E>
std::string_view EnumToName(std::span<const EnumName<E>> table, E value) {
  for (const EnumName<E>& entry : table) {
    if (entry.value == value) return entry.name;
  }
  return "?";
}

}  // namespace trestle::fabric::internal

#endif  // TRESTLE_FABRIC_COMMON_ENUM_NAMES_H_
