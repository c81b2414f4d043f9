// Live equals offline: examples/ring-allreduce run through a real trestled
// (--time-mode lockstep --lockstep-apps N) and the real fabric adapter
// (`trestle-sim fabric`, unaware or flow model) finishes at exactly the
// virtual time `trestle-sim sweep --backend fabric --collective allreduce
// --algorithm A` computes offline (dataflow timing, the default) for the
// same topology, link values, ranks, size, endpoint delay, reduce bandwidth
// and model.
//
// Why exactly. The sweep's dataflow timing (CollectiveReplay) runs the ranks
// as the example's do: a rank sends its next message at the later of its
// clock and the t_deliver of the message it waits for, plus round(bytes /
// reduce-bw) after a reduce-scatter message, through the same NetworkModel
// (same routing, ordering and options), rank i on endpoint i (the adapter
// without --map places "rank-i" there); so every message has the same
// t_send and t_deliver, and the slowest rank's time is the sweep's, in
// whole ns. The bulk-synchronous sweep (each step as long as its slowest
// message) agrees only where every message of a step takes the same time.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "daemon_process.h"
#include "trestle/platform/process_launcher.h"
#include "trestle/platform/read_file.h"

#ifndef TRESTLE_SIM_PATH
#error "TRESTLE_SIM_PATH must name the trestle-sim binary"
#endif

