// TimeMode: how a run relates virtual time to wall time. The daemon chooses
// it (`trestled --time-mode`) and announces it in its Welcome; an adapter
// runs in the daemon's mode, and a --time-mode flag that says otherwise is an
// error (AgreeTimeMode).
//
//   kVirtual    outcomes posted at once, t_deliver = t_send + modelled ns.
//               Apps keep a virtual clock (AppClient::Now) that a receive
//               moves to t_deliver.
//   kWallclock  outcomes posted at once, t_deliver filled in the same way.
//               Apps ignore virtual time and take a delivery as "now".
//   kPaced      outcomes held until wall time start + t_deliver × dilation
//               (start: when the adapter's session became ready), then posted.
//
//   kLockstep   the daemon grants time: SimAdapter holds transits until a
//               Grant covers them, hands them over in (t_send, source,
//               sequence) order, then calls TransitHandler::HandleGrant, and
//               reports how far the handler has reached (docs/protocol.md).
//
// kVirtual and kWallclock make an adapter do exactly the same thing; they
// differ only in what the apps expect of t_deliver (docs/fabric.md).
#ifndef TRESTLE_ADAPTER_TIME_MODE_H_
#define TRESTLE_ADAPTER_TIME_MODE_H_

#include <optional>
#include <string_view>

#include "absl/status/statusor.h"

namespace trestle::adapter {

enum class TimeMode { kVirtual, kPaced, kWallclock, kLockstep };

// "virtual", "paced", "wallclock" or "lockstep"; anything else is InvalidArgument naming
// the text and the accepted names.
absl::StatusOr<TimeMode> ParseTimeMode(std::string_view text);
std::string_view TimeModeName(TimeMode mode);

// The mode to run in, from the daemon's Welcome (`daemon_time_mode`, its
// EffectiveConfig.time_mode) and the adapter's --time-mode flag (`flag`,
// unset when not given). Errors (FailedPrecondition): the flag disagrees
// ("--time-mode paced disagrees with the daemon's time_mode virtual"), or the
// daemon announced a mode this adapter does not know.
absl::StatusOr<TimeMode> AgreeTimeMode(std::string_view daemon_time_mode,
                                       std::optional<TimeMode> flag);

}  // namespace trestle::adapter

#endif  // TRESTLE_ADAPTER_TIME_MODE_H_
