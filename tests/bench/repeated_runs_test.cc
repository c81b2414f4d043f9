// CombineRuns folds repeated runs of one configuration into one row: counts
// add up (a loss in any run shows), figures are medians.
#include "repeated_runs.h"

#include <gtest/gtest.h>

#include <vector>

namespace trestle::bench {
namespace {

BenchResult OneRun(std::uint64_t sent, std::uint64_t lost, double p99, std::optional<double> cpu) {
  BenchResult r;
  r.sent = sent;
  r.delivered = sent - lost;
  r.lost = lost;
  r.daemon_accepted = sent;
  r.resident.p99_us = p99;
  r.resident.p50_us = p99 / 10;
  r.stages[2].p99_us = p99 * 2;
  r.throughput = p99;  // any figure will do: the median is taken per figure
  r.daemon_cpu_pct = cpu;
  return r;
}

TEST(CombineRuns, CountsAddUpAndALossInAnyRunShows) {
  const std::vector<BenchResult> runs = {OneRun(100, 0, 300, 10), OneRun(100, 2, 900, 20),
                                         OneRun(100, 0, 200, 30)};
  const BenchResult r = CombineRuns(runs);
  EXPECT_EQ(r.sent, 300u);
  EXPECT_EQ(r.delivered, 298u);
  EXPECT_EQ(r.lost, 2u);
  EXPECT_EQ(r.daemon_accepted, 300u);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.runs, 3u);
  EXPECT_EQ(r.resident_p99_runs, (std::vector<double>{300, 900, 200}));
}

TEST(CombineRuns, EachFigureIsItsOwnMedian) {
  const std::vector<BenchResult> runs = {OneRun(10, 0, 300, 30), OneRun(10, 0, 900, 10),
                                         OneRun(10, 0, 200, 20)};
  const BenchResult r = CombineRuns(runs);
  EXPECT_DOUBLE_EQ(r.resident.p99_us, 300);
  EXPECT_DOUBLE_EQ(r.resident.p50_us, 30);
  EXPECT_DOUBLE_EQ(r.stages[2].p99_us, 600);
  EXPECT_DOUBLE_EQ(r.throughput, 300);
  EXPECT_DOUBLE_EQ(*r.daemon_cpu_pct, 20);  // from another run than the p99's
  EXPECT_TRUE(r.ok());
}

TEST(CombineRuns, AnEvenCountAveragesTheMiddleTwoAndSkipsUnmeasuredFigures) {
  const std::vector<BenchResult> runs = {OneRun(10, 0, 100, std::nullopt), OneRun(10, 0, 400, 8),
                                         OneRun(10, 0, 200, 4), OneRun(10, 0, 900, std::nullopt)};
  const BenchResult r = CombineRuns(runs);
  EXPECT_DOUBLE_EQ(r.resident.p99_us, 300);
  EXPECT_DOUBLE_EQ(*r.daemon_cpu_pct, 6);
  EXPECT_FALSE(r.sim_cpu_pct.has_value());
}

TEST(CombineRuns, ASingleRunIsUnchangedAndTheFirstErrorIsKept) {
  BenchResult failed = OneRun(5, 0, 50, 1);
  failed.error = "daemon did not start";
  const std::vector<BenchResult> one = {OneRun(5, 0, 50, 1)};
  EXPECT_DOUBLE_EQ(CombineRuns(one).resident.p99_us, 50);
  EXPECT_EQ(CombineRuns(one).sent, 5u);
  const std::vector<BenchResult> two = {OneRun(5, 0, 50, 1), failed};
  EXPECT_EQ(CombineRuns(two).error, "daemon did not start");
}

TEST(CombineRuns, EachDaemonsCountsAddUpAndItsCpuIsItsMedian) {
  std::vector<BenchResult> runs;
  for (double cpu : {30.0, 10.0, 20.0}) {
    BenchResult r = OneRun(100, 0, 100, cpu);
    r.sent_across = 100;
    r.daemon_forwarded = 150;
    r.per_daemon.resize(2);
    r.per_daemon[0].sent = 60;
    r.per_daemon[0].forwarded = 90;
    r.per_daemon[0].counters_known = true;
    r.per_daemon[0].cpu_pct = cpu;
    r.per_daemon[1].sent = 40;
    r.per_daemon[1].counters_known = cpu != 10.0;  // one run without its counters
    r.stayed = {40, cpu * 100, {}};
    r.stayed.e2e.p50_us = 400 - cpu;
    r.crossed = {60, cpu * 1000, {}};
    runs.push_back(r);
  }
  const BenchResult r = CombineRuns(runs);
  EXPECT_EQ(r.sent_across, 300u);
  // Each path's arrivals add up; its rate and latency are medians.
  EXPECT_EQ(r.stayed.delivered, 120u);
  EXPECT_DOUBLE_EQ(r.stayed.throughput, 2'000);
  EXPECT_DOUBLE_EQ(r.stayed.e2e.p50_us, 380);
  EXPECT_EQ(r.crossed.delivered, 180u);
  EXPECT_DOUBLE_EQ(r.crossed.throughput, 20'000);
  EXPECT_EQ(r.daemon_forwarded, 450u);
  ASSERT_EQ(r.per_daemon.size(), 2u);
  EXPECT_EQ(r.per_daemon[0].sent, 180u);
  EXPECT_EQ(r.per_daemon[0].forwarded, 270u);
  EXPECT_EQ(r.per_daemon[1].sent, 120u);
  EXPECT_DOUBLE_EQ(*r.per_daemon[0].cpu_pct, 20);
  EXPECT_FALSE(r.per_daemon[1].cpu_pct.has_value());
  EXPECT_TRUE(r.per_daemon[0].counters_known);
  EXPECT_FALSE(r.per_daemon[1].counters_known);
}

}  // namespace
}  // namespace trestle::bench
