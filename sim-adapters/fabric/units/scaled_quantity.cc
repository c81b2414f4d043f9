#include "units/scaled_quantity.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

#include "absl/status/status.h"
#include "common/text.h"

namespace trestle::fabric::internal {

absl::StatusOr<double> ParseScaledQuantity(std::string_view text,
                                           std::span<const UnitScale> units,
                                           std::string_view what) {
  auto accepted = [&] {
    std::vector<std::string_view> suffixes;
    for (const UnitScale& u : units) suffixes.push_back(u.suffix);
    return internal::Join(suffixes, ", ");
  };
  // The number is the longest prefix made of digits, '.', exponent marks and
  // signs; the rest must be exactly one of the units.
  std::size_t split = 0;
  while (split < text.size()) {
    char c = text[split];
    bool numeric = (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+';
    bool exponent = (c == 'e' || c == 'E') && split > 0 && split + 1 < text.size() &&
                    ((text[split + 1] >= '0' && text[split + 1] <= '9') ||
                     text[split + 1] == '-' || text[split + 1] == '+');
    if (!numeric && !exponent) break;
    ++split;
  }
  std::string_view number = text.substr(0, split);
  std::string_view unit = text.substr(split);
  if (number.empty()) {
    return absl::InvalidArgumentError(
        internal::Concat("bad ", what, " '", text, "': expected a number followed by a unit (",
                     accepted(), ")"));
  }
  if (unit.empty()) {
    return absl::InvalidArgumentError(internal::Concat("bad ", what, " '", text,
                                                   "': a unit is required (one of ",
                                                   accepted(), ")"));
  }
  double value = 0;
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec != std::errc() || end != number.data() + number.size() || !std::isfinite(value)) {
    return absl::InvalidArgumentError(
        internal::Concat("bad ", what, " '", text, "': '", number, "' is not a number"));
  }
  if (value < 0) {
    return absl::InvalidArgumentError(
        internal::Concat("bad ", what, " '", text, "': must not be negative"));
  }
  for (const UnitScale& u : units) {
    if (u.suffix == unit) return value * u.factor;
  }
  return absl::InvalidArgumentError(internal::Concat("bad ", what, " '", text, "': unknown unit '",
                                                 unit, "' (one of ", accepted(), ")"));
}

std::string FormatScaledQuantity(double value, std::span<const UnitScale> units) {
  const UnitScale* chosen = &units.front();
  for (const UnitScale& u : units) {
    if (u.factor <= value) chosen = &u;
  }
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.6g", value / chosen->factor);
  return internal::Concat(buf, chosen->suffix);
}

}  // namespace trestle::fabric::internal
