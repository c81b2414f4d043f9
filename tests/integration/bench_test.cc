// `trestle bench` end to end: the real binary starts its own trestled and
// ghost simulator, runs 20 clients for 2 s at 200 msg/s in PUSH and PULL
// (and PUSH on one shared connection per client), and must lose and
// duplicate nothing, print a well-formed Markdown table with one row, and
// write one JSON line with every documented key. `--floor` runs the same
// traffic through the floor relay and echo as well, and `--stalled-apps`
// adds apps that never read, whose messages are reported, not waited for.
// `--daemons 2` spreads the apps over two federated daemons sharing a
// private redis-server, and every message must cross and arrive once, with
// each daemon's counts balancing. Timings are not asserted.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "command_output.h"
#include "daemon_process.h"
#include "nlohmann/json.hpp"

namespace trestle::testing {
namespace {

using RunOutput = CommandOutput;

// The cells of a Markdown table row "| a | b |" -> {"a", "b"}.
std::vector<std::string> Cells(const std::string& row) {
  std::vector<std::string> cells;
  absl::string_view inner = row;
  inner = absl::StripPrefix(inner, "|");
  inner = absl::StripSuffix(inner, "|");
  for (absl::string_view cell : absl::StrSplit(inner, '|')) {
    cells.emplace_back(absl::StripAsciiWhitespace(cell));
  }
  return cells;
}

class BenchCommandTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/bench-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
  }
  void TearDown() override { std::system(("rm -rf " + dir_).c_str()); }

  // Runs `trestle bench ARGS --json FILE`, which must succeed and print a
  // table of one row and one JSON line: its cells go to `row`, the line to
  // `json`, and the header's cells to `header` if given.
  void RunOneRow(const std::string& args, std::vector<std::string>* row,
                 std::vector<nlohmann::json>* json, std::vector<std::string>* header = nullptr) {
    const std::string json_path = dir_ + "/one-row.jsonl";
    const RunOutput out =
        RunCommand(absl::StrCat(TRESTLE_PATH, " bench ", args, " --json ", json_path));
    ASSERT_EQ(out.exit_code, 0) << out.text;
    std::vector<std::string> lines = absl::StrSplit(out.text, '\n', absl::SkipEmpty());
    ASSERT_EQ(lines.size(), 3u) << out.text;
    if (header != nullptr) *header = Cells(lines[0]);
    *row = Cells(lines[2]);
    ASSERT_GE(row->size(), 8u) << lines[2];
    std::ifstream in(json_path);
    for (std::string line; std::getline(in, line);) json->push_back(nlohmann::json::parse(line));
    ASSERT_EQ(json->size(), 1u) << "one JSON line per configuration";
  }

  std::string dir_;
};

TEST_P(BenchCommandTest, ShortRunLosesNothingAndPrintsOneRow) {
  const std::string mode = GetParam();
  const std::string json_path = dir_ + "/bench.jsonl";
  const RunOutput out =
      RunCommand(absl::StrCat(TRESTLE_PATH, " bench --nodes 20 --rate 200 --duration 2s --size 64",
                       " --mode ", mode, " --json ", json_path));
  ASSERT_EQ(out.exit_code, 0) << out.text;

  // The table: header, separator, exactly one row.
  std::vector<std::string> lines = absl::StrSplit(out.text, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 3u) << out.text;
  const std::vector<std::string> header = Cells(lines[0]);
  const std::vector<std::string> expected_header = {
      "nodes", "rate", "mode", "store", "sent", "delivered", "lost", "dup",
      "resident mean µs", "resident p50 µs", "resident p99 µs", "resident p99.9 µs",
      "e2e p50 µs", "e2e p99 µs", "throughput msg/s", "CPU %", "RSS MB"};
  EXPECT_EQ(header, expected_header);
  EXPECT_EQ(lines[1].rfind("|---", 0), 0u) << lines[1];
  const std::vector<std::string> row = Cells(lines[2]);
  ASSERT_EQ(row.size(), expected_header.size()) << lines[2];
  EXPECT_EQ(row[0], "20");
  EXPECT_EQ(row[1], "200");
  EXPECT_EQ(row[2], mode);
  EXPECT_EQ(row[3], "memory");
  EXPECT_EQ(row[4], "400");  // 200 msg/s for 2 s, constant spacing
  EXPECT_EQ(row[5], row[4]);
  EXPECT_EQ(row[6], "0");
  EXPECT_EQ(row[7], "0");
  EXPECT_NE(row[15], "n/a");  // the bench started the daemon: CPU and RSS known
  EXPECT_NE(row[16], "n/a");

  // JSON Lines: one object with every documented key.
  std::ifstream in(json_path);
  std::vector<std::string> json_lines;
  for (std::string line; std::getline(in, line);) json_lines.push_back(line);
  ASSERT_EQ(json_lines.size(), 1u);
  const nlohmann::json j = nlohmann::json::parse(json_lines[0]);
  for (const char* key :
       {"nodes", "rate", "mode", "store", "sent", "delivered", "lost", "duplicated",
        "resident_mean_us", "resident_p50_us", "resident_p99_us", "e2e_p50_us", "e2e_p99_us",
        "throughput_msg_s", "cpu_pct", "rss_mb"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["nodes"], 20);
  EXPECT_EQ(j["mode"], mode);
  EXPECT_EQ(j["store"], "memory");
  EXPECT_EQ(j["sent"], 400);
  EXPECT_EQ(j["delivered"], 400);
  EXPECT_EQ(j["lost"], 0);
  EXPECT_EQ(j["duplicated"], 0);
  // The daemon's own counters agree with what the bench saw.
  EXPECT_EQ(j["daemon_accepted"], 400);
  EXPECT_EQ(j["daemon_delivered"], 400);
}

INSTANTIATE_TEST_SUITE_P(Modes, BenchCommandTest, ::testing::Values("push", "pull"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param);
                         });

