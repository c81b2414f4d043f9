// BenchReport: the optional columns (stalled apps, several daemons, the
// floor) line up with their header, and the bridge's p99 is shown as a
// multiple of the floor's.
#include "bench_report.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_split.h"

namespace trestle::bench {
namespace {

std::vector<std::string> Cells(const std::string& line) {
  std::vector<std::string> cells = absl::StrSplit(line, '|');
  return std::vector<std::string>(cells.begin() + 1, cells.end() - 1);  // outer pipes
}

BenchRow Row() {
  BenchRow row;
  BenchResult& r = row.bridge;
  r.config.nodes = 10;
  r.config.stalled_apps = 2;
  r.sent = 200;
  r.delivered = 160;
  r.undelivered = 40;
  r.sent_to_stalled = 40;
  r.resident.p99_us = 90;
  r.e2e.p99_us = 600;
  BenchResult floor;
  floor.resident.p50_us = 10;
  floor.resident.p99_us = 30;
  floor.e2e.p50_us = 100;
  floor.e2e.p99_us = 200;
  row.floor = floor;
  return row;
}

TEST(BenchReport, OptionalColumnsLineUpWithTheHeader) {
  for (bool stalled : {false, true}) {
    for (bool floor : {false, true}) {
      for (bool daemons : {false, true}) {
        const ReportColumns columns{stalled, floor, daemons};
        const std::vector<std::string> header =
            absl::StrSplit(BenchReport::MarkdownHeader(columns), '\n', absl::SkipEmpty());
        ASSERT_EQ(header.size(), 2u);
        const std::size_t n = Cells(header[0]).size();
        EXPECT_EQ(n, 17u + (stalled ? 3 : 0) + (floor ? 6 : 0) + (daemons ? 2 : 0));
        EXPECT_EQ(Cells(header[1]).size(), n);
        std::string row = BenchReport::MarkdownRow(Row(), columns);
        ASSERT_EQ(row.back(), '\n');
        row.pop_back();
        EXPECT_EQ(Cells(row).size(), n) << row;
      }
    }
  }
}

TEST(BenchReport, TheFloorColumnsHoldItsFiguresAndTheRatios) {
  const ReportColumns columns{true, true};
  std::string row = BenchReport::MarkdownRow(Row(), columns);
  row.pop_back();
  const std::vector<std::string> cells = Cells(row);
  const std::vector<std::string> stalled(cells.begin() + 8, cells.begin() + 11);
  EXPECT_EQ(stalled, (std::vector<std::string>{" 2 ", " 40 ", " 40 "}));
  const std::vector<std::string> floor(cells.end() - 6, cells.end());
  EXPECT_EQ(floor, (std::vector<std::string>{" 10.0 ", " 30.0 ", " 100.0 ", " 200.0 ", " 3.0 ",
                                             " 3.0 "}));
  BenchRow no_floor = Row();
  no_floor.floor.reset();
  EXPECT_NE(BenchReport::MarkdownRow(no_floor, columns).find("| n/a | n/a |\n"),
            std::string::npos);
}

TEST(BenchReport, JsonHasTheStalledCountsAndTheFloor) {
  const nlohmann::json j = BenchReport::ToJson(Row());
  EXPECT_EQ(j["stalled_apps"], 2);
  EXPECT_EQ(j["undelivered"], 40);
  EXPECT_EQ(j["sent_to_stalled"], 40);
  EXPECT_EQ(j["floor"]["resident_p99_us"], 30.0);
  BenchRow no_floor = Row();
  no_floor.floor.reset();
  EXPECT_TRUE(BenchReport::ToJson(no_floor)["floor"].is_null());
}

// Several daemons: their number (and the peer choice) and the messages that
// crossed, after the stalled counts; each daemon's counts and each path's
// figures in the JSON.
TEST(BenchReport, SeveralDaemonsShowTheirCountsAndWhatCrossed) {
  BenchRow row = Row();
  row.floor.reset();
  BenchResult& r = row.bridge;
  r.config.daemons = 2;
  r.config.peers = PeerChoice::kAcross;
  r.sent_across = 200;
  r.crossed = {150, 1'500, {}};
  r.crossed.e2e.p50_us = 420;
  r.per_daemon.resize(2);
  r.per_daemon[0].address = "127.0.0.1:7001";
  r.per_daemon[0].sent = 120;
  r.per_daemon[0].forwarded = 130;
  r.per_daemon[1].from_peers = 130;
  r.per_daemon[1].cpu_pct = 12.5;
  const ReportColumns columns{.stalled = true, .floor = false, .daemons = true};
  const std::vector<std::string> header =
      absl::StrSplit(BenchReport::MarkdownHeader(columns), '\n', absl::SkipEmpty());
  const std::vector<std::string> names = Cells(header[0]);
  ASSERT_EQ(names.size(), 22u);
  EXPECT_EQ(names[11], " daemons ");
  EXPECT_EQ(names[12], " across ");
  std::string text = BenchReport::MarkdownRow(row, columns);
  text.pop_back();
  const std::vector<std::string> cells = Cells(text);
  EXPECT_EQ(cells[11], " 2 (across) ");
  EXPECT_EQ(cells[12], " 200 ");

  const nlohmann::json j = BenchReport::ToJson(row);
  EXPECT_EQ(j["daemons"], 2);
  EXPECT_EQ(j["peers"], "across");
  EXPECT_EQ(j["sent_across"], 200);
  EXPECT_EQ(j["stayed"]["delivered"], 0);
  EXPECT_EQ(j["crossed"]["delivered"], 150);
  EXPECT_EQ(j["crossed"]["throughput_msg_s"], 1'500);
  EXPECT_EQ(j["crossed"]["e2e_p50_us"], 420);
  ASSERT_EQ(j["per_daemon"].size(), 2u);
  EXPECT_EQ(j["per_daemon"][0]["address"], "127.0.0.1:7001");
  EXPECT_EQ(j["per_daemon"][0]["sent"], 120);
  EXPECT_EQ(j["per_daemon"][0]["forwarded"], 130);
  EXPECT_TRUE(j["per_daemon"][0]["cpu_pct"].is_null());
  EXPECT_EQ(j["per_daemon"][1]["from_peers"], 130);
  EXPECT_EQ(j["per_daemon"][1]["cpu_pct"], 12.5);
  // One daemon: no per-daemon list, and no paths.
  EXPECT_TRUE(BenchReport::ToJson(Row())["per_daemon"].is_null());
  EXPECT_TRUE(BenchReport::ToJson(Row())["stayed"].is_null());
  EXPECT_TRUE(BenchReport::ToJson(Row())["crossed"].is_null());
  EXPECT_EQ(BenchReport::ToJson(Row())["daemons"], 1);
}

}  // namespace
}  // namespace trestle::bench
