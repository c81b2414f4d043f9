// TrafficClassTable: flags and YAML files to classes, dense indices for the
// solver, and errors that name the class, key or file.
#include "trestle/fabric/traffic_class_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "temp_dir.h"

namespace trestle::fabric {
namespace {

using ::testing::HasSubstr;

std::string Error(const absl::Status& status) { return std::string(status.message()); }

TEST(TrafficClassTable, ParsesFlags) {
  absl::StatusOr<TrafficClassSpec> spec = TrafficClassTable::ParseFlag("3:weight=2.5,min=12.5%");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->tclass, 3u);
  EXPECT_EQ(spec->share.weight, 2.5);
  EXPECT_EQ(spec->share.min_fraction, 0.125);
  spec = TrafficClassTable::ParseFlag("7");
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->share.weight, 1);
  EXPECT_EQ(spec->share.min_fraction, 0);
  EXPECT_THAT(Error(TrafficClassTable::ParseFlag("x:min=1%").status()),
              HasSubstr("tclass 'x' must be a whole number"));
  EXPECT_THAT(Error(TrafficClassTable::ParseFlag("1:min").status()),
              HasSubstr("'min' is not KEY=VALUE"));
  EXPECT_THAT(Error(TrafficClassTable::ParseFlag("1:weight=heavy").status()),
              HasSubstr("weight: 'heavy' is not a number"));
}

TEST(TrafficClassTable, IndicesPutUnlistedClassesInTheDefault) {
  absl::StatusOr<TrafficClassTable> table = TrafficClassTable::Make(
      {TrafficClassSpec{5, ClassShare{1, 0.8}}, TrafficClassSpec{0, ClassShare{3, 0}}});
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(table->IndexOf(5), 1u);
  EXPECT_EQ(table->IndexOf(0), 2u);
  EXPECT_EQ(table->IndexOf(9), 0u);
  ASSERT_EQ(table->Shares().size(), 3u);
  EXPECT_EQ(table->Shares()[2].weight, 3);
  EXPECT_EQ(table->Describe(), "tclass 5: weight 1, min 80%; tclass 0: weight 3; others: weight 1");
  EXPECT_EQ(TrafficClassTable().Describe(), "one class");
  EXPECT_THAT(Error(TrafficClassTable::Make({TrafficClassSpec{1, {}}, TrafficClassSpec{1, {}}})
                        .status()),
              HasSubstr("traffic class 1 is configured twice"));
  EXPECT_THAT(Error(TrafficClassTable::Make({TrafficClassSpec{2, ClassShare{-1, 0}}}).status()),
              HasSubstr("traffic class 2: weight must be positive"));
}

class TrafficClassFileTest : public TempDirTest {
 protected:
  std::string Write(const std::string& yaml) {
    const std::string path = (dir_ / "classes.yaml").string();
    std::ofstream(path) << yaml;
    return path;
  }
};

TEST_F(TrafficClassFileTest, ReadsTheClassesList) {
  absl::StatusOr<TrafficClassTable> table = TrafficClassTable::FromYamlFile(
      Write("classes:\n  - {tclass: 1, weight: 1, min: 80%}\n  - tclass: 2\n    min: 20%\n"));
  ASSERT_TRUE(table.ok()) << table.status();
  ASSERT_EQ(table->specs().size(), 2u);
  EXPECT_EQ(table->specs()[1].tclass, 2u);
  EXPECT_EQ(table->specs()[1].share.min_fraction, 0.2);
}

TEST_F(TrafficClassFileTest, ErrorsNameTheFileAndTheProblem) {
  EXPECT_THAT(Error(TrafficClassTable::FromYamlFile(Write("classes:\n  - {weight: 1}\n")).status()),
              HasSubstr("entry 0: needs a 'tclass:' key"));
  EXPECT_THAT(Error(TrafficClassTable::FromYamlFile(Write("class:\n  - {tclass: 1}\n")).status()),
              HasSubstr("expected a map with a 'classes:' list"));
  // Keys that are lists once threw yaml-cpp's bad conversion.
  EXPECT_THAT(Error(TrafficClassTable::FromYamlFile(Write("classes:\n  - {tclass: 1}\n[a]: 1\n")).status()),
              HasSubstr("unknown key"));
  EXPECT_THAT(
      Error(TrafficClassTable::FromYamlFile(Write("classes:\n  - {tclass: 1, [w]: 2}\n")).status()),
      HasSubstr("entry 0: every key must be a plain name"));
  EXPECT_THAT(
      Error(TrafficClassTable::FromYamlFile(
                Write("classes:\n  - {tclass: 1, min: 70%}\n  - {tclass: 2, min: 40%}\n"))
                .status()),
      HasSubstr("add up to 110%"));
  EXPECT_THAT(Error(TrafficClassTable::FromYamlFile((dir_ / "missing.yaml").string()).status()),
              HasSubstr("missing.yaml"));
}

}  // namespace
}  // namespace trestle::fabric
