#include "bench_report.h"

#include <cerrno>
#include <cstring>
#include <optional>

#include "absl/strings/str_format.h"

namespace trestle::bench {
namespace {

std::string RateText(const BenchConfig& c) {
  return c.closed_loop() ? std::string("max") : absl::StrFormat("%g", c.rate);
}

std::string ModeText(const BenchResult& r) {
  std::string mode = r.config.pull ? "pull" : "push";
  if (r.transport != "tcp") mode += ", " + r.transport;
  if (r.config.connections == 1) mode += ", 1 conn";
  return mode;
}

// One decimal, or "n/a" for a figure that could not be measured.
std::string OneDecimalOrNa(const std::optional<double>& v) {
  return v ? absl::StrFormat("%.1f", *v) : std::string("n/a");
}

nlohmann::json OptionalJson(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

// `bridge` as a multiple of `floor`, one decimal; "n/a" without a floor figure.
std::string Ratio(double bridge, double floor) {
  return floor > 0 ? absl::StrFormat("%.1f", bridge / floor) : std::string("n/a");
}

// Adds <prefix>mean_us, p50_us, p99_us, p999_us and max_us to `j`.
void AddSummary(const std::string& prefix, const platform::LatencySummary& s,
                nlohmann::json& j) {
  j[prefix + "mean_us"] = s.mean_us;
  j[prefix + "p50_us"] = s.p50_us;
  j[prefix + "p99_us"] = s.p99_us;
  j[prefix + "p999_us"] = s.p999_us;
  j[prefix + "max_us"] = s.max_us;
}

// What a run carried and how long it took, for the bridge's JSON line and
// for its floor's.
void AddRunFigures(const BenchResult& r, nlohmann::json& j) {
  j["sent"] = r.sent;
  j["delivered"] = r.delivered;
  j["undelivered"] = r.undelivered;
  j["sent_to_stalled"] = r.sent_to_stalled;
  j["lost"] = r.lost;
  j["duplicated"] = r.duplicated;
  j["unknown"] = r.unknown;
  j["send_failures"] = r.send_failures;
  j["deferred_sends"] = r.deferred_sends;
  j["async_errors"] = r.async_errors;
  AddSummary("resident_", r.resident, j);
  AddSummary("e2e_", r.e2e, j);
  nlohmann::json stages;
  for (std::size_t i = 0; i < kStageNames.size(); ++i) {
    AddSummary("", r.stages[i], stages[kStageNames[i]]);
  }
  j["stages"] = stages;
  j["send_rate_msg_s"] = r.send_rate;
  j["throughput_msg_s"] = r.throughput;
  j["measured_s"] = r.measured_seconds;
  j["connect_s"] = r.connect_seconds;
  j["drain_s"] = r.drain_seconds;
  j["error"] = r.error;
}

// A path's figures (several daemons), or null with one daemon.
nlohmann::json PathJson(const BenchResult& r, const PathResult& p) {
  if (r.config.daemons <= 1) return nullptr;
  nlohmann::json j;
  j["delivered"] = p.delivered;
  j["throughput_msg_s"] = p.throughput;
  AddSummary("e2e_", p.e2e, j);
  return j;
}

nlohmann::json PerDaemonJson(const std::vector<DaemonResult>& daemons) {
  if (daemons.empty()) return nullptr;
  nlohmann::json list = nlohmann::json::array();
  for (const DaemonResult& d : daemons) {
    nlohmann::json j;
    j["address"] = d.address;
    j["apps"] = d.apps;
    j["sent"] = d.sent;
    j["received"] = d.received;
    j["counters_known"] = d.counters_known;
    j["accepted"] = d.accepted;
    j["delivered"] = d.delivered;
    j["forwarded"] = d.forwarded;
    j["from_peers"] = d.from_peers;
    j["in_flight"] = d.in_flight;
    j["cpu_pct"] = OptionalJson(d.cpu_pct);
    j["rss_mb"] = OptionalJson(d.rss_mb);
    list.push_back(std::move(j));
  }
  return list;
}

// The floor's line: its figures, and the CPU of its relay and echo.
nlohmann::json FloorJson(const BenchResult& f) {
  nlohmann::json j;
  AddRunFigures(f, j);
  j["relay_cpu_pct"] = OptionalJson(f.daemon_cpu_pct);
  j["echo_cpu_pct"] = OptionalJson(f.sim_cpu_pct);
  return j;
}

}  // namespace

BenchReport::BenchReport(std::FILE* table_out, std::string json_path, Columns columns)
    : table_out_(table_out), json_path_(std::move(json_path)), columns_(columns) {}

absl::Status BenchReport::Open() {
  if (json_path_.empty()) return absl::OkStatus();
  json_.open(json_path_, std::ios::out | std::ios::trunc);
  if (!json_) {
    return absl::InvalidArgumentError("cannot write " + json_path_ + ": " + std::strerror(errno));
  }
  return absl::OkStatus();
}

std::string BenchReport::MarkdownHeader(Columns columns) {
  std::string names = "| nodes | rate | mode | store | sent | delivered | lost | dup |";
  std::string align = "|---:|---:|---|---|---:|---:|---:|---:|";
  if (columns.stalled) {
    names += " stalled | to stalled | undelivered |";
    align += "---:|---:|---:|";
  }
  if (columns.daemons) {
    names += " daemons | across |";
    align += "---:|---:|";
  }
  names +=
      " resident mean µs | resident p50 µs | resident p99 µs | resident p99.9 µs | e2e p50 µs | "
      "e2e p99 µs | throughput msg/s | CPU % | RSS MB |";
  align += "---:|---:|---:|---:|---:|---:|---:|---:|---:|";
  if (columns.floor) {
    names +=
        " floor resident p50 µs | floor resident p99 µs | floor e2e p50 µs | floor e2e p99 µs | "
        "resident p99 ÷ floor | e2e p99 ÷ floor |";
    align += "---:|---:|---:|---:|---:|---:|";
  }
  return names + "\n" + align + "\n";
}

std::string BenchReport::MarkdownRow(const BenchRow& row, Columns columns) {
  const BenchResult& r = row.bridge;
  std::string text =
      absl::StrFormat("| %u | %s | %s | %s | %u | %u | %u | %u |", r.config.nodes,
                      RateText(r.config), ModeText(r), r.config.store, r.sent, r.delivered, r.lost,
                      r.duplicated);
  if (columns.stalled) {
    absl::StrAppendFormat(&text, " %u | %u | %u |", r.config.stalled_apps, r.sent_to_stalled,
                          r.undelivered);
  }
  if (columns.daemons) {
    absl::StrAppendFormat(&text, " %u%s | %u |", r.config.daemons,
                          r.config.peers == PeerChoice::kAny
                              ? ""
                              : absl::StrFormat(" (%s)", PeerChoiceName(r.config.peers)),
                          r.sent_across);
  }
  absl::StrAppendFormat(&text, " %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.0f | %s | %s |",
                        r.resident.mean_us, r.resident.p50_us, r.resident.p99_us,
                        r.resident.p999_us, r.e2e.p50_us, r.e2e.p99_us, r.throughput,
                        OneDecimalOrNa(r.daemon_cpu_pct), OneDecimalOrNa(r.daemon_rss_mb));
  if (columns.floor) {
    if (row.floor) {
      const BenchResult& f = *row.floor;
      absl::StrAppendFormat(&text, " %.1f | %.1f | %.1f | %.1f | %s | %s |", f.resident.p50_us,
                            f.resident.p99_us, f.e2e.p50_us, f.e2e.p99_us,
                            Ratio(r.resident.p99_us, f.resident.p99_us),
                            Ratio(r.e2e.p99_us, f.e2e.p99_us));
    } else {
      text += " n/a | n/a | n/a | n/a | n/a | n/a |";
    }
  }
  return text + "\n";
}

nlohmann::json BenchReport::ToJson(const BenchRow& row) {
  const BenchResult& r = row.bridge;
  const BenchConfig& c = r.config;
  nlohmann::json j;
  j["nodes"] = c.nodes;
  j["rate"] = c.closed_loop() ? nlohmann::json("max") : nlohmann::json(c.rate);
  j["window"] = c.window;
  j["mode"] = c.pull ? "pull" : "push";
  j["transport"] = r.transport;
  j["connections"] = c.connections;
  j["store"] = c.store;
  j["size"] = c.size;
  j["arrivals"] = c.arrivals == ArrivalKind::kPoisson ? "poisson" : "constant";
  j["seed"] = c.seed;
  j["duration_s"] = static_cast<double>(c.duration.count()) / 1e3;
  j["warmup_s"] = static_cast<double>(c.warmup.count()) / 1e3;
  j["stalled_apps"] = c.stalled_apps;
  j["daemons"] = c.daemons;
  j["peers"] = PeerChoiceName(c.peers);
  j["simulators"] = SimulatorPlacementName(c.simulators);
  AddRunFigures(r, j);
  j["sent_across"] = r.sent_across;
  j["stayed"] = PathJson(r, r.stayed);
  j["crossed"] = PathJson(r, r.crossed);
  j["cpu_pct"] = OptionalJson(r.daemon_cpu_pct);
  j["rss_mb"] = OptionalJson(r.daemon_rss_mb);
  j["idle_cpu_pct"] = OptionalJson(r.daemon_idle_cpu_pct);
  j["sim_cpu_pct"] = OptionalJson(r.sim_cpu_pct);
  j["generator_cpu_pct"] = OptionalJson(r.generator_cpu_pct);
  j["daemon_accepted"] = r.daemon_accepted;
  j["daemon_delivered"] = r.daemon_delivered;
  j["daemon_dropped"] = r.daemon_dropped;
  j["daemon_expired"] = r.daemon_expired;
  j["daemon_in_flight"] = r.daemon_in_flight;
  j["daemon_forwarded"] = r.daemon_forwarded;
  j["daemon_from_peers"] = r.daemon_from_peers;
  j["per_daemon"] = PerDaemonJson(r.per_daemon);
  j["runs"] = r.runs;
  if (r.runs > 1) j["resident_p99_us_runs"] = r.resident_p99_runs;
  j["floor"] = row.floor ? FloorJson(*row.floor) : nlohmann::json(nullptr);
  return j;
}

void BenchReport::Add(const BenchRow& row) {
  if (!header_printed_) {
    std::fputs(MarkdownHeader(columns_).c_str(), table_out_);
    header_printed_ = true;
  }
  std::fputs(MarkdownRow(row, columns_).c_str(), table_out_);
  std::fflush(table_out_);
  if (json_.is_open()) {
    json_ << ToJson(row).dump() << '\n';
    json_.flush();
  }
}

}  // namespace trestle::bench
