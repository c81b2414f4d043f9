#include "trestle/gateway/gateway_counters.h"

#include "absl/strings/str_format.h"

namespace trestle::gateway {

std::string GatewayCounters::Summary() const {
  const double mean_us = delivered == 0 ? 0.0 : latency_sum_ns / 1e3 / static_cast<double>(delivered);
  return absl::StrFormat(
      "read=%d sent=%d not_ipv4=%d unknown_destination=%d send_refused=%d rejected=%d delivered=%d "
      "written=%d misaddressed=%d held_full=%d write_failed=%d late=%d latency_min_us=%.1f "
      "latency_mean_us=%.1f latency_max_us=%.1f",
      read, sent, not_ipv4, unknown_destination, send_refused, rejected, delivered, written, misaddressed,
      held_full, write_failed, late, latency_min_ns / 1e3, mean_us, latency_max_ns / 1e3);
}

}  // namespace trestle::gateway
