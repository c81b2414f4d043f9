// The time mode an adapter runs in (wire::TimeMode, trestle/wire/time_mode.h).
// The daemon chooses it (`trestled --time-mode`) and announces it in its
// Welcome; an adapter runs in the daemon's mode, and a --time-mode flag that
// says otherwise is an error (AgreeTimeMode).
//
//   virtual    outcomes posted at once, t_deliver = t_send + modelled ns.
//              Apps keep a virtual clock (AppClient::Now) that a receive
//              moves to t_deliver.
//   wallclock  outcomes posted at once, t_deliver filled in the same way.
//              Apps ignore virtual time and take a delivery as "now".
//   paced      outcomes held until wall time start + t_deliver × dilation
//              (start: when the adapter's session became ready), then posted.
//   lockstep   the daemon grants time: SimAdapter holds transits until a
//              Grant covers them, hands them over in (t_send, source,
//              sequence) order, then calls TransitHandler::HandleGrant, and
//              reports how far the handler has reached (docs/protocol.md).
//
// virtual and wallclock make an adapter do exactly the same thing; they
// differ only in what the apps expect of t_deliver (docs/fabric.md).
#ifndef TRESTLE_ADAPTER_TIME_MODE_H_
#define TRESTLE_ADAPTER_TIME_MODE_H_

#include <optional>
#include <string_view>

#include "absl/status/statusor.h"
#include "trestle/wire/time_mode.h"

namespace trestle::adapter {

// The mode to run in, from the daemon's Welcome (`daemon_time_mode`, its
// EffectiveConfig.time_mode) and the adapter's --time-mode flag (`flag`,
// unset when not given). Errors (FailedPrecondition): the flag disagrees
// ("--time-mode paced disagrees with the daemon's time_mode virtual"), or the
// daemon announced a mode this adapter does not know.
absl::StatusOr<wire::TimeMode> AgreeTimeMode(std::string_view daemon_time_mode,
                                             std::optional<wire::TimeMode> flag);

}  // namespace trestle::adapter

#endif  // TRESTLE_ADAPTER_TIME_MODE_H_
