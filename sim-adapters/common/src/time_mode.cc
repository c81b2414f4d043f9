#include "trestle/adapter/time_mode.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "trestle/platform/enum_names.h"

namespace trestle::adapter {
namespace {

// One table for both directions, in the order errors list the names.
constexpr platform::EnumName<TimeMode> kTimeModeTable[] = {
    {TimeMode::kVirtual, "virtual"},
    {TimeMode::kPaced, "paced"},
    {TimeMode::kWallclock, "wallclock"},
    {TimeMode::kLockstep, "lockstep"},
};
constexpr platform::EnumNames<TimeMode> kTimeModeNames(kTimeModeTable);

}  // namespace

absl::StatusOr<TimeMode> ParseTimeMode(std::string_view text) {
  return kTimeModeNames.Parse(text, "time mode");
}

std::string_view TimeModeName(TimeMode mode) { return kTimeModeNames.Name(mode); }

absl::StatusOr<TimeMode> AgreeTimeMode(std::string_view daemon_time_mode,
                                       std::optional<TimeMode> flag) {
  absl::StatusOr<TimeMode> daemon = ParseTimeMode(daemon_time_mode);
  if (!daemon.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("the daemon's time_mode '", std::string(daemon_time_mode),
                     "' is not one this adapter runs in (", kTimeModeNames.Joined(), ")"));
  }
  if (flag && *flag != *daemon) {
    return absl::FailedPreconditionError(
        absl::StrCat("--time-mode ", std::string(TimeModeName(*flag)),
                     " disagrees with the daemon's time_mode ", std::string(daemon_time_mode)));
  }
  return *daemon;
}

}  // namespace trestle::adapter
