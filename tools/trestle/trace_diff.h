// `trestle trace diff A B`: compares two message traces (trestled --trace;
// docs/protocol.md, "Trace") as sets of messages keyed by (src, seq), so
// that the order in which messages ended, which may vary, does not count.
// Two lockstep runs of the same experiment must give identical traces.
#pragma once

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"

namespace CLI {
class App;
}

namespace trestle {

struct TraceDiff {
  std::size_t messages_a = 0;
  std::size_t messages_b = 0;
  std::size_t differing = 0;  // keys in one trace only, or with different lines
  std::string first;          // the first difference by key, in words; "" when identical
};

// Errors name the file and, for a malformed line, its number.
absl::StatusOr<TraceDiff> CompareTraces(const std::string& a, const std::string& b);

// Registers `trace diff A B`: prints "identical (N messages)" and exits 0, or
// the first difference and the count and exits 1; 2 on unreadable input.
void RegisterTraceCommands(CLI::App& app);

}  // namespace trestle