TEST_F(BenchCommandTest, OneSharedConnectionPerClientLosesNothing) {
  std::vector<std::string> row;
  std::vector<nlohmann::json> json;
  RunOneRow("--nodes 20 --rate 200 --duration 1s --connections 1", &row, &json);
  if (HasFatalFailure()) return;
  EXPECT_EQ(row[2], "push, 1 conn");
  EXPECT_EQ(row[4], "200");
  EXPECT_EQ(row[5], "200");
  EXPECT_EQ(row[6], "0");
  EXPECT_EQ(row[7], "0");
  EXPECT_EQ(json[0]["connections"], 1);
  EXPECT_EQ(json[0]["daemon_delivered"], 200);
}

TEST_F(BenchCommandTest, RepeatRunsEachConfigurationAndPrintsOneRow) {
  std::vector<std::string> row;
  std::vector<nlohmann::json> json;
  RunOneRow("--nodes 5 --rate 100 --duration 0.5s --repeat 3", &row, &json);
  if (HasFatalFailure()) return;
  EXPECT_EQ(row[4], "150");  // 3 runs x 50 messages
  EXPECT_EQ(row[5], "150");
  EXPECT_EQ(row[6], "0");
  EXPECT_EQ(json[0]["runs"], 3);
  EXPECT_EQ(json[0]["resident_p99_us_runs"].size(), 3u);
  EXPECT_EQ(json[0]["daemon_accepted"], 150);
}

// The cell of `row` under the column named `name`; fails the test if there
// is no such column.
std::string Cell(const std::vector<std::string>& header, const std::vector<std::string>& row,
                 const std::string& name) {
  for (std::size_t i = 0; i < header.size() && i < row.size(); ++i) {
    if (header[i] == name) return row[i];
  }
  ADD_FAILURE() << "no column \"" << name << "\"";
  return "";
}

class FloorTest : public BenchCommandTest {};

