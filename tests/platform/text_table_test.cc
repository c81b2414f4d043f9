// TextTable: aligned columns for people, CSV with one quoting rule for
// programs.
#include "trestle/platform/text_table.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "trestle/platform/read_file.h"

namespace trestle::platform {
namespace {

TEST(TextTableTest, PrintsAlignedColumnsWithNumbersOnTheRight) {
  TextTable t({"stage", "count", "p50_us"});
  t.AddRow({"queue", "12", "3.5"});
  t.AddRow({"simulator", "1234", "-"});
  t.AddRow({"short"});
  std::ostringstream out;
  t.Print(out);
  EXPECT_EQ(out.str(),
            "stage      count  p50_us\n"
            "queue         12     3.5\n"
            "simulator   1234       -\n"
            "short                   \n");
}

TEST(TextTableTest, CsvQuotesOnlyWhatNeedsItAndDoublesQuotes) {
  EXPECT_EQ(TextTable::CsvField("plain text"), "plain text");
  EXPECT_EQ(TextTable::CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(TextTable::CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(TextTable::CsvField("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(TextTable::CsvField("cr\r"), "\"cr\r\"");
  EXPECT_EQ(TextTable::CsvField(""), "");
}

TEST(TextTableTest, WritesTheHeaderAndEveryCellAsCsv) {
  TextTable t({"topology", "size"});
  t.AddRow({"torus:4x4,wrapped", "1024"});
  t.AddRow({"ring", "8", "extra"});
  std::ostringstream out;
  t.WriteCsv(out);
  EXPECT_EQ(out.str(), "topology,size\n\"torus:4x4,wrapped\",1024\nring,8,extra\n");

  const std::string path = (std::filesystem::temp_directory_path() /
                            ("text_table_test_" + std::to_string(::getpid()) + ".csv"))
                               .string();
  ASSERT_TRUE(t.WriteCsvFile(path).ok());
  EXPECT_EQ(ReadFile(path).value_or(""), out.str());
  std::filesystem::remove(path);
  absl::Status s = t.WriteCsvFile("/nonexistent-dir/x.csv");
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(s.message(), "cannot write CSV '/nonexistent-dir/x.csv': No such file or directory");
}

}  // namespace
}  // namespace trestle::platform
