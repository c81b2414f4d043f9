// The statistics Trestle's experiments report over a list of samples
// (latencies or bandwidths): the mean and nearest-rank percentiles.
// C++17-clean.
#ifndef TRESTLE_FABRIC_SAMPLE_STATISTICS_H_
#define TRESTLE_FABRIC_SAMPLE_STATISTICS_H_

#include <vector>

namespace trestle::fabric {

// The arithmetic mean; NaN for no samples.
double Mean(const std::vector<double>& samples);
// The nearest-rank percentile, p in (0, 100]: the smallest sample with at
// least p % of the samples at or below it. NaN for no samples.
double Percentile(std::vector<double> samples, double p);

}  // namespace trestle::fabric

#endif  // TRESTLE_FABRIC_SAMPLE_STATISTICS_H_
