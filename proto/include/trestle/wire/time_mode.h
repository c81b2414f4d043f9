// TimeMode (protocol_facts.proto) by name, both ways: "wallclock", "paced",
// "virtual", "lockstep", the names EffectiveConfig.time_mode carries, the
// daemon's time_mode setting takes and an adapter's --time-mode flag takes.
// TIME_MODE_UNSPECIFIED has no name. Header-only and C++17-clean (the ns-3
// adapter compiles as C++17).
#pragma once

#include <string_view>

#include "absl/status/statusor.h"
#include "protocol_facts.pb.h"
#include "trestle/platform/enum_names.h"

namespace trestle::wire {

// In the order errors and help texts list them.
inline constexpr platform::EnumName<TimeMode> kTimeModeTable[] = {
    {TIME_MODE_WALLCLOCK, "wallclock"},
    {TIME_MODE_PACED, "paced"},
    {TIME_MODE_VIRTUAL, "virtual"},
    {TIME_MODE_LOCKSTEP, "lockstep"},
};
inline constexpr platform::EnumNames<TimeMode> kTimeModeNames(kTimeModeTable);

// The mode named `text`, or InvalidArgument
// "unknown time mode 'warp' (wallclock, paced, virtual, lockstep)".
inline absl::StatusOr<TimeMode> ParseTimeMode(std::string_view text) {
  return kTimeModeNames.Parse(text, "time mode");
}

// "lockstep" for TIME_MODE_LOCKSTEP; "?" for TIME_MODE_UNSPECIFIED.
inline std::string_view TimeModeName(TimeMode mode) { return kTimeModeNames.Name(mode); }

}  // namespace trestle::wire
