#include "trestle/fabric/time_mode.h"

#include "common/enum_names.h"

namespace trestle::fabric {
namespace {

constexpr internal::EnumName<TimeMode> kTimeModeNames[] = {
    {TimeMode::kVirtual, "virtual"},
    {TimeMode::kPaced, "paced"},
    {TimeMode::kWallclock, "wallclock"},
};

}  // namespace

absl::StatusOr<TimeMode> ParseTimeMode(std::string_view text) {
  return internal::ParseEnum<TimeMode>(kTimeModeNames, text, "time mode");
}

std::string_view TimeModeName(TimeMode mode) {
  return internal::EnumToName<TimeMode>(kTimeModeNames, mode);
}

}  // namespace trestle::fabric
