#include "trestle/fabric/bandwidth.h"

#include <array>

#include "absl/status/status.h"
#include "units/scaled_quantity.h"
#include "common/text.h"

namespace trestle::fabric {
namespace {

// Factors convert to bytes per nanosecond: x bit/s = x / 8 / 1e9 bytes/ns.
constexpr std::array<internal::UnitScale, 13> kUnits = {{
    {"bps", 1.0 / 8e9},
    {"Bps", 1.0 / 1e9},
    {"Kbps", 1e3 / 8e9},
    {"KBps", 1e3 / 1e9},
    {"KiBps", 1024.0 / 1e9},
    {"Mbps", 1e6 / 8e9},
    {"MBps", 1e6 / 1e9},
    {"MiBps", 1048576.0 / 1e9},
    {"Gbps", 1e9 / 8e9},
    {"GBps", 1.0},
    {"GiBps", 1073741824.0 / 1e9},
    {"Tbps", 1e12 / 8e9},
    {"TBps", 1e3},
}};

// Output uses decimal bit units only, the way links are usually quoted.
constexpr std::array<internal::UnitScale, 5> kPrintUnits = {{
    {"bps", 1.0 / 8e9},
    {"Kbps", 1e3 / 8e9},
    {"Mbps", 1e6 / 8e9},
    {"Gbps", 1e9 / 8e9},
    {"Tbps", 1e12 / 8e9},
}};

}  // namespace

absl::StatusOr<Bandwidth> Bandwidth::Parse(std::string_view text) {
  absl::StatusOr<double> v = internal::ParseScaledQuantity(text, kUnits, "bandwidth");
  if (!v.ok()) return v.status();
  if (*v <= 0) {
    return absl::InvalidArgumentError(
        internal::Concat("bad bandwidth '", text, "': must be greater than zero"));
  }
  return Bandwidth(*v);
}

std::string Bandwidth::ToString() const {
  return internal::FormatScaledQuantity(bytes_per_ns_, kPrintUnits);
}

}  // namespace trestle::fabric
