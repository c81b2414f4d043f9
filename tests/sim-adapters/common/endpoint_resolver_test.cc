// EndpointResolver (the unmapped-id policy): mapped ids resolve, unmapped
// ones give kNoEndpoint every time and are remembered once.
#include "trestle/adapter/endpoint_resolver.h"

#include <gtest/gtest.h>

namespace trestle::adapter {
namespace {

TEST(EndpointResolver, FirstAppearanceUntilTheEndpointsRunOut) {
  EndpointResolver resolver(EndpointMap(2), "test");
  EXPECT_EQ(resolver.Resolve("a"), 0u);
  EXPECT_EQ(resolver.Resolve("b"), 1u);
  EXPECT_EQ(resolver.Resolve("c"), kNoEndpoint);
  EXPECT_EQ(resolver.Resolve("c"), kNoEndpoint);
  EXPECT_EQ(resolver.Resolve("a"), 0u);
  EXPECT_EQ(resolver.unmapped_ids(), 1u) << "one id without an endpoint, however often seen";
  EXPECT_EQ(resolver.endpoints().size(), 2u);
}

TEST(EndpointResolver, AnIdTheMapFileLacksHasNoEndpoint) {
  absl::StatusOr<EndpointMap> map = EndpointMap::FromYaml("ping: 3\npong: 0\n", 4);
  ASSERT_TRUE(map.ok()) << map.status();
  EndpointResolver resolver(*std::move(map), "test");
  EXPECT_EQ(resolver.Resolve("pong"), 0u);
  EXPECT_EQ(resolver.Resolve("ping"), 3u);
  EXPECT_EQ(resolver.Resolve("stranger"), kNoEndpoint);
  EXPECT_EQ(resolver.Resolve("other"), kNoEndpoint);
  EXPECT_EQ(resolver.unmapped_ids(), 2u);
}

}  // namespace
}  // namespace trestle::adapter