namespace trestle::testing {
namespace {

using std::chrono::milliseconds;

// The example sits next to trestle-sim in the build tree:
// BUILD/sim-adapters/trestle-sim and BUILD/examples/ring-allreduce/.
std::string ExamplePath() {
  return (std::filesystem::path(TRESTLE_SIM_PATH).parent_path().parent_path() / "examples" /
          "ring-allreduce" / "trestle-ring-allreduce")
      .string();
}

constexpr milliseconds kRunTimeout{120'000};

class TempDir {
 public:
  TempDir() {
    char templ[] = "/tmp/trestle-ring-XXXXXX";
    path_ = mkdtemp(templ);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string ReadAll(const std::string& path) { return platform::ReadFile(path).value_or(""); }

// The network both sides model.
struct Fabric {
  std::string topology;
  std::string link_bw = "400Gbps";
  std::string link_latency = "500ns";
  std::string endpoint_delay = "10ns";
  std::string model = "unaware";
};

struct Collective {
  int ranks = 4;
  std::string size = "64KiB";
  std::string reduce_bw;  // "": reductions are free
  std::string algorithm = "ring";
};

// Runs `path args` to its end with its output in `out`; the exit code, -1 if
// it was signalled or outlived kRunTimeout (then it is killed).
int RunToEnd(const std::string& path, const std::vector<std::string>& args,
             const std::string& out) {
  platform::ProcessLauncher process;
  absl::Status started = process.Start(path, args, {out, ""});
  EXPECT_TRUE(started.ok()) << started;
  if (!started.ok()) return -1;
  std::optional<platform::ProcessExit> exit = process.Wait(kRunTimeout);
  if (!exit) {
    ADD_FAILURE() << path << " still ran after " << kRunTimeout.count() << " ms";
    exit = process.Stop(milliseconds(2000), SIGKILL);
  }
  return exit && exit->signal == 0 ? exit->exit_code : -1;
}

double SweepNs(const Fabric& fabric, const Collective& c, const TempDir& dir,
               const std::string& timing = "dataflow") {
  const std::string csv = dir.File("sweep.csv");
  std::vector<std::string> args = {
      "sweep",      "--backend",          "fabric",        "--topology",   fabric.topology,
      "--collective", "allreduce",        "--algorithm",   c.algorithm,    "--sizes",
      c.size,       "--ranks",            std::to_string(c.ranks), "--endpoint-delay",
      fabric.endpoint_delay, "--link-bw", fabric.link_bw,  "--link-latency", fabric.link_latency,
      "--model",    fabric.model,         "--timing",      timing,         "--csv", csv};
  if (!c.reduce_bw.empty()) args.insert(args.end(), {"--reduce-bw", c.reduce_bw});
  const std::string out = dir.File("sweep.out");
  EXPECT_EQ(RunToEnd(TRESTLE_SIM_PATH, args, out), 0) << ReadAll(out);
  // backend,topology,algorithm,collective,size_bytes,time_ns: one row.
  std::stringstream rows(ReadAll(csv));
  std::string header, row;
  std::getline(rows, header);
  std::getline(rows, row);
  EXPECT_EQ(header, "backend,topology,algorithm,collective,size_bytes,time_ns");
  double ns = -1;
  EXPECT_TRUE(absl::SimpleAtod(row.substr(row.rfind(',') + 1), &ns)) << row;
  return ns;
}

enum class Layout { kOneLoop, kProcessPerRank };
enum class Mapping { kRankIsEndpoint, kWithoutMap };

struct Live {
  std::vector<std::uint64_t> rank_ns;  // by rank
  std::uint64_t max_ns = 0;            // from the summary line
  std::string output;
};

// The value of `key=` in `line`.
std::optional<std::uint64_t> Field(const std::string& line, const std::string& key) {
  const std::size_t at = line.find(" " + key + "=");
  if (at == std::string::npos) return std::nullopt;
  const std::size_t from = at + key.size() + 2;
  std::uint64_t v = 0;
  if (!absl::SimpleAtoi(line.substr(from, line.find(' ', from) - from), &v)) return std::nullopt;
  return v;
}

Live RunLive(const Fabric& fabric, const Collective& c, Layout layout, Mapping mapping,
             const TempDir& dir) {
  Live live;
  live.rank_ns.assign(c.ranks, 0);
  DaemonProcess daemon({"--time-mode", "lockstep", "--lockstep-apps", std::to_string(c.ranks)});
  std::vector<std::string> sim_args = {
      "fabric",         "--daemon",     daemon.address(),     "--topology",
      fabric.topology,  "--link-bw",    fabric.link_bw,       "--link-latency",
      fabric.link_latency, "--endpoint-delay", fabric.endpoint_delay, "--model", fabric.model};
  if (mapping == Mapping::kRankIsEndpoint) {
    const std::string map = dir.File("map.yaml");
    std::ofstream out(map);
    for (int i = 0; i < c.ranks; ++i) out << "rank-" << i << ": " << i << "\n";
    sim_args.insert(sim_args.end(), {"--map", map});
  }
  platform::ProcessLauncher sim;
  const std::string sim_out = dir.File("sim.out");
  EXPECT_TRUE(sim.Start(TRESTLE_SIM_PATH, sim_args, {sim_out, ""}).ok());
  // Connected before the run's time starts (docs/protocol.md, "Ending and joining").
  absl::Status ready = sim.WaitForOutput("connected", milliseconds(10'000));
  EXPECT_TRUE(ready.ok()) << ready << "\n" << sim.OutputTail();

  std::vector<std::string> args = {"--daemon", daemon.address(), "--ranks",
                                   std::to_string(c.ranks), "--size", c.size,
                                   "--algorithm", c.algorithm, "--timeout-ms", "60000"};
  if (!c.reduce_bw.empty()) args.insert(args.end(), {"--reduce-bw", c.reduce_bw});
  std::vector<std::unique_ptr<platform::ProcessLauncher>> ranks;
  std::vector<std::string> outs;
  const int processes = layout == Layout::kOneLoop ? 1 : c.ranks;
  for (int k = 0; k < processes; ++k) {
    std::vector<std::string> a = args;
    if (layout == Layout::kProcessPerRank) a.insert(a.end(), {"--rank", std::to_string(k)});
    outs.push_back(dir.File(absl::StrCat("rank", k, ".out")));
    ranks.push_back(std::make_unique<platform::ProcessLauncher>());
    absl::Status s = ranks.back()->Start(ExamplePath(), a, {outs.back(), ""});
    EXPECT_TRUE(s.ok()) << s;
  }
  for (int k = 0; k < processes; ++k) {
    std::optional<platform::ProcessExit> exit = ranks[k]->Wait(kRunTimeout);
    const std::string text = ReadAll(outs[k]);
    live.output += text;
    EXPECT_TRUE(exit && exit->clean()) << (exit ? exit->Describe("ring-allreduce") : "still runs")
                                       << "\n" << text;
  }
  std::stringstream lines(live.output);
  for (std::string line; std::getline(lines, line);) {
    int rank = -1;
    if (line.rfind("rank-", 0) == 0 &&
        absl::SimpleAtoi(line.substr(5, line.find(' ') - 5), &rank) && rank >= 0 &&
        rank < c.ranks) {
      EXPECT_NE(line.find("verified=yes"), std::string::npos) << line;
      if (std::optional<std::uint64_t> t = Field(line, "t_ns")) live.rank_ns[rank] = *t;
    } else if (line.rfind("summary:", 0) == 0) {
      live.max_ns = Field(line, "max_t_ns").value_or(0);
    }
  }
  sim.Stop();
  EXPECT_EQ(daemon.Stop(), 0);
  return live;
}

// Every rank finished and verified, the slowest exactly at the sweep's time.
void ExpectLiveEqualsSweep(const Live& live, double sweep_ns, const Collective& c) {
  std::printf("%d ranks, %s, %s: live %llu ns, sweep %.3f ns\n", c.ranks, c.size.c_str(),
              c.algorithm.c_str(), static_cast<unsigned long long>(live.max_ns), sweep_ns);
  ASSERT_GT(sweep_ns, 0);
  const auto [lo, hi] = std::minmax_element(live.rank_ns.begin(), live.rank_ns.end());
  EXPECT_GT(*lo, 0u) << "a rank did not report\n" << live.output;
  EXPECT_EQ(live.max_ns, *hi) << live.output;
  EXPECT_EQ(static_cast<double>(live.max_ns), sweep_ns) << live.output;
}

void CheckBothLayouts(const Fabric& fabric, const Collective& c) {
  TempDir dir;
  const double sweep = SweepNs(fabric, c, dir);
  for (Layout layout : {Layout::kOneLoop, Layout::kProcessPerRank}) {
    SCOPED_TRACE(layout == Layout::kOneLoop ? "one loop" : "one process per rank");
    ExpectLiveEqualsSweep(RunLive(fabric, c, layout, Mapping::kRankIsEndpoint, dir), sweep, c);
  }
}

TEST(RingAllReduce, OnASwitchTheLiveRunEqualsTheSweep) {
  const Fabric fabric{"switch:8"};
  const Collective c{8, "16KiB", ""};
  TempDir dir;
  // The sweep itself, by hand: 14 steps of 10 ns + 2 x 500 ns + 2048 B at
  // 50 B/ns; each delivery at a whole ns (1,050.96 -> 1,051) in dataflow.
  EXPECT_NEAR(SweepNs(fabric, c, dir, "bulk-synchronous"), 14 * (10 + 1000 + 2048 / 50.0), 1e-3);
  EXPECT_EQ(SweepNs(fabric, c, dir), 14 * 1051);
  CheckBothLayouts(fabric, c);
}

TEST(RingAllReduce, OnARingTheLiveRunEqualsTheSweep) {
  // 5 ranks: 1 MiB is not a multiple of 5, so both sides send ceil(S/5) bytes.
  CheckBothLayouts(Fabric{"ring:5"}, Collective{5, "1MiB", ""});
}

TEST(RingAllReduce, ReduceComputeIsPricedAsTheSweepPricesIt) {
  // 16384-byte chunks at 100 GB/s: 163.84 ns after each of the 3
  // reduce-scatter chunks (the sweep's bytes / reduce-bw; live ranks Advance
  // by whole ns, 164), none when gathering.
  const Fabric fabric{"switch:4"};
  const Collective with{4, "64KiB", "100GBps"};
  TempDir dir;
  const Collective free{4, "64KiB", ""};
  EXPECT_NEAR(SweepNs(fabric, with, dir, "bulk-synchronous") -
                  SweepNs(fabric, free, dir, "bulk-synchronous"),
              3 * 163.84, 1e-3);
  EXPECT_EQ(SweepNs(fabric, with, dir) - SweepNs(fabric, free, dir), 3 * 164);
  CheckBothLayouts(fabric, with);
}

TEST(RingAllReduce, RanksAlongATorusRowAndOnOneDragonflyRouterEqualTheSweep) {
  // torus:8x4: ranks 0..7 are one row of dimension 0, a ring with wrap-around.
  CheckBothLayouts(Fabric{"torus:8x4"}, Collective{8, "256KiB", ""});
  // p=4: ranks 0..3 hang off router 0, like a switch.
  CheckBothLayouts(Fabric{"dragonfly:p=4,a=4,h=2,g=5"}, Collective{4, "256KiB", "200GBps"});
}

// A whole torus: the ring's hops are one link or two (a row's wrap), so the
// ranks finish at different times, and halving-doubling and direct cross
// the torus and, in the flow model, share links; every algorithm still
// gives exactly the sweep's time, where the bulk-synchronous estimate is
// off.
TEST(RingAllReduce, OnAWholeTorusEveryAlgorithmAndModelEqualsTheSweep) {
  for (const std::string model : {"unaware", "flow"}) {
    for (const std::string algorithm : {"ring", "halving-doubling", "direct"}) {
      SCOPED_TRACE(model + " " + algorithm);
      Fabric fabric{"torus:4x4"};
      fabric.model = model;
      Collective c{16, "256KiB", "100GBps"};
      c.algorithm = algorithm;
      TempDir dir;
      const Live live = RunLive(fabric, c, Layout::kOneLoop, Mapping::kWithoutMap, dir);
      ExpectLiveEqualsSweep(live, SweepNs(fabric, c, dir), c);
      if (algorithm == "ring") {
        EXPECT_LT(static_cast<double>(live.max_ns), SweepNs(fabric, c, dir, "bulk-synchronous"))
            << "no rank waits for the slowest of a step";
      }
    }
  }
}

TEST(RingAllReduce, WithoutAMapRankIIsEndpointI) {
  // The adapter takes the first step's transits sorted by source id
  // ("rank-10" before "rank-2"); rank-i still goes to endpoint i, by the
  // number in its id, so each rank's successor is the next endpoint.
  const Fabric fabric{"ring:12"};
  const Collective c{12, "64KiB", ""};
  TempDir dir;
  ExpectLiveEqualsSweep(RunLive(fabric, c, Layout::kOneLoop, Mapping::kWithoutMap, dir),
                        SweepNs(fabric, c, dir), c);
}

}  // namespace
}  // namespace trestle::testing