TEST_P(FloorTest, ShortRunPrintsTheBridgeAndTheFloorAndLosesNothing) {
  std::vector<std::string> header;
  std::vector<std::string> row;
  std::vector<nlohmann::json> json;
  RunOneRow(absl::StrCat("--nodes 10 --rate 200 --duration 1s --floor ", GetParam()), &row, &json,
            &header);
  if (HasFatalFailure()) return;
  ASSERT_EQ(row.size(), header.size());
  EXPECT_EQ(Cell(header, row, "sent"), "200");
  EXPECT_EQ(Cell(header, row, "delivered"), "200");
  EXPECT_EQ(Cell(header, row, "lost"), "0");
  // Both figures, and the bridge's as a multiple of the floor's.
  for (const char* name : {"resident p50 µs", "resident p99 µs", "floor resident p50 µs",
                           "floor resident p99 µs", "floor e2e p50 µs", "floor e2e p99 µs"}) {
    const std::string cell = Cell(header, row, name);
    EXPECT_GT(std::atof(cell.c_str()), 0.0) << name << " = \"" << cell << "\"";
  }
  // Ratios are printed to one decimal: on a loaded machine the floor's p99
  // can dwarf the bridge's, and the ratio shows as 0.0.
  for (const char* name : {"resident p99 ÷ floor", "e2e p99 ÷ floor"}) {
    const std::string cell = Cell(header, row, name);
    char* end = nullptr;
    const double ratio = std::strtod(cell.c_str(), &end);
    EXPECT_TRUE(!cell.empty() && *end == '\0' && ratio >= 0) << name << " = \"" << cell << "\"";
  }
  // The floor carried the same messages, each exactly once.
  const nlohmann::json& floor = json[0]["floor"];
  ASSERT_TRUE(floor.is_object()) << json[0].dump();
  EXPECT_EQ(floor["sent"], 200);
  EXPECT_EQ(floor["delivered"], 200);
  EXPECT_EQ(floor["lost"], 0);
  EXPECT_EQ(floor["duplicated"], 0);
  EXPECT_EQ(floor["error"], "");
  EXPECT_GT(floor["e2e_p99_us"].get<double>(), 0.0);
}

INSTANTIATE_TEST_SUITE_P(Transports, FloorTest,
                         ::testing::Values("--mode push", "--mode pull --transport unix"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(info.index == 0 ? "push_tcp" : "pull_unix");
                         });

TEST_F(BenchCommandTest, StalledAppsAreSentToAndReportedNotWaitedFor) {
  std::vector<std::string> header;
  std::vector<std::string> row;
  std::vector<nlohmann::json> json;
  RunOneRow("--nodes 10 --stalled-apps 2 --rate 200 --duration 1s", &row, &json, &header);
  if (HasFatalFailure()) return;
  EXPECT_EQ(Cell(header, row, "stalled"), "2");
  const nlohmann::json& j = json[0];
  EXPECT_EQ(j["stalled_apps"], 2);
  EXPECT_EQ(j["sent"], 200);
  // The stalled apps get their share (2 of every sender's 11 peers)...
  EXPECT_GT(j["sent_to_stalled"].get<std::uint64_t>(), 0u);
  // ...which never arrives, and is all that does not: the counts balance.
  EXPECT_EQ(j["undelivered"], j["sent_to_stalled"]);
  EXPECT_EQ(j["delivered"].get<std::uint64_t>() + j["undelivered"].get<std::uint64_t>(), 200u);
  EXPECT_EQ(j["lost"], 0);
  EXPECT_EQ(j["duplicated"], 0);
  EXPECT_EQ(Cell(header, row, "undelivered"), j["undelivered"].dump());
  EXPECT_EQ(Cell(header, row, "to stalled"), j["sent_to_stalled"].dump());
  EXPECT_EQ(j["daemon_accepted"], 200);
}

TEST_F(BenchCommandTest, TwoFederatedDaemonsCarryEveryMessageAcrossExactlyOnce) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  std::vector<std::string> header;
  std::vector<std::string> row;
  std::vector<nlohmann::json> json;
  // 300 messages, every one to an app on the other daemon: half of them go
  // through the ghost's daemon's stream twice (transit there, delivery back).
  RunOneRow(absl::StrCat("--daemons 2 --store ", redis.url(), " --peers across --nodes 10",
                         " --rate 300 --duration 1s"),
            &row, &json, &header);
  if (HasFatalFailure()) return;
  EXPECT_EQ(Cell(header, row, "sent"), "300");
  EXPECT_EQ(Cell(header, row, "delivered"), "300");
  EXPECT_EQ(Cell(header, row, "lost"), "0");
  EXPECT_EQ(Cell(header, row, "dup"), "0");
  EXPECT_EQ(Cell(header, row, "daemons"), "2 (across)");
  EXPECT_EQ(Cell(header, row, "across"), "300");
  const nlohmann::json& j = json[0];
  EXPECT_EQ(j["error"], "");
  EXPECT_EQ(j["daemons"], 2);
  EXPECT_EQ(j["peers"], "across");
  EXPECT_EQ(j["sent_across"], 300);
  EXPECT_EQ(j["daemon_accepted"], 300);
  EXPECT_EQ(j["daemon_delivered"], 300);
  EXPECT_EQ(j["daemon_in_flight"], 0);
  EXPECT_EQ(j["daemon_forwarded"], j["daemon_from_peers"]);
  // Every message crossed: at least one hand-on each.
  EXPECT_GE(j["daemon_forwarded"].get<std::uint64_t>(), 300u);
  const nlohmann::json& daemons = j["per_daemon"];
  ASSERT_TRUE(daemons.is_array()) << j.dump();
  ASSERT_EQ(daemons.size(), 2u);
  std::uint64_t sent = 0;
  std::uint64_t received = 0;
  for (const nlohmann::json& d : daemons) {
    EXPECT_EQ(d["apps"], 5);
    EXPECT_TRUE(d["counters_known"].get<bool>());
    // Each daemon accepted what its apps sent and delivered what they got.
    EXPECT_EQ(d["accepted"], d["sent"]);
    EXPECT_EQ(d["delivered"], d["received"]);
    EXPECT_GT(d["sent"].get<std::uint64_t>(), 0u);
    EXPECT_NE(d["cpu_pct"], nullptr);
    sent += d["sent"].get<std::uint64_t>();
    received += d["received"].get<std::uint64_t>();
  }
  EXPECT_EQ(sent, 300u);
  EXPECT_EQ(received, 300u);
  // None stayed on one daemon: the paths split the measured arrivals.
  EXPECT_EQ(j["stayed"]["delivered"], 0);
  EXPECT_EQ(j["crossed"]["delivered"], 300);
  EXPECT_GT(j["crossed"]["e2e_p50_us"].get<double>(), 0);
}

