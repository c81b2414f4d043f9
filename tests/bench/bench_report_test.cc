// BenchReport: the optional columns (stalled apps, the floor) line up with
// their header, and the bridge's p99 is shown as a multiple of the floor's.
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
      const ReportColumns columns{stalled, floor};
      const std::vector<std::string> header =
          absl::StrSplit(BenchReport::MarkdownHeader(columns), '\n', absl::SkipEmpty());
      ASSERT_EQ(header.size(), 2u);
      const std::size_t n = Cells(header[0]).size();
      EXPECT_EQ(n, 17u + (stalled ? 3 : 0) + (floor ? 6 : 0));
      EXPECT_EQ(Cells(header[1]).size(), n);
      std::string row = BenchReport::MarkdownRow(Row(), columns);
      ASSERT_EQ(row.back(), '\n');
      row.pop_back();
      EXPECT_EQ(Cells(row).size(), n) << row;
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

}  // namespace
}  // namespace trestle::bench
