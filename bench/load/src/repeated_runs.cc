#include "repeated_runs.h"

#include <algorithm>
#include <vector>

namespace trestle::bench {
namespace {

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// out.<field> = the median of runs[i].<field>; `field` maps a result (const
// or not) to the figure.
template <typename Field>
void TakeMedian(std::span<const BenchResult> runs, BenchResult& out, Field field) {
  std::vector<double> values;
  values.reserve(runs.size());
  for (const BenchResult& r : runs) values.push_back(static_cast<double>(field(r)));
  field(out) = Median(std::move(values));
}

template <typename Field>
void TakeOptionalMedian(std::span<const BenchResult> runs, BenchResult& out, Field field) {
  std::vector<double> values;
  for (const BenchResult& r : runs) {
    if (field(r).has_value()) values.push_back(*field(r));
  }
  field(out) = values.empty() ? std::nullopt : std::optional<double>(Median(std::move(values)));
}

template <typename Summary>
void TakeSummaryMedians(std::span<const BenchResult> runs, BenchResult& out, Summary summary) {
  TakeMedian(runs, out, [&](auto& r) -> auto& { return summary(r).mean_us; });
  TakeMedian(runs, out, [&](auto& r) -> auto& { return summary(r).p50_us; });
  TakeMedian(runs, out, [&](auto& r) -> auto& { return summary(r).p99_us; });
  TakeMedian(runs, out, [&](auto& r) -> auto& { return summary(r).p999_us; });
  TakeMedian(runs, out, [&](auto& r) -> auto& { return summary(r).max_us; });
}

}  // namespace

BenchResult CombineRuns(std::span<const BenchResult> runs) {
  BenchResult out = runs.front();
  out.runs = static_cast<std::uint32_t>(runs.size());
  out.resident_p99_runs.clear();
  for (std::uint64_t BenchResult::*count :
       {&BenchResult::sent, &BenchResult::delivered, &BenchResult::undelivered,
        &BenchResult::sent_to_stalled, &BenchResult::lost, &BenchResult::duplicated,
        &BenchResult::unknown, &BenchResult::send_failures, &BenchResult::async_errors,
        &BenchResult::deferred_sends, &BenchResult::daemon_accepted,
        &BenchResult::daemon_delivered, &BenchResult::daemon_dropped, &BenchResult::daemon_expired,
        &BenchResult::daemon_in_flight, &BenchResult::sent_across, &BenchResult::daemon_forwarded,
        &BenchResult::daemon_from_peers}) {
    out.*count = 0;
    for (const BenchResult& r : runs) out.*count += r.*count;
  }
  for (const BenchResult& r : runs) {
    out.resident_p99_runs.push_back(r.resident.p99_us);
    if (out.error.empty()) out.error = r.error;
  }
  for (double BenchResult::*figure :
       {&BenchResult::send_rate, &BenchResult::throughput, &BenchResult::measured_seconds,
        &BenchResult::connect_seconds, &BenchResult::drain_seconds}) {
    TakeMedian(runs, out, [figure](auto& r) -> auto& { return r.*figure; });
  }
  for (std::optional<double> BenchResult::*figure :
       {&BenchResult::daemon_cpu_pct, &BenchResult::daemon_rss_mb,
        &BenchResult::daemon_idle_cpu_pct, &BenchResult::sim_cpu_pct,
        &BenchResult::generator_cpu_pct}) {
    TakeOptionalMedian(runs, out, [figure](auto& r) -> auto& { return r.*figure; });
  }
  // Several daemons: each one's counts add up too; its CPU and RSS are the
  // median over the runs.
  for (std::size_t d = 0; d < out.per_daemon.size(); ++d) {
    DaemonResult& sum = out.per_daemon[d];
    for (std::uint64_t DaemonResult::*count :
         {&DaemonResult::sent, &DaemonResult::received, &DaemonResult::accepted,
          &DaemonResult::delivered, &DaemonResult::forwarded, &DaemonResult::from_peers,
          &DaemonResult::in_flight}) {
      sum.*count = 0;
      for (const BenchResult& r : runs) {
        if (d < r.per_daemon.size()) sum.*count += r.per_daemon[d].*count;
      }
    }
    for (const BenchResult& r : runs) {
      sum.counters_known = sum.counters_known && d < r.per_daemon.size() &&
                           r.per_daemon[d].counters_known;
    }
    for (std::optional<double> DaemonResult::*figure : {&DaemonResult::cpu_pct,
                                                        &DaemonResult::rss_mb}) {
      std::vector<double> values;
      for (const BenchResult& r : runs) {
        if (d < r.per_daemon.size() && (r.per_daemon[d].*figure).has_value()) {
          values.push_back(*(r.per_daemon[d].*figure));
        }
      }
      sum.*figure = values.empty() ? std::nullopt : std::optional<double>(Median(values));
    }
  }
  TakeSummaryMedians(runs, out, [](auto& r) -> auto& { return r.resident; });
  TakeSummaryMedians(runs, out, [](auto& r) -> auto& { return r.e2e; });
  for (PathResult BenchResult::*path : {&BenchResult::stayed, &BenchResult::crossed}) {
    (out.*path).delivered = 0;
    for (const BenchResult& r : runs) (out.*path).delivered += (r.*path).delivered;
    TakeMedian(runs, out, [path](auto& r) -> auto& { return (r.*path).throughput; });
    TakeSummaryMedians(runs, out, [path](auto& r) -> auto& { return (r.*path).e2e; });
  }
  for (std::size_t i = 0; i < kStageNames.size(); ++i) {
    TakeSummaryMedians(runs, out, [i](auto& r) -> auto& { return r.stages[i]; });
  }
  return out;
}

BenchRow CombineRows(std::span<const BenchRow> rows) {
  std::vector<BenchResult> bridges;
  std::vector<BenchResult> floors;
  for (const BenchRow& r : rows) {
    bridges.push_back(r.bridge);
    if (r.floor) floors.push_back(*r.floor);
  }
  BenchRow out{CombineRuns(bridges), std::nullopt};
  if (!floors.empty()) out.floor = CombineRuns(floors);
  return out;
}

}  // namespace trestle::bench
