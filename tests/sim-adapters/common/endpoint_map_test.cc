// EndpointMap: map files (format, range, duplicates); without one, ids
// ending in a number on that endpoint, the others in order of first
// appearance.
#include "trestle/adapter/endpoint_map.h"

#include <fstream>

#include <gtest/gtest.h>

#include "temp_dir.h"

namespace trestle::adapter {
namespace {

TEST(EndpointMapFirstAppearance, AssignsEndpointsInOrderAndRemembersThem) {
  EndpointMap map(3);
  EXPECT_FALSE(map.from_file());
  EXPECT_EQ(*map.Resolve("b"), 0u);
  EXPECT_EQ(*map.Resolve("a"), 1u);
  EXPECT_EQ(*map.Resolve("b"), 0u);
  EXPECT_EQ(*map.Resolve("c"), 2u);
  EXPECT_EQ(map.size(), 3u);
}

TEST(EndpointMapFirstAppearance, AnIdEndingInANumberIsThatEndpointWhenItIsFree) {
  EndpointMap map(12);
  // Ranks of a collective, in the order a lockstep grant sorts their ids.
  EXPECT_EQ(*map.Resolve("rank-0"), 0u);
  EXPECT_EQ(*map.Resolve("rank-1"), 1u);
  EXPECT_EQ(*map.Resolve("rank-10"), 10u);
  EXPECT_EQ(*map.Resolve("rank-2"), 2u);
  EXPECT_EQ(*map.Resolve("7"), 7u);
  EXPECT_EQ(*map.Resolve("node007"), 3u) << "7 is taken: the lowest free";
  EXPECT_EQ(*map.Resolve("ping"), 4u);
  EXPECT_EQ(*map.Resolve("x99"), 5u) << "beyond the endpoints: the lowest free";
  EXPECT_EQ(*map.Resolve("rank-10"), 10u);
  EXPECT_EQ(map.size(), 8u);
}

TEST(EndpointMapFirstAppearance, AnIdBeyondTheEndpointsIsOutOfRangeAndNamed) {
  EndpointMap map(2);
  ASSERT_TRUE(map.Resolve("a").ok());
  ASSERT_TRUE(map.Resolve("b").ok());
  absl::StatusOr<EndpointId> third = map.Resolve("node-c");
  ASSERT_FALSE(third.ok());
  EXPECT_EQ(third.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_NE(third.status().message().find("'node-c'"), std::string_view::npos)
      << third.status();
  EXPECT_NE(third.status().message().find("only 2 endpoints"), std::string_view::npos);
  // Nothing was assigned, the others still resolve, and it fails again.
  EXPECT_EQ(map.size(), 2u);
  EXPECT_EQ(*map.Resolve("a"), 0u);
  EXPECT_FALSE(map.Resolve("node-c").ok());
}

TEST(EndpointMapFromYaml, MapsListedIdsAndRejectsOthers) {
  absl::StatusOr<EndpointMap> map = EndpointMap::FromYaml("# id: endpoint\nnode-a: 5\nnode-b: 0\n", 8);
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_TRUE(map->from_file());
  EXPECT_EQ(map->size(), 2u);
  EXPECT_EQ(*map->Resolve("node-a"), 5u);
  EXPECT_EQ(*map->Resolve("node-b"), 0u);
  absl::StatusOr<EndpointId> other = map->Resolve("node-c");
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(other.status().message().find("'node-c'"), std::string_view::npos);
  EXPECT_EQ(map->size(), 2u);
}

// Each bad map is InvalidArgument and its message names the culprit.
struct BadMap {
  const char* yaml;
  const char* named;
};

class EndpointMapBadYaml : public ::testing::TestWithParam<BadMap> {};

TEST_P(EndpointMapBadYaml, IsRejectedNamingTheProblem) {
  absl::StatusOr<EndpointMap> map = EndpointMap::FromYaml(GetParam().yaml, 8);
  ASSERT_FALSE(map.ok()) << GetParam().yaml;
  EXPECT_EQ(map.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(map.status().message().find(GetParam().named), std::string_view::npos)
      << map.status();
}

INSTANTIATE_TEST_SUITE_P(
    Cases, EndpointMapBadYaml,
    ::testing::Values(BadMap{"a: 0\nlate: 8\n", "'late'"},            // out of range
                      BadMap{"a: 0\nneg: -1\n", "'neg'"},             // negative
                      BadMap{"a: 0\nword: two\n", "'word'"},          // not a number
                      BadMap{"a: 0\nfrac: 1.5\n", "'frac'"},          // not an integer
                      BadMap{"a: 0\nb: 3\nc: 3\n", "'b' and 'c'"},    // endpoint shared
                      BadMap{"a: 0\nb: 1\na: 2\n", "'a'"},            // id twice
                      BadMap{"a: [1, 2]\n", "client-id: endpoint"},   // not a scalar
                      BadMap{"- a\n- b\n", "mapping"},                // not a mapping
                      BadMap{"", "mapping"},                          // empty
                      BadMap{"a: 0\n  b: : 1\n", "YAML"}));           // unparsable

class EndpointMapFile : public TempDirTest {};

TEST_F(EndpointMapFile, ReadsTheFileAndPrefixesErrorsWithItsPath) {
  const std::string good = (dir_ / "good.yaml").string();
  std::ofstream(good) << "app-0: 3\napp-1: 1\n";
  absl::StatusOr<EndpointMap> map = EndpointMap::FromFile(good, 4);
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ(*map->Resolve("app-0"), 3u);

  const std::string bad = (dir_ / "bad.yaml").string();
  std::ofstream(bad) << "app-0: 4\n";
  absl::StatusOr<EndpointMap> rejected = EndpointMap::FromFile(bad, 4);
  ASSERT_FALSE(rejected.ok());
  EXPECT_NE(rejected.status().message().find(bad), std::string_view::npos);
  EXPECT_NE(rejected.status().message().find("'app-0'"), std::string_view::npos);

  absl::StatusOr<EndpointMap> missing = EndpointMap::FromFile((dir_ / "none.yaml").string(), 4);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace trestle::adapter
