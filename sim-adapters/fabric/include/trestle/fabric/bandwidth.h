// Bandwidth: a data rate, held as bytes per nanosecond (numerically equal to
// GB/s). Parsed from text with an explicit unit; a bare number is an error.
//
// Units: bits per second  bps Kbps Mbps Gbps Tbps (decimal, 1 Gbps = 1e9 bit/s)
//        bytes per second Bps KBps MBps GBps TBps (decimal)
//                         KiBps MiBps GiBps TiBps (binary, 1 GiBps = 2^30 B/s)
// Examples: "400Gbps" is 50 bytes/ns; "50GBps" is 50 bytes/ns; "50GiBps" is
// 53.687 bytes/ns.
#ifndef TRESTLE_FABRIC_BANDWIDTH_H_
#define TRESTLE_FABRIC_BANDWIDTH_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace trestle::fabric {

class Bandwidth {
 public:
  constexpr Bandwidth() = default;

  static constexpr Bandwidth BytesPerNs(double v) { return Bandwidth(v); }
  static constexpr Bandwidth Gbps(double v) { return Bandwidth(v / 8.0); }

  // Parses "<number><unit>", e.g. "400Gbps". Errors (InvalidArgument) name the
  // offending text: a missing or unknown unit, a malformed, negative or zero
  // number.
  static absl::StatusOr<Bandwidth> Parse(std::string_view text);

  constexpr double bytes_per_ns() const { return bytes_per_ns_; }

  // Human form in the largest decimal bit unit that keeps the value >= 1,
  // e.g. "400Gbps". Round-trips through Parse up to printing precision.
  std::string ToString() const;

  constexpr bool operator==(const Bandwidth& other) const {
    return bytes_per_ns_ == other.bytes_per_ns_;
  }
  constexpr bool operator!=(const Bandwidth& other) const { return !(*this == other); }

 private:
  constexpr explicit Bandwidth(double bytes_per_ns) : bytes_per_ns_(bytes_per_ns) {}
  double bytes_per_ns_ = 0.0;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_BANDWIDTH_H_
