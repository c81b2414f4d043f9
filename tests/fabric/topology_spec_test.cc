// TopologySpec and TopologyBuilder: spec strings, presets, YAML files, and
// errors naming the offending key.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "temp_dir.h"
#include "trestle/fabric/topology_builder.h"
#include "trestle/fabric/topology_spec.h"

namespace trestle::fabric {
namespace {

using ::testing::HasSubstr;

std::string ErrorOf(std::string_view spec) {
  absl::StatusOr<TopologySpec> parsed = TopologySpec::Parse(spec);
  return parsed.ok() ? "" : std::string(parsed.status().message());
}

TEST(TopologySpecTest, SlingshotPresetHasThePublishedCounts) {
  auto start = std::chrono::steady_clock::now();
  absl::StatusOr<TopologyPtr> t = TopologyBuilder::FromText("slingshot");
  ASSERT_TRUE(t.ok()) << t.status();
  LinkCounts links = (*t)->CountLinks();
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ((*t)->EndpointCount(), 279040u);
  EXPECT_EQ((*t)->SwitchCount(), 17440u);
  EXPECT_EQ(links.global, 148240u);
  EXPECT_EQ(links.local, 17440u * 31 / 2);
  EXPECT_EQ(links.host, 279040u);
  EXPECT_EQ((*t)->Radix(), 64u);
  EXPECT_DOUBLE_EQ((*t)->params().switch_latency.ns(), 350.0);
  EXPECT_LT(seconds, 2.0);
}

TEST(TopologySpecTest, Slingshot1kHas1024Endpoints) {
  absl::StatusOr<TopologyPtr> t = TopologyBuilder::FromText("slingshot-1k");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ((*t)->EndpointCount(), 1024u);
  EXPECT_EQ((*t)->Radix(), 16u + 15u + 17u);
}

TEST(TopologySpecTest, ParsesEveryKind) {
  struct Case {
    const char* spec;
    std::uint32_t endpoints;
    std::uint32_t switches;
    const char* name;
  };
  for (const Case& c : std::vector<Case>{
           {"switch:8", 8, 1, "switch:8"},
           {"ring:8", 8, 0, "ring:8"},
           {"torus:4x4x4", 64, 0, "torus:4x4x4"},
           {"mesh:3x5", 15, 0, "mesh:3x5"},
           {"fullmesh:6", 6, 0, "fullmesh:6"},
           {"fattree:k=4", 16, 20, "fattree:k=4"},
           {"fattree:k=4,oversub=2", 32, 20, "fattree:k=4,oversub=2"},
           {"dragonfly:p=2,a=4,h=2,g=9", 72, 36, "dragonfly:p=2,a=4,h=2,g=9"},
           {"dragonfly:p=2,a=4,h=2,g=9,arrangement=circulant", 72, 36,
            "dragonfly:p=2,a=4,h=2,g=9,arrangement=circulant"},
       }) {
    absl::StatusOr<TopologyPtr> t = TopologyBuilder::FromText(c.spec);
    ASSERT_TRUE(t.ok()) << c.spec << ": " << t.status();
    EXPECT_EQ((*t)->EndpointCount(), c.endpoints) << c.spec;
    EXPECT_EQ((*t)->SwitchCount(), c.switches) << c.spec;
    EXPECT_EQ((*t)->Name(), c.name);
  }
}

TEST(TopologySpecTest, LinkKeysSetParamsAndWinOverDefaults) {
  FabricParams defaults;
  defaults.link_latency = Duration::Nanoseconds(7);
  absl::StatusOr<TopologyPtr> t = TopologyBuilder::FromText(
      "ring:8,link_bw=400Gbps,switch_latency=50ns", defaults);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_DOUBLE_EQ((*t)->params().link_bandwidth.bytes_per_ns(), 50.0);
  EXPECT_DOUBLE_EQ((*t)->params().injection_bandwidth.bytes_per_ns(), 50.0);
  EXPECT_DOUBLE_EQ((*t)->params().switch_latency.ns(), 50.0);
  EXPECT_DOUBLE_EQ((*t)->params().link_latency.ns(), 7.0);
}

TEST(TopologySpecTest, ErrorsNameTheProblem) {
  EXPECT_THAT(ErrorOf("banana:4"), HasSubstr("unknown topology 'banana'"));
  EXPECT_THAT(ErrorOf("ring:8,colour=red"), HasSubstr("unknown key 'colour'"));
  EXPECT_THAT(ErrorOf("ring:8,k=4"), HasSubstr("key 'k' does not apply"));
  EXPECT_THAT(ErrorOf("ring:8,link_bw=400"), HasSubstr("'400'"));
  EXPECT_THAT(ErrorOf("ring:eight"), HasSubstr("'eight'"));
  EXPECT_THAT(ErrorOf("fattree:k=5"), HasSubstr("k must be even"));
  EXPECT_THAT(ErrorOf("dragonfly:p=1,a=2,h=1,g=9"), HasSubstr("cannot reach"));
  EXPECT_THAT(ErrorOf("torus:65536x65536"), HasSubstr("too large"));
  EXPECT_THAT(ErrorOf("ring"), HasSubstr("at least 1 endpoint"));
  EXPECT_THAT(ErrorOf("dragonfly:p=1,a=2,h=1,g=3,arrangement=spiral"), HasSubstr("spiral"));
}

class YamlSpecTest : public TempDirTest {
 protected:
  std::string Write(const std::string& text) {
    std::string path = (dir_ / "topo.yaml").string();
    std::ofstream(path) << text;
    return path;
  }
};

TEST_F(YamlSpecTest, ReadsTheSameKeysAsSpecStrings) {
  std::string path = Write("topology: torus\ndims: [4, 4, 2]\nlink_bw: 400Gbps\n");
  absl::StatusOr<TopologyPtr> t = TopologyBuilder::FromText(path);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ((*t)->Name(), "torus:4x4x2");
  EXPECT_DOUBLE_EQ((*t)->params().link_bandwidth.bytes_per_ns(), 50.0);
}

TEST_F(YamlSpecTest, UnknownKeyIsAnErrorNamingIt) {
  std::string path = Write("topology: dragonfly\np: 2\na: 4\nh: 2\ng: 9\nlinkbw: 1Gbps\n");
  absl::StatusOr<TopologySpec> spec = TopologySpec::Parse(path);
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(std::string(spec.status().message()), HasSubstr("unknown key 'linkbw'"));
}

// Found by topology_spec_fuzzer: a map inside a list, or as a key, threw
// yaml-cpp's bad conversion out of FromYamlFile.
TEST_F(YamlSpecTest, NestedValuesAreErrorsNamingTheKey) {
  absl::StatusOr<TopologySpec> list = TopologySpec::Parse(Write("topology: torus\ndims: [4, 4, 4: ]\n"));
  ASSERT_FALSE(list.ok());
  EXPECT_THAT(std::string(list.status().message()), HasSubstr("key 'dims' must list plain values"));
  absl::StatusOr<TopologySpec> key = TopologySpec::Parse(Write("topology: ring\n[1, 2]: 3\n"));
  ASSERT_FALSE(key.ok());
  EXPECT_THAT(std::string(key.status().message()), HasSubstr("every key must be a plain name"));
}

TEST_F(YamlSpecTest, MissingFileIsAnError) {
  EXPECT_FALSE(TopologySpec::Parse((dir_ / "absent.yaml").string()).ok());
}

}  // namespace
}  // namespace trestle::fabric
