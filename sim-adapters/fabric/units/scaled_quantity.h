// Internal: splits "<number><unit>" and scales by the unit's factor. Shared by
// Bandwidth, Duration and ByteSize so that all three reject the same malformed
// text in the same words.
#ifndef TRESTLE_FABRIC_UNITS_SCALED_QUANTITY_H_
#define TRESTLE_FABRIC_UNITS_SCALED_QUANTITY_H_

#include <span>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace trestle::fabric::internal {

struct UnitScale {
  std::string_view suffix;  // Case-sensitive: "Gbps" and "GBps" differ.
  double factor;            // Multiplier from the unit to the base unit.
};

// Returns number × factor. `what` names the quantity in errors ("bandwidth").
// Errors name `text` and list the accepted units.
absl::StatusOr<double> ParseScaledQuantity(std::string_view text,
                                           std::span<const UnitScale> units,
                                           std::string_view what);

// Prints `value` (in base units) with the largest unit whose factor is
// <= value, trimming trailing zeros: "400Gbps", "1.5us". Units must be sorted
// by ascending factor.
std::string FormatScaledQuantity(double value, std::span<const UnitScale> units);

}  // namespace trestle::fabric::internal

#endif  // TRESTLE_FABRIC_UNITS_SCALED_QUANTITY_H_
