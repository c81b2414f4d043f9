#include "trestle/adapter/time_mode.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace trestle::adapter {

absl::StatusOr<wire::TimeMode> AgreeTimeMode(std::string_view daemon_time_mode,
                                             std::optional<wire::TimeMode> flag) {
  absl::StatusOr<wire::TimeMode> daemon = wire::ParseTimeMode(daemon_time_mode);
  if (!daemon.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("the daemon's time_mode '", std::string(daemon_time_mode),
                     "' is not one this adapter runs in (", wire::kTimeModeNames.Joined(), ")"));
  }
  if (flag && *flag != *daemon) {
    return absl::FailedPreconditionError(
        absl::StrCat("--time-mode ", std::string(wire::TimeModeName(*flag)),
                     " disagrees with the daemon's time_mode ", std::string(daemon_time_mode)));
  }
  return *daemon;
}

}  // namespace trestle::adapter
