#include "trestle/adapter/loss_policy.h"

#include "absl/strings/str_cat.h"

namespace trestle::adapter {
namespace {

// Mixed into the seed so that loss draws and model choices are independent
// streams.
constexpr std::uint64_t kLossStream = 0x9e3779b97f4a7c15ull;

}  // namespace

LossPolicy::LossPolicy(double rate, std::uint64_t seed) : rate_(rate), rng_(seed ^ kLossStream) {}

absl::Status LossPolicy::Validate(double rate) {
  if (!(rate >= 0 && rate <= 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("loss rate must be between 0 and 1, got ", rate));
  }
  return absl::OkStatus();
}

}  // namespace trestle::adapter
