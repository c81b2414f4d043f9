#include "trestle/fabric/duration.h"

#include <array>

#include "units/scaled_quantity.h"

namespace trestle::fabric {
namespace {

constexpr std::array<internal::UnitScale, 5> kUnits = {{
    {"ps", 1e-3},
    {"ns", 1.0},
    {"us", 1e3},
    {"ms", 1e6},
    {"s", 1e9},
}};

}  // namespace

absl::StatusOr<Duration> Duration::Parse(std::string_view text) {
  absl::StatusOr<double> v = internal::ParseScaledQuantity(text, kUnits, "duration");
  if (!v.ok()) return v.status();
  return Duration(*v);
}

std::string Duration::ToString() const {
  if (ns_ == 0) return "0ns";
  return internal::FormatScaledQuantity(ns_, kUnits);
}

}  // namespace trestle::fabric