// --peers within: every message goes to an app on its sender's daemon. On
// the ghost's daemon (the first) such a message never leaves it; on the
// other it still crosses for its transit and back. The bench tells the two
// paths apart.
TEST_F(BenchCommandTest, PeersWithinKeepsMessagesOnTheirDaemonAndTheBenchSplitsThePaths) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  std::vector<std::string> header;
  std::vector<std::string> row;
  std::vector<nlohmann::json> json;
  RunOneRow(absl::StrCat("--daemons 2 --store ", redis.url(), " --peers within --nodes 10",
                         " --rate 300 --duration 1s"),
            &row, &json, &header);
  if (HasFatalFailure()) return;
  EXPECT_EQ(Cell(header, row, "delivered"), "300");
  EXPECT_EQ(Cell(header, row, "lost"), "0");
  EXPECT_EQ(Cell(header, row, "dup"), "0");
  EXPECT_EQ(Cell(header, row, "daemons"), "2 (within)");
  EXPECT_EQ(Cell(header, row, "across"), "0");
  const nlohmann::json& j = json[0];
  EXPECT_EQ(j["error"], "");
  EXPECT_EQ(j["peers"], "within");
  const nlohmann::json& daemons = j["per_daemon"];
  ASSERT_EQ(daemons.size(), 2u) << j.dump();
  // Daemon 1 has the ghost: none of its messages left it. Daemon 2 handed
  // each of its own to daemon 1 for the transit, and got it back.
  EXPECT_EQ(daemons[0]["delivered"], daemons[0]["sent"]);
  EXPECT_EQ(daemons[1]["delivered"], daemons[1]["sent"]);
  EXPECT_EQ(daemons[1]["forwarded"], daemons[1]["sent"]);
  EXPECT_EQ(daemons[0]["forwarded"], daemons[1]["sent"]);
  EXPECT_EQ(j["stayed"]["delivered"], daemons[0]["sent"]);
  EXPECT_EQ(j["crossed"]["delivered"], daemons[1]["sent"]);
  EXPECT_GT(j["stayed"]["delivered"].get<std::uint64_t>(), 0u);
  EXPECT_GT(j["crossed"]["delivered"].get<std::uint64_t>(), 0u);
}

