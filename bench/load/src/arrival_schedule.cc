#include "arrival_schedule.h"

#include <cmath>

namespace trestle::bench {

ArrivalSchedule::ArrivalSchedule(ArrivalKind kind, double rate, std::uint64_t seed)
    : kind_(kind), mean_gap_ns_(1e9 / rate), rng_(seed), gap_(1.0) {
  // The first Poisson arrival is one exponential gap after the start, like
  // every later one; the first constant arrival is at once.
  if (kind_ == ArrivalKind::kPoisson) {
    poisson_clock_ns_ = gap_(rng_) * mean_gap_ns_;
    next_due_ns_ = static_cast<std::uint64_t>(poisson_clock_ns_);
  }
}

void ArrivalSchedule::Advance() {
  ++count_;
  if (kind_ == ArrivalKind::kConstant) {
    // Computed from the count rather than accumulated, so that rounding does
    // not drift over millions of messages.
    next_due_ns_ = static_cast<std::uint64_t>(std::llround(static_cast<double>(count_) * mean_gap_ns_));
    return;
  }
  poisson_clock_ns_ += gap_(rng_) * mean_gap_ns_;
  next_due_ns_ = static_cast<std::uint64_t>(poisson_clock_ns_);
}

}  // namespace trestle::bench
