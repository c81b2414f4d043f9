// NodeAddressMap: the config format, lookups both ways, and errors that name
// the node and the value.
#include "trestle/gateway/node_address_map.h"

#include <gtest/gtest.h>

namespace trestle::gateway {
namespace {

TEST(NodeAddressMapTest, MapsNodesToAddressesBothWays) {
  absl::StatusOr<NodeAddressMap> map = NodeAddressMap::FromYaml(
      "# node: address\nn0: 10.77.0.1\nn1: 10.77.0.2/16\n");
  ASSERT_TRUE(map.ok()) << map.status();
  ASSERT_EQ(map->nodes().size(), 2u);
  const NodeAddress* n0 = map->Find("n0");
  ASSERT_NE(n0, nullptr);
  EXPECT_EQ(n0->address, 0x0a4d0001u);
  EXPECT_EQ(n0->prefix_length, kDefaultPrefixLength);
  EXPECT_EQ(map->Find("n1")->prefix_length, 16);
  EXPECT_EQ(map->NodeOf(0x0a4d0002u)->node, "n1");
  EXPECT_EQ(map->NodeOf(0x0a4d0003u), nullptr);
  EXPECT_EQ(map->Find("n2"), nullptr);
  EXPECT_EQ(map->NodeNames(), "n0, n1");
  EXPECT_EQ(FormatIpv4(0x0a4d0002u), "10.77.0.2");
}

void ExpectError(const char* yaml, const std::string& fragment) {
  absl::StatusOr<NodeAddressMap> map = NodeAddressMap::FromYaml(yaml);
  ASSERT_FALSE(map.ok()) << yaml;
  EXPECT_EQ(map.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(map.status().message().find(fragment), std::string::npos)
      << "'" << map.status().message() << "' lacks '" << fragment << "'";
}

TEST(NodeAddressMapTest, ErrorsNameTheNodeAndTheValue) {
  ExpectError("", "non-empty YAML mapping");
  ExpectError("[a, b]", "non-empty YAML mapping");
  ExpectError("n0: [1]", "plain scalar values");
  ExpectError("n0: 10.77.0", "node 'n0': '10.77.0' is not an IPv4 address");
  ExpectError("n0: 10.77.0.1/33", "node 'n0': '10.77.0.1/33' is not an IPv4 address");
  ExpectError("n0: 10.77.0.1/", "node 'n0': '10.77.0.1/' is not an IPv4 address");
  ExpectError("n0: 10.77.0.1\nn1: 10.77.0.1", "nodes 'n0' and 'n1' both have address 10.77.0.1");
  ExpectError("n0: 10.77.0.1\nn0: 10.77.0.2", "node 'n0' appears more than once");
  ExpectError(("'" + std::string(256, 'x') + "': 10.77.0.1").c_str(), "1..255 bytes");
  ExpectError("n0: {", "not valid YAML");
}

TEST(NodeAddressMapTest, AnUnreadableFileIsNotFoundNamingIt) {
  absl::StatusOr<NodeAddressMap> map = NodeAddressMap::FromFile("/nonexistent/gateway.yaml");
  ASSERT_FALSE(map.ok());
  EXPECT_EQ(map.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(map.status().message().find("/nonexistent/gateway.yaml"), std::string::npos);
}

}  // namespace
}  // namespace trestle::gateway
