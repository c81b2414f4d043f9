// Times in words for `trestle mpirun` and `trestle status`: a virtual time
// in the unit that reads best, and the lockstep protocol's "no bound"
// values (2^64-1, and 2^64-2 from a simulator with nothing pending) as such.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace trestle {

// True for the values that mean "no bound" rather than a time.
bool IsNoBound(std::uint64_t ns);

// "850 ns", "12.345 us", "1.234567 ms", "2.000000100 s" (exact to the ns);
// "no bound" for IsNoBound values.
std::string VirtualTimeText(std::uint64_t ns);

// Wall time: "3.2 s".
std::string SecondsText(std::chrono::milliseconds ms);

}  // namespace trestle