// --simulators each: every daemon has a ghost of its own, so with --peers
// within no message leaves its daemon, not even for its transit.
TEST_F(BenchCommandTest, AGhostOnEachDaemonKeepsPeersWithinOnTheirDaemon) {
  RedisProcess redis;
  ASSERT_TRUE(redis.ok());
  std::vector<std::string> header;
  std::vector<std::string> row;
  std::vector<nlohmann::json> json;
  RunOneRow(absl::StrCat("--daemons 2 --store ", redis.url(), " --simulators each",
                         " --peers within --nodes 4 --rate max --duration 500ms"),
            &row, &json, &header);
  if (HasFatalFailure()) return;
  EXPECT_EQ(Cell(header, row, "lost"), "0");
  EXPECT_EQ(Cell(header, row, "dup"), "0");
  const nlohmann::json& j = json[0];
  EXPECT_EQ(j["error"], "");
  EXPECT_EQ(j["simulators"], "each");
  EXPECT_GT(j["sent"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(j["delivered"], j["sent"]);
  EXPECT_EQ(j["sent_across"], 0);
  EXPECT_NE(j["sim_cpu_pct"], nullptr);
  EXPECT_EQ(j["crossed"]["delivered"], 0);
  EXPECT_GT(j["stayed"]["delivered"].get<std::uint64_t>(), 0u);
  const nlohmann::json& daemons = j["per_daemon"];
  ASSERT_EQ(daemons.size(), 2u) << j.dump();
  std::uint64_t sent = 0;
  for (const nlohmann::json& d : daemons) {
    EXPECT_GT(d["sent"].get<std::uint64_t>(), 0u);
    EXPECT_EQ(d["delivered"], d["sent"]);
    EXPECT_EQ(d["forwarded"], 0);
    EXPECT_EQ(d["from_peers"], 0);
    sent += d["sent"].get<std::uint64_t>();
  }
  // Measured arrivals are those after the warm-up (none here): all of them.
  EXPECT_EQ(j["stayed"]["delivered"], sent);
}

// The flags of several daemons are checked before anything starts, and each
// error names its flag.
TEST(BenchCommandFlagsTest, SeveralDaemonsNeedARedisStoreAndEnoughApps) {
  const RunOutput memory = RunCommand(absl::StrCat(TRESTLE_PATH, " bench --daemons 2 2>&1"));
  EXPECT_NE(memory.exit_code, 0);
  EXPECT_NE(memory.text.find("--daemons"), std::string::npos) << memory.text;
  EXPECT_NE(memory.text.find("redis://HOST:PORT/DB"), std::string::npos) << memory.text;
  EXPECT_EQ(memory.text.find("connecting"), std::string::npos) << "nothing ran";

  const RunOutput few = RunCommand(absl::StrCat(
      TRESTLE_PATH, " bench --daemons 3 --nodes 2 --store redis://127.0.0.1:1/0 2>&1"));
  EXPECT_NE(few.exit_code, 0);
  EXPECT_NE(few.text.find("--nodes"), std::string::npos) << few.text;
  EXPECT_NE(few.text.find("2 apps cannot be spread over 3 daemons"), std::string::npos)
      << few.text;

  const RunOutput zero = RunCommand(absl::StrCat(TRESTLE_PATH, " bench --daemons 0 2>&1"));
  EXPECT_NE(zero.exit_code, 0);
  EXPECT_NE(zero.text.find("--daemons"), std::string::npos) << zero.text;
}

TEST(BenchCommandFlagsTest, PeersAcrossNeedsSeveralDaemonsAndWithinTwoAppsOnEach) {
  const RunOutput out = RunCommand(absl::StrCat(TRESTLE_PATH, " bench --peers across 2>&1"));
  EXPECT_NE(out.exit_code, 0);
  EXPECT_NE(out.text.find("--peers"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("across needs several daemons"), std::string::npos) << out.text;
  const RunOutput within = RunCommand(absl::StrCat(
      TRESTLE_PATH, " bench --daemons 2 --nodes 3 --store redis://127.0.0.1:1/0 --peers within "
                    "2>&1"));
  EXPECT_NE(within.exit_code, 0);
  EXPECT_NE(within.text.find("within needs at least two sending apps on each daemon"),
            std::string::npos)
      << within.text;
  const RunOutput bad = RunCommand(absl::StrCat(TRESTLE_PATH, " bench --peers some 2>&1"));
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.text.find("--peers"), std::string::npos) << bad.text;
}

TEST(BenchCommandFlagsTest, RunningDaemonsAreGivenByAddressWithMatchingPids) {
  // --daemons starts daemons; running ones are given with --daemon.
  const RunOutput both = RunCommand(absl::StrCat(
      TRESTLE_PATH, " bench --daemons 2 --daemon 127.0.0.1:1,127.0.0.1:2 2>&1"));
  EXPECT_NE(both.exit_code, 0);
  EXPECT_NE(both.text.find("--daemons"), std::string::npos) << both.text;
  EXPECT_NE(both.text.find("--daemon (repeated, or a comma list)"), std::string::npos)
      << both.text;
  // One pid per address, or none.
  const RunOutput pids = RunCommand(absl::StrCat(
      TRESTLE_PATH, " bench --daemon 127.0.0.1:1 --daemon 127.0.0.1:2 --daemon-pid 1 2>&1"));
  EXPECT_NE(pids.exit_code, 0);
  EXPECT_NE(pids.text.find("--daemon-pid"), std::string::npos) << pids.text;
  EXPECT_NE(pids.text.find("one per --daemon address (2)"), std::string::npos) << pids.text;
  // Each address of a comma list is checked.
  const RunOutput bad = RunCommand(
      absl::StrCat(TRESTLE_PATH, " bench --daemon 127.0.0.1:1,nowhere 2>&1"));
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.text.find("bad daemon address \"nowhere\""), std::string::npos) << bad.text;
  // With running daemons the bench starts no simulator.
  const RunOutput ghosts = RunCommand(absl::StrCat(
      TRESTLE_PATH, " bench --simulators each --daemon 127.0.0.1:1 2>&1"));
  EXPECT_NE(ghosts.exit_code, 0);
  EXPECT_NE(ghosts.text.find("--simulators: each starts a ghost for every daemon"),
            std::string::npos)
      << ghosts.text;
  // The floor has no counterpart of several daemons.
  const RunOutput floor = RunCommand(absl::StrCat(
      TRESTLE_PATH, " bench --floor --daemon 127.0.0.1:1,127.0.0.1:2 2>&1"));
  EXPECT_NE(floor.exit_code, 0);
  EXPECT_NE(floor.text.find("--floor"), std::string::npos) << floor.text;
}

TEST(BenchCommandFlagsTest, StalledAppsNeedAnOpenLoop) {
  const RunOutput out =
      RunCommand(absl::StrCat(TRESTLE_PATH, " bench --stalled-apps 1 --rate max 2>&1"));
  EXPECT_NE(out.exit_code, 0);
  EXPECT_NE(out.text.find("--stalled-apps"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("open-loop"), std::string::npos) << out.text;
}

TEST(BenchCommandFlagsTest, ABadDaemonAddressIsRefusedNamingIt) {
  const RunOutput out =
      RunCommand(absl::StrCat(TRESTLE_PATH, " bench --daemon 127.0.0.1 2>&1"));
  EXPECT_NE(out.exit_code, 0);
  EXPECT_NE(out.text.find("bad daemon address \"127.0.0.1\""), std::string::npos)
      << out.text;
}

TEST(BenchCommandFlagsTest, TrestledArgsReachTheDaemon) {
  // trestled refuses a flag it does not know: the failure, and its log,
  // show that the argument got there.
  const RunOutput out = RunCommand(absl::StrCat(
      TRESTLE_PATH, " bench --duration 0.1s --trestled-arg=--no-such-flag=1 2>&1"));
  EXPECT_NE(out.exit_code, 0);
  EXPECT_NE(out.text.find("trestled exited with status"), std::string::npos)
      << out.text;
  EXPECT_NE(out.text.find("--no-such-flag"), std::string::npos) << out.text;
}

TEST(BenchCommandFlagsTest, RejectsATooSmallPayload) {
  const RunOutput out = RunCommand(absl::StrCat(TRESTLE_PATH, " bench --size 4 2>/dev/null"));
  EXPECT_NE(out.exit_code, 0);
}

TEST(BenchCommandFlagsTest, RejectsASharedConnectionInPullModeAndSaysWhy) {
  const RunOutput out =
      RunCommand(absl::StrCat(TRESTLE_PATH, " bench --connections 1 --mode pull 2>&1"));
  EXPECT_NE(out.exit_code, 0);
  EXPECT_NE(out.text.find("--connections"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("needs --mode push"), std::string::npos) << out.text;
  // The nsb2 matrix is PULL unless told otherwise: refused before any run.
  const RunOutput matrix =
      RunCommand(absl::StrCat(TRESTLE_PATH, " bench --matrix nsb2 --connections 1 2>&1"));
  EXPECT_NE(matrix.exit_code, 0);
  EXPECT_NE(matrix.text.find("--matrix nsb2 runs PULL unless --mode push"),
            std::string::npos)
      << matrix.text;
  EXPECT_EQ(matrix.text.find("[1/12]"), std::string::npos) << "nothing ran";
}

}  // namespace
}  // namespace trestle::testing
