#include "trestle/status.h"

#include <charconv>
#include <string>

#include "absl/strings/match.h"

namespace trestle {

std::optional<std::uint64_t> MessageIdOf(const absl::Status& status) {
  const auto payload = status.GetPayload(kMessageIdPayloadUrl);
  if (!payload) return std::nullopt;
  const std::string text(*payload);
  std::uint64_t id = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return id;
}

void SetMessageId(absl::Status& status, std::uint64_t id) {
  status.SetPayload(kMessageIdPayloadUrl, absl::Cord(std::to_string(id)));
}

absl::Status QuiescentError() {
  return absl::OutOfRangeError(
      "quiescent: every app of the lockstep run is blocked and nothing is in flight");
}

bool IsQuiescent(const absl::Status& status) {
  return status.code() == absl::StatusCode::kOutOfRange &&
         absl::StartsWith(status.message(), "quiescent:");
}

}  // namespace trestle
