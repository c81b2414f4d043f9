#include "trestle/fabric/congestion_workload.h"

#include "absl/status/status.h"
#include "trestle/platform/enum_names.h"
#include "common/text.h"
#include "trestle/fabric/byte_size.h"

namespace trestle::fabric {
namespace {

constexpr platform::EnumName<VictimSpec::Kind> kVictimNames[] = {
    {VictimSpec::Kind::kAllReduce, "allreduce"},
    {VictimSpec::Kind::kRingLatency, "ring-latency"},
    {VictimSpec::Kind::kRingBandwidth, "ring-bw"},
    {VictimSpec::Kind::kAllToAll, "alltoall"},
};

constexpr platform::EnumName<AggressorSpec::Kind> kAggressorNames[] = {
    {AggressorSpec::Kind::kIncast, "incast"},
    {AggressorSpec::Kind::kAllToAll, "alltoall"},
};

constexpr std::uint64_t kDefaultAggressorBytes = 256 * 1024;

// "KIND:SIZE" -> (KIND, SIZE); SIZE empty when there is no colon.
std::pair<std::string_view, std::string_view> SplitKind(std::string_view text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) return {text, {}};
  return {text.substr(0, colon), text.substr(colon + 1)};
}

absl::StatusOr<std::uint64_t> ParseBytes(std::string_view what, std::string_view text) {
  absl::StatusOr<ByteSize> size = ByteSize::Parse(text);
  if (!size.ok()) {
    return absl::InvalidArgumentError(
        internal::Concat(what, ": ", std::string(size.status().message())));
  }
  if (size->bytes() == 0) return absl::InvalidArgumentError(internal::Concat(what, ": size 0"));
  return size->bytes();
}

}  // namespace

absl::StatusOr<VictimSpec> VictimSpec::Parse(std::string_view text) {
  const auto [kind_text, size_text] = SplitKind(text);
  const std::string what = internal::Concat("victim '", text, "'");
  absl::StatusOr<Kind> kind = platform::EnumNames<Kind>(kVictimNames).Parse(kind_text, "victim");
  if (!kind.ok()) {
    return absl::InvalidArgumentError(
        internal::Concat(what, ": ", std::string(kind.status().message())));
  }
  if (size_text.empty()) {
    return absl::InvalidArgumentError(internal::Concat(what, ": needs a size, e.g. ", kind_text,
                                                       ":8B"));
  }
  absl::StatusOr<std::uint64_t> bytes = ParseBytes(what, size_text);
  if (!bytes.ok()) return bytes.status();
  return VictimSpec{*kind, *bytes};
}

std::string VictimSpec::Name() const {
  return internal::Concat(platform::EnumNames<Kind>(kVictimNames).Name(kind), ":",
                          ByteSize::Bytes(bytes).ToString());
}

absl::StatusOr<AggressorSpec> AggressorSpec::Parse(std::string_view text) {
  const auto [kind_text, size_text] = SplitKind(text);
  const std::string what = internal::Concat("aggressor '", text, "'");
  absl::StatusOr<Kind> kind =
      platform::EnumNames<Kind>(kAggressorNames).Parse(kind_text, "aggressor");
  if (!kind.ok()) {
    return absl::InvalidArgumentError(
        internal::Concat(what, ": ", std::string(kind.status().message())));
  }
  AggressorSpec spec{*kind, kDefaultAggressorBytes};
  if (!size_text.empty()) {
    absl::StatusOr<std::uint64_t> bytes = ParseBytes(what, size_text);
    if (!bytes.ok()) return bytes.status();
    spec.bytes = *bytes;
  }
  return spec;
}

std::string AggressorSpec::Name() const {
  const std::string_view kind_name = platform::EnumNames<Kind>(kAggressorNames).Name(kind);
  if (bytes == kDefaultAggressorBytes) return std::string(kind_name);
  return internal::Concat(kind_name, ":", ByteSize::Bytes(bytes).ToString());
}

}  // namespace trestle::fabric
