// ParseRedisUrl: every form the daemon and the SDK take, and errors that
// name the caller's word, the text and the problem.
#include "trestle/platform/redis_url.h"

#include <gtest/gtest.h>

#include <string>

namespace trestle::platform {
namespace {

TEST(RedisUrlTest, ParsesHostPortAndDatabase) {
  absl::StatusOr<RedisUrl> url = ParseRedisUrl("redis://127.0.0.1:6399/3");
  ASSERT_TRUE(url.ok()) << url.status();
  EXPECT_EQ(url->host, "127.0.0.1");
  EXPECT_EQ(url->port, 6399);
  EXPECT_EQ(url->db, 3);
}

TEST(RedisUrlTest, ThePortAndTheDatabaseHaveDefaults) {
  absl::StatusOr<RedisUrl> url = ParseRedisUrl("redis://cache.internal");
  ASSERT_TRUE(url.ok()) << url.status();
  EXPECT_EQ(url->host, "cache.internal");
  EXPECT_EQ(url->port, 6379);
  EXPECT_EQ(url->db, 0);
  url = ParseRedisUrl("redis://h/2");
  ASSERT_TRUE(url.ok()) << url.status();
  EXPECT_EQ(url->port, 6379);
  EXPECT_EQ(url->db, 2);
}

TEST(RedisUrlTest, ErrorsNameTheWordTheTextAndTheProblem) {
  auto error = [](const std::string& text) {
    absl::StatusOr<RedisUrl> url = ParseRedisUrl(text, "payload store URL");
    EXPECT_EQ(url.status().code(), absl::StatusCode::kInvalidArgument) << text;
    return std::string(url.status().message());
  };
  EXPECT_EQ(error("http://h:1"),
            "payload store URL 'http://h:1' is not redis://HOST:PORT[/DB]: wrong scheme");
  EXPECT_EQ(error("redis://h:0"),
            "payload store URL 'redis://h:0' is not redis://HOST:PORT[/DB]: bad port");
  EXPECT_EQ(error("redis://h:65536"),
            "payload store URL 'redis://h:65536' is not redis://HOST:PORT[/DB]: bad port");
  EXPECT_EQ(error("redis://h:+1"),
            "payload store URL 'redis://h:+1' is not redis://HOST:PORT[/DB]: bad port");
  EXPECT_EQ(error("redis://h:1/x"),
            "payload store URL 'redis://h:1/x' is not redis://HOST:PORT[/DB]: bad DB number");
  EXPECT_EQ(error("redis://h:1/"),
            "payload store URL 'redis://h:1/' is not redis://HOST:PORT[/DB]: bad DB number");
  EXPECT_EQ(error("redis://:6379"),
            "payload store URL 'redis://:6379' is not redis://HOST:PORT[/DB]: no host");
  EXPECT_EQ(ParseRedisUrl("redis://").status().message(),
            "Redis URL 'redis://' is not redis://HOST:PORT[/DB]: no host");
}

}  // namespace
}  // namespace trestle::platform
