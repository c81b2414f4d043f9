// LatencyHistogram: exact count, sum and maximum; percentiles within a
// bucket's width on both scales; the exported buckets.
#include "trestle/platform/latency_histogram.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

namespace trestle::platform {
namespace {

using Scale = LatencyHistogram::Scale;

TEST(LatencyHistogramTest, EmptyIsAllZero) {
  LatencyHistogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.PercentileNs(0.99), 0);
  const LatencySummary s = h.Summary();
  EXPECT_EQ(s.count, 0u);
  EXPECT_EQ(s.p999_us, 0);
  EXPECT_EQ(s.max_us, 0);
}

TEST(LatencyHistogramTest, TheCoarseScaleCountsEachDurationAtMostItsBound) {
  LatencyHistogram h(Scale::kCoarse);
  ASSERT_EQ(h.bounds().size(), 22u);
  EXPECT_EQ(h.bounds().front(), 1'000u);
  EXPECT_EQ(h.bounds().back(), 10'000'000'000u);
  ASSERT_EQ(h.counts().size(), 23u);
  h.Record(1'000);   // at most 1 µs
  h.Record(1'001);   // above 1 µs, at most 2 µs
  h.Record(20'000'000'001);  // above every bound
  EXPECT_EQ(h.counts()[0], 1u);
  EXPECT_EQ(h.counts()[1], 1u);
  EXPECT_EQ(h.counts()[22], 1u);
  EXPECT_EQ(h.count(), 3u);
  EXPECT_EQ(h.sum_ns(), 20'000'002'002u);
  EXPECT_EQ(h.max_ns(), 20'000'000'001u);
  EXPECT_DOUBLE_EQ(h.PercentileNs(1.0), 20'000'000'001.0) << "the last bucket runs to the maximum";
}

TEST(LatencyHistogramTest, PercentilesInterpolateWithinTheirBucket) {
  LatencyHistogram h(Scale::kCoarse);
  for (int i = 0; i < 100; ++i) h.Record(1'500);  // all in (1 µs, 2 µs]
  // Rank 50 of 100 in the bucket: half way from 1 µs to 2 µs, but never
  // above the maximum.
  EXPECT_DOUBLE_EQ(h.PercentileNs(0.5), 1'500.0);
  EXPECT_DOUBLE_EQ(h.PercentileNs(0.25), 1'250.0);
  EXPECT_DOUBLE_EQ(h.PercentileNs(0.99), 1'500.0);
  EXPECT_DOUBLE_EQ(h.MeanNs(), 1'500.0);
}

TEST(LatencyHistogramTest, TheFineScaleIsWithinOnePercentOfTheTruePercentile) {
  LatencyHistogram h(Scale::kFine);
  EXPECT_EQ(h.bounds()[0], 0u);
  EXPECT_EQ(h.bounds()[255], 255u);
  EXPECT_EQ(h.bounds().back(), (std::uint64_t{1} << 40) - 1);
  // Every bucket narrower than 1/128 of the values in it.
  for (std::size_t i = 256; i < h.bounds().size(); ++i) {
    const double width = static_cast<double>(h.bounds()[i] - h.bounds()[i - 1]);
    ASSERT_LE(width / static_cast<double>(h.bounds()[i - 1] + 1), 1.0 / 128) << i;
  }
  // 1..100,000 ns once each: the true p50 is 50,000, p99 99,000, p99.9 99,900.
  std::vector<std::uint64_t> values(100'000);
  for (std::uint64_t i = 0; i < values.size(); ++i) values[i] = i + 1;
  std::shuffle(values.begin(), values.end(), std::mt19937_64(7));
  for (std::uint64_t v : values) h.Record(v);
  EXPECT_NEAR(h.PercentileNs(0.50), 50'000, 500);
  EXPECT_NEAR(h.PercentileNs(0.99), 99'000, 990);
  EXPECT_NEAR(h.PercentileNs(0.999), 99'900, 999);
  const LatencySummary s = h.Summary();
  EXPECT_EQ(s.count, 100'000u);
  EXPECT_DOUBLE_EQ(s.max_us, 100.0);
  EXPECT_DOUBLE_EQ(s.mean_us, 50.0005);
  h.Clear();
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.max_ns(), 0u);
  EXPECT_EQ(h.counts()[100], 0u);
}

TEST(LatencyHistogramTest, SmallValuesOnTheFineScaleAreExact) {
  LatencyHistogram h(Scale::kFine);
  for (int i = 0; i < 10; ++i) h.Record(42);
  EXPECT_EQ(h.counts()[42], 10u);
  EXPECT_NEAR(h.PercentileNs(0.5), 42, 1);
}

}  // namespace
}  // namespace trestle::platform
