// TimeMode: how the live fabric adapter relates modelled time to wall time.
//
//   kVirtual    outcome posted at once, t_deliver = t_send + modelled ns.
//               Apps keep a virtual clock (AppClient::Now) that a receive
//               moves to t_deliver.
//   kWallclock  outcome posted at once, t_deliver filled in the same way.
//               Apps ignore virtual time and take a delivery as "now".
//   kPaced      outcome held until wall time start + t_deliver × dilation
//               (start: when the adapter connected), then posted.
//
// kVirtual and kWallclock make the adapter do exactly the same thing; they
// differ only in what the apps expect of t_deliver (docs/fabric.md).
#ifndef TRESTLE_FABRIC_TIME_MODE_H_
#define TRESTLE_FABRIC_TIME_MODE_H_

#include <string_view>

#include "absl/status/statusor.h"

namespace trestle::fabric {

enum class TimeMode { kVirtual, kPaced, kWallclock };

// "virtual", "paced" or "wallclock"; anything else is InvalidArgument naming
// the text and the accepted names.
absl::StatusOr<TimeMode> ParseTimeMode(std::string_view text);
std::string_view TimeModeName(TimeMode mode);

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_TIME_MODE_H_
