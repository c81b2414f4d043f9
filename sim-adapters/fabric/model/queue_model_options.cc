#include "trestle/fabric/queue_model_options.h"

#include <cmath>

#include "common/text.h"

namespace trestle::fabric {

absl::Status QueueModelOptions::Validate() const {
  if (packet_bytes == 0) return absl::InvalidArgumentError("--packet-size: must be at least 1 byte");
  if (!std::isfinite(burstiness) || burstiness < 0 || burstiness > 1000) {
    return absl::InvalidArgumentError(
        internal::Concat("--burstiness: ", burstiness, " is outside [0, 1000]"));
  }
  return absl::OkStatus();
}

}  // namespace trestle::fabric
