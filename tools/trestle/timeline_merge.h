// `trestle mpirun --timeline FILE`: every rank's timeline (libtrestle-mpi's
// Timeline: DIR/rank-K.json, a Chrome trace event per line) merged into one
// trace file that Perfetto (ui.perfetto.dev) or chrome://tracing opens:
// {"displayTimeUnit":"ns","traceEvents":[...]}, a track per rank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace trestle {

struct TimelineMerge {
  std::uint64_t events = 0;
  // Ranks with no timeline file (they never reached MPI_Init's end in the
  // layer), and ranks whose file ends in a cut line (the rank was killed
  // mid-write: the cut line is left out).
  std::vector<int> missing, cut;
};

// Merges DIR/rank-0.json ... DIR/rank-(np-1).json into `out`. An error
// names the file that cannot be written; missing or cut rank files are
// reported in the result, not errors: what the others hold is written.
absl::StatusOr<TimelineMerge> MergeTimelines(const std::string& dir, int np,
                                             const std::string& out);

// MergeTimelines, then says on stderr which ranks were missing or cut and
// (unless `quiet`) how many events went into `out`, or why none did.
void WriteMergedTimeline(const std::string& dir, int np, const std::string& out, bool quiet);

}  // namespace trestle
