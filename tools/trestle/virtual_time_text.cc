#include "virtual_time_text.h"

#include <limits>

#include "fmt/format.h"

namespace trestle {

bool IsNoBound(std::uint64_t ns) { return ns >= std::numeric_limits<std::uint64_t>::max() - 1; }

std::string VirtualTimeText(std::uint64_t ns) {
  if (IsNoBound(ns)) return "no bound";
  if (ns < 1'000) return fmt::format("{} ns", ns);
  if (ns < 1'000'000) return fmt::format("{}.{:03} us", ns / 1'000, ns % 1'000);
  if (ns < 1'000'000'000) return fmt::format("{}.{:06} ms", ns / 1'000'000, ns % 1'000'000);
  return fmt::format("{}.{:09} s", ns / 1'000'000'000, ns % 1'000'000'000);
}

std::string SecondsText(std::chrono::milliseconds ms) {
  return fmt::format("{:.1f} s", static_cast<double>(ms.count()) / 1000.0);
}

}  // namespace trestle
