#include "trestle/fabric/byte_size.h"

#include <array>
#include <cmath>

#include "absl/status/status.h"
#include "units/scaled_quantity.h"
#include "common/text.h"

namespace trestle::fabric {
namespace {

constexpr std::array<internal::UnitScale, 7> kUnits = {{
    {"B", 1.0},
    {"KB", 1e3},
    {"KiB", 1024.0},
    {"MB", 1e6},
    {"MiB", 1048576.0},
    {"GB", 1e9},
    {"GiB", 1073741824.0},
}};

}  // namespace

absl::StatusOr<ByteSize> ByteSize::Parse(std::string_view text) {
  absl::StatusOr<double> v = internal::ParseScaledQuantity(text, kUnits, "size");
  if (!v.ok()) return v.status();
  if (*v != std::floor(*v) || *v > 1.8e19) {
    return absl::InvalidArgumentError(
        internal::Concat("bad size '", text, "': not a whole number of bytes"));
  }
  return ByteSize(static_cast<std::uint64_t>(*v));
}

absl::StatusOr<std::vector<ByteSize>> ByteSize::ParseList(std::string_view text) {
  std::vector<ByteSize> out;
  for (std::string_view item : internal::Split(text, ',')) {
    absl::StatusOr<ByteSize> s = Parse(item);
    if (!s.ok()) return s.status();
    out.push_back(*s);
  }
  return out;
}

std::string ByteSize::ToString() const {
  static constexpr std::array<std::pair<std::uint64_t, const char*>, 3> kBinary = {{
      {1ull << 30, "GiB"}, {1ull << 20, "MiB"}, {1ull << 10, "KiB"}}};
  for (const auto& [factor, suffix] : kBinary) {
    if (bytes_ >= factor && bytes_ % factor == 0) return internal::Concat(bytes_ / factor, suffix);
  }
  return internal::Concat(bytes_, "B");
}

}  // namespace trestle::fabric
