// The clock behind every stage timestamp (Stamps in trestle.proto).
#pragma once

#include <cstdint>
#include <ctime>

namespace trestle::wire {

// CLOCK_MONOTONIC in nanoseconds: comparable across processes on one host.
inline std::uint64_t MonotonicNanos() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

}  // namespace trestle::wire
