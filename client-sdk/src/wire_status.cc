#include "wire_status.h"

#include <string>

#include "trestle/status.h"

namespace trestle::internal {

absl::StatusCode StatusCodeFromWire(wire::ErrorCode code) {
  switch (code) {
    case wire::UNAUTHENTICATED:
      return absl::StatusCode::kUnauthenticated;
    case wire::PERMISSION_DENIED:
      return absl::StatusCode::kPermissionDenied;
    case wire::ALREADY_EXISTS:
      return absl::StatusCode::kAlreadyExists;
    case wire::NOT_FOUND:
      return absl::StatusCode::kNotFound;
    case wire::BAD_FRAME:
    case wire::BAD_REQUEST:
      return absl::StatusCode::kInvalidArgument;
    case wire::UNSUPPORTED_VERSION:
    case wire::WRONG_TIME_MODE:
      return absl::StatusCode::kFailedPrecondition;
    case wire::SHUTTING_DOWN:
    case wire::UNAVAILABLE:
      return absl::StatusCode::kUnavailable;
    case wire::RESOURCE_EXHAUSTED:
      return absl::StatusCode::kResourceExhausted;
    default:
      return absl::StatusCode::kUnknown;
  }
}

absl::Status StatusFromWireError(const wire::Error& error, std::string_view context) {
  std::string text;
  if (!context.empty()) {
    text.append(context);
    text.append(": ");
  }
  text.append(error.text().empty() ? wire::ErrorCode_Name(error.code()) : error.text());
  // An Error frame never means success, whatever code it carries.
  absl::Status status(StatusCodeFromWire(error.code()), text);
  if (error.ref_id() != 0) SetMessageId(status, error.ref_id());
  return status;
}

}  // namespace trestle::internal
