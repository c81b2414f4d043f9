// Duration: a span of virtual time, held in nanoseconds (double, so sub-ns
// values from bandwidth arithmetic survive). Parsed with an explicit unit;
// a bare number is an error.
//
// Units: ps ns us ms s. Examples: "500ns", "1.5us" (1500 ns), "0ns".
#ifndef TRESTLE_FABRIC_DURATION_H_
#define TRESTLE_FABRIC_DURATION_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace trestle::fabric {

class Duration {
 public:
  constexpr Duration() = default;

  static constexpr Duration Nanoseconds(double ns) { return Duration(ns); }

  // Parses "<number><unit>". Errors (InvalidArgument) name the offending
  // text: a missing or unknown unit, a malformed or negative number.
  static absl::StatusOr<Duration> Parse(std::string_view text);

  constexpr double ns() const { return ns_; }

  // Human form, e.g. "500ns", "1.5us", "2ms".
  std::string ToString() const;

  constexpr bool operator==(const Duration& other) const { return ns_ == other.ns_; }
  constexpr bool operator!=(const Duration& other) const { return ns_ != other.ns_; }

 private:
  constexpr explicit Duration(double ns) : ns_(ns) {}
  double ns_ = 0.0;
};

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_DURATION_H_
