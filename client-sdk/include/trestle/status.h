// Helpers for the absl::Status values the SDK reports.
//
// An error about one message (a send the daemon rejected, an outcome for a
// transit the simulator does not hold) names the message id in its text and
// also carries it as a status payload, so programs need not parse the text:
//
//   app.OnError([&](const absl::Status& s) {
//     if (std::optional<std::uint64_t> id = trestle::MessageIdOf(s)) Retry(*id);
//   });
#pragma once

#include <cstdint>
#include <optional>

#include "absl/status/status.h"

namespace trestle {

// The payload type URL under which the message id is stored (decimal text).
inline constexpr char kMessageIdPayloadUrl[] = "type.trestle.dev/message_id";

// The message id an error is about, if it is about one.
std::optional<std::uint64_t> MessageIdOf(const absl::Status& status);

// Attaches `id` to `status` (no effect on an OK status).
void SetMessageId(absl::Status& status, std::uint64_t id);

// Lockstep time: a receive ended because the run is quiescent (every app
// blocked, nothing in flight, no wake time left): nothing will ever arrive.
// Distinct from a wall-clock timeout (DeadlineExceeded).
absl::Status QuiescentError();
bool IsQuiescent(const absl::Status& status);

}  // namespace trestle
