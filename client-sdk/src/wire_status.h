// Mapping between the daemon's Error frames and absl::Status, so that every
// SDK call reports errors the same way.
#pragma once

#include <string_view>

#include "absl/status/status.h"
#include "trestle.pb.h"

namespace trestle::internal {

// The absl code for a wire ErrorCode (see the table in trestle/client.h).
absl::StatusCode StatusCodeFromWire(wire::ErrorCode code);

// A Status carrying the daemon's code and text, prefixed with `context`
// (e.g. "connect to 127.0.0.1:7878") when it is not empty, and the Error's
// ref_id as message id (see trestle/status.h) when it has one.
absl::Status StatusFromWireError(const wire::Error& error, std::string_view context = {});

}  // namespace trestle::internal
