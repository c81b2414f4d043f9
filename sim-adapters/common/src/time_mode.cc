#include "trestle/adapter/time_mode.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace trestle::adapter {
namespace {

struct NamedTimeMode {
  TimeMode mode;
  const char* name;
};

// One table for both directions, in the order errors list the names.
constexpr NamedTimeMode kTimeModeNames[] = {
    {TimeMode::kVirtual, "virtual"},
    {TimeMode::kPaced, "paced"},
    {TimeMode::kWallclock, "wallclock"},
    {TimeMode::kLockstep, "lockstep"},
};

constexpr char kAcceptedNames[] = "virtual, paced, wallclock, lockstep";

}  // namespace

absl::StatusOr<TimeMode> ParseTimeMode(std::string_view text) {
  for (const auto& entry : kTimeModeNames) {
    if (text == entry.name) return entry.mode;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown time mode '", std::string(text), "' (", kAcceptedNames, ")"));
}

std::string_view TimeModeName(TimeMode mode) {
  for (const auto& entry : kTimeModeNames) {
    if (entry.mode == mode) return entry.name;
  }
  return "?";
}

absl::StatusOr<TimeMode> AgreeTimeMode(std::string_view daemon_time_mode,
                                       std::optional<TimeMode> flag) {
  absl::StatusOr<TimeMode> daemon = ParseTimeMode(daemon_time_mode);
  if (!daemon.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("the daemon's time_mode '", std::string(daemon_time_mode),
                     "' is not one this adapter runs in (", kAcceptedNames, ")"));
  }
  if (flag && *flag != *daemon) {
    return absl::FailedPreconditionError(
        absl::StrCat("--time-mode ", std::string(TimeModeName(*flag)),
                     " disagrees with the daemon's time_mode ", std::string(daemon_time_mode)));
  }
  return *daemon;
}

}  // namespace trestle::adapter
