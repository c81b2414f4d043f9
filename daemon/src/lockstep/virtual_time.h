// Virtual time arithmetic of the lockstep coordinator: kNever is "no bound"
// (2^64 - 1), and sums saturate there.
#pragma once

#include <cstdint>
#include <limits>

namespace trestle::daemon {

inline constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

inline std::uint64_t SaturatingAdd(std::uint64_t a, std::uint64_t b) {
  return a > kNever - b ? kNever : a + b;
}

}  // namespace trestle::daemon
