// CombineRuns: one configuration run several times (`trestle bench
// --repeat N`), folded into one row. On a shared machine a single run's tail
// percentiles can differ several-fold from the next run's; the median of a
// few runs is what a comparison should rest on.
//
// Counts (sent, delivered, lost, duplicated, ...) add up over the runs, so a
// loss in any run shows. Every rate, duration, latency, CPU and RSS figure is
// the median of the runs' figures, taken figure by figure (the mean of the
// middle two for an even count); an optional figure is the median of the runs
// that measured it. The first error is kept. `runs` and `resident_p99_runs`
// record what was combined.
#pragma once

#include <span>

#include "bench_result.h"

namespace trestle::bench {

// `runs` must not be empty; all runs are of the same configuration.
BenchResult CombineRuns(std::span<const BenchResult> runs);
// The same for rows: the bridge's runs combined, and the floor's runs (the
// rows that have one).
BenchRow CombineRows(std::span<const BenchRow> rows);

}  // namespace trestle::bench
