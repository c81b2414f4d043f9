// ConfigLoader and ParseListenAddress: values land where they should, and
// every error names the key or text at fault.
#include "trestle/daemon/config_loader.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include "trestle/daemon/listen_address.h"

namespace trestle::daemon {
namespace {

TEST(ConfigLoader, YamlSetsFieldsWithUnits) {
  DaemonConfig c;
  ASSERT_TRUE(ConfigLoader::ApplyYaml("max_frame_bytes: 2MiB\nmax_batch: 64\n"
                                      "sim_assignment: per-node\ndelivery_ttl_ms: 500\n",
                                      "test.yaml", &c)
                  .ok());
  EXPECT_EQ(c.max_frame_bytes, 2u << 20);
  EXPECT_EQ(c.max_batch, 64u);
  EXPECT_EQ(c.sim_assignment, SimAssignment::kPerNode);
  EXPECT_EQ(c.delivery_ttl_ms, 500u);
}

TEST(ConfigLoader, UnknownKeyIsNamed) {
  DaemonConfig c;
  absl::Status s = ConfigLoader::ApplyYaml("max_batches: 3\n", "test.yaml", &c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("unknown key 'max_batches'"), absl::string_view::npos) << s;
  EXPECT_NE(s.message().find("test.yaml"), absl::string_view::npos) << s;
}

// Found by fuzzing: a key that is a list threw yaml-cpp's bad conversion.
TEST(ConfigLoader, AKeyThatIsNotANameIsAnError) {
  DaemonConfig c;
  absl::Status s = ConfigLoader::ApplyYaml("[1, 2]: 3\n", "test.yaml", &c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("test.yaml: every key must be a plain name"), absl::string_view::npos)
      << s;
}

TEST(ConfigLoader, BadValuesNameTheKeyAndValue) {
  DaemonConfig c;
  absl::Status s = ConfigLoader::ApplyYaml("max_batch: many\n", "t.yaml", &c);
  EXPECT_NE(s.message().find("max_batch: 'many' is not a whole number"), absl::string_view::npos) << s;
  s = ConfigLoader::ApplyYaml("sim_assignment: each\n", "t.yaml", &c);
  EXPECT_NE(s.message().find("sim_assignment: 'each' is not one of: system, per-node"),
            absl::string_view::npos) << s;
  s = ConfigLoader::ApplyYaml("max_batch: 0\n", "t.yaml", &c);
  EXPECT_NE(s.message().find("out of range"), absl::string_view::npos) << s;
  s = ConfigLoader::ApplyYaml("listen: 7878\n", "t.yaml", &c);
  EXPECT_NE(s.message().find("listen: '7878'"), absl::string_view::npos) << s;
  s = ConfigLoader::ApplyYaml("[1, 2]\n", "t.yaml", &c);
  EXPECT_NE(s.message().find("expected a map"), absl::string_view::npos) << s;
}

TEST(ConfigLoader, FlagsOverrideDefaultsAndNameTheFlagOnError) {
  {
    ConfigLoader loader;
    CLI::App app;
    loader.AddFlags(app);
    const char* argv[] = {"trestled", "--max-batch", "32", "--time-mode", "virtual"};
    app.parse(5, const_cast<char**>(argv));
    auto config = loader.Build();
    ASSERT_TRUE(config.ok()) << config.status();
    EXPECT_EQ(config->max_batch, 32u);
    EXPECT_EQ(config->time_mode, wire::TIME_MODE_VIRTUAL);
    EXPECT_EQ(config->listen, "127.0.0.1:7878");
  }
  {
    ConfigLoader loader;
    CLI::App app;
    loader.AddFlags(app);
    const char* argv[] = {"trestled", "--max-batch", "lots"};
    app.parse(3, const_cast<char**>(argv));
    auto config = loader.Build();
    ASSERT_FALSE(config.ok());
    EXPECT_NE(config.status().message().find("--max-batch"), absl::string_view::npos);
  }
}

TEST(ConfigLoader, EnumeratedSettingsAreParsedOnceIntoTheirTypes) {
  DaemonConfig c;
  ASSERT_TRUE(ConfigLoader::ApplyYaml("store: redis://127.0.0.1:6380/2\ntime_mode: paced\n"
                                      "log_level: warn\ndaemon_id: 1023\n"
                                      "delivery_memory_budget: 2GiB\nslow_app_grace_ms: 250\n",
                                      "t.yaml", &c)
                  .ok());
  EXPECT_EQ(c.store, StoreKind::kRedis);
  EXPECT_EQ(c.store_url, "redis://127.0.0.1:6380/2");
  EXPECT_EQ(c.time_mode, wire::TIME_MODE_PACED);
  EXPECT_EQ(c.log_level, LogLevel::kWarn);
  EXPECT_EQ(c.daemon_id, 1023u);
  EXPECT_EQ(c.delivery_memory_budget, 2ull << 30);
  EXPECT_EQ(c.slow_app_grace_ms, 250u);
  ASSERT_TRUE(ConfigLoader::ApplyYaml("store: memory\n", "t.yaml", &c).ok());
  EXPECT_EQ(c.store, StoreKind::kMemory);

  absl::Status s = ConfigLoader::ApplyYaml("daemon_id: 1024\n", "t.yaml", &c);
  EXPECT_NE(s.message().find("daemon_id: '1024' is out of range [0, 1023]"),
            absl::string_view::npos) << s;
  s = ConfigLoader::ApplyYaml("store: mem\n", "t.yaml", &c);
  EXPECT_NE(s.message().find("store: 'mem' is neither memory nor redis://HOST:PORT[/DB]"),
            absl::string_view::npos) << s;
  s = ConfigLoader::ApplyYaml("time_mode: realtime\n", "t.yaml", &c);
  EXPECT_NE(s.message().find("time_mode: 'realtime' is not one of: wallclock, paced, virtual"),
            absl::string_view::npos) << s;
}

TEST(ConfigLoader, ListeningBeyondLoopbackRequiresAToken) {
  DaemonConfig c;
  c.listen = "0.0.0.0:7878";
  absl::Status s = ConfigLoader::Validate(c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("auth_token"), absl::string_view::npos);
  c.auth_token = "t";
  EXPECT_TRUE(ConfigLoader::Validate(c).ok());
  c = DaemonConfig();
  c.listen = "127.0.0.5:1";
  EXPECT_TRUE(ConfigLoader::Validate(c).ok());
}

TEST(ListenAddress, ParsesLoopbackAndOthers) {
  auto a = ParseListenAddress("127.0.0.1:7878");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->port, 7878);
  EXPECT_TRUE(a->loopback);
  a = ParseListenAddress("[::1]:0");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->host, "::1");
  EXPECT_TRUE(a->loopback);
  a = ParseListenAddress("localhost:9");
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(a->loopback);
  a = ParseListenAddress("10.1.2.3:80");
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(a->loopback);
  EXPECT_FALSE(ParseListenAddress("7878").ok());
  EXPECT_FALSE(ParseListenAddress("host:99999").ok());
  EXPECT_FALSE(ParseListenAddress("example.com:80").ok());
}

}  // namespace
}  // namespace trestle::daemon

namespace trestle::daemon {
namespace {

// The shipped example file must load, and hold exactly the defaults.
// --federate is a bare flag (federate: true in YAML); the run's name is a
// part of Redis keys, so it is checked; federation needs a Redis store and
// is refused with what it does not support yet; so is a journal without it.
TEST(ConfigLoader, FederationSettings) {
  {
    ConfigLoader loader;
    CLI::App app;
    loader.AddFlags(app);
    const char* argv[] = {"trestled", "--federate", "--run", "lab-7.b", "--store",
                          "redis://127.0.0.1:6379/2"};
    app.parse(6, const_cast<char**>(argv));
    auto config = loader.Build();
    ASSERT_TRUE(config.ok()) << config.status();
    EXPECT_TRUE(config->federate);
    EXPECT_EQ(config->run, "lab-7.b");
  }
  DaemonConfig c;
  ASSERT_TRUE(ConfigLoader::ApplyYaml("federate: true\n", "t.yaml", &c).ok());
  EXPECT_TRUE(c.federate);
  absl::Status bad = ConfigLoader::ApplyYaml("federate: maybe\n", "t.yaml", &c);
  EXPECT_NE(bad.message().find("federate: 'maybe' is not true or false"), absl::string_view::npos)
      << bad;
  bad = ConfigLoader::ApplyYaml("run: 'a:b'\n", "t.yaml", &c);
  EXPECT_NE(bad.message().find("run: 'a:b' may hold only letters"), absl::string_view::npos) << bad;
  bad = ConfigLoader::ApplyYaml("run: ''\n", "t.yaml", &c);
  EXPECT_NE(bad.message().find("must be 1 to 64 characters"), absl::string_view::npos) << bad;

  DaemonConfig memory;
  memory.federate = true;
  EXPECT_NE(ConfigLoader::Validate(memory).message().find("federate: needs a Redis store"),
            absl::string_view::npos);
  DaemonConfig lockstep = memory;
  lockstep.store = StoreKind::kRedis;
  lockstep.store_url = "redis://127.0.0.1:6379";
  lockstep.time_mode = wire::TIME_MODE_LOCKSTEP;
  lockstep.daemon_id = 2;
  // Lockstep across daemons names its coordinator on every daemon.
  EXPECT_NE(ConfigLoader::Validate(lockstep).message().find(
                "lockstep_coordinator: a lockstep run across daemons (federate) needs it on "
                "every daemon"),
            absl::string_view::npos)
      << ConfigLoader::Validate(lockstep);
  ASSERT_TRUE(ConfigLoader::ApplyYaml("lockstep_coordinator: 1\n", "t.yaml", &lockstep).ok());
  EXPECT_EQ(lockstep.coordinator(), 1u);
  EXPECT_FALSE(lockstep.coordinates());
  EXPECT_TRUE(ConfigLoader::Validate(lockstep).ok()) << ConfigLoader::Validate(lockstep);
  // The apps the run waits for are the coordinator's setting.
  lockstep.lockstep_app_count = 4;
  EXPECT_NE(ConfigLoader::Validate(lockstep).message().find(
                "lockstep_apps: the apps a lockstep run waits for are the coordinator's setting "
                "(daemon 1"),
            absl::string_view::npos)
      << ConfigLoader::Validate(lockstep);
  lockstep.daemon_id = 1;
  EXPECT_TRUE(lockstep.coordinates());
  EXPECT_TRUE(ConfigLoader::Validate(lockstep).ok()) << ConfigLoader::Validate(lockstep);
  bad = ConfigLoader::ApplyYaml("lockstep_coordinator: 1024\n", "t.yaml", &lockstep);
  EXPECT_NE(bad.message().find("lockstep_coordinator: '1024' is not a daemon id (0..1023)"),
            absl::string_view::npos)
      << bad;
  DaemonConfig alone;  // without federate the flag means nothing: refused
  alone.time_mode = wire::TIME_MODE_LOCKSTEP;
  alone.lockstep_coordinator = 0;
  EXPECT_NE(ConfigLoader::Validate(alone).message().find("it needs federate and time_mode lockstep"),
            absl::string_view::npos);
  DaemonConfig per_node = lockstep;
  per_node.time_mode = wire::TIME_MODE_WALLCLOCK;
  per_node.lockstep_coordinator.reset();
  per_node.lockstep_app_count = 0;
  per_node.sim_assignment = SimAssignment::kPerNode;
  EXPECT_NE(ConfigLoader::Validate(per_node).message().find("sim_assignment must be system"),
            absl::string_view::npos);
  per_node.sim_assignment = SimAssignment::kSystem;
  EXPECT_TRUE(ConfigLoader::Validate(per_node).ok());

  // The journal: off by default, a federated daemon's choice only.
  EXPECT_FALSE(DaemonConfig{}.journal);
  DaemonConfig journaled = per_node;
  ASSERT_TRUE(ConfigLoader::ApplyYaml("journal: true\n", "t.yaml", &journaled).ok());
  EXPECT_TRUE(journaled.journal);
  EXPECT_TRUE(ConfigLoader::Validate(journaled).ok());
  journaled.federate = false;
  EXPECT_NE(ConfigLoader::Validate(journaled).message().find(
                "journal: only a federated daemon (federate) keeps a journal"),
            absl::string_view::npos)
      << ConfigLoader::Validate(journaled);
}

TEST(ConfigLoader, PayloadByKeySettings) {
  const DaemonConfig defaults;
  EXPECT_TRUE(defaults.payload_by_key);
  EXPECT_EQ(defaults.payload_by_key_threshold, 65536u);
  EXPECT_EQ(defaults.store_client_url, "");
  {
    ConfigLoader loader;
    CLI::App app;
    loader.AddFlags(app);
    const char* argv[] = {"trestled", "--store", "redis://10.0.0.1:6379/2",
                          "--store-client-url", "redis://redis.lab:6379/2",
                          "--payload-by-key-threshold", "1MiB", "--payload-by-key", "false"};
    app.parse(9, const_cast<char**>(argv));
    auto config = loader.Build();
    ASSERT_TRUE(config.ok()) << config.status();
    EXPECT_EQ(config->store_client_url, "redis://redis.lab:6379/2");
    EXPECT_EQ(config->payload_by_key_threshold, 1u << 20);
    EXPECT_FALSE(config->payload_by_key);
  }
  {
    ConfigLoader loader;
    CLI::App app;
    loader.AddFlags(app);
    const char* argv[] = {"trestled", "--payload-by-key-threshold", "lots"};
    app.parse(3, const_cast<char**>(argv));
    auto config = loader.Build();
    ASSERT_FALSE(config.ok());
    EXPECT_NE(config.status().message().find(
                  "--payload-by-key-threshold: payload_by_key_threshold: 'lots' is not a whole "
                  "number"),
              absl::string_view::npos)
        << config.status();
  }
  DaemonConfig c;
  ASSERT_TRUE(ConfigLoader::ApplyYaml("payload_by_key_threshold: 0\npayload_by_key: true\n",
                                      "t.yaml", &c)
                  .ok());
  EXPECT_EQ(c.payload_by_key_threshold, 0u);  // 0: every payload by key
  EXPECT_TRUE(c.payload_by_key);
  absl::Status bad = ConfigLoader::ApplyYaml("payload_by_key: sometimes\n", "t.yaml", &c);
  EXPECT_NE(bad.message().find("payload_by_key: 'sometimes' is not true or false"),
            absl::string_view::npos)
      << bad;
  bad = ConfigLoader::ApplyYaml("store_client_url: redis.lab:6379\n", "t.yaml", &c);
  EXPECT_NE(bad.message().find("store_client_url: 'redis.lab:6379' is not "
                               "redis://HOST:PORT[/DB]"),
            absl::string_view::npos)
      << bad;
  DaemonConfig memory;
  memory.store_client_url = "redis://redis.lab:6379";
  EXPECT_NE(ConfigLoader::Validate(memory).message().find(
                "store_client_url: 'redis://redis.lab:6379' needs a Redis store"),
            absl::string_view::npos)
      << ConfigLoader::Validate(memory);
}

TEST(ConfigLoader, ShippedExampleFileHoldsTheDefaults) {
  ConfigLoader loader;
  CLI::App app;
  loader.AddFlags(app);
  const std::string path = std::string(TRESTLE_SOURCE_DIR) + "/deploy/configs/trestled.yaml";
  const char* argv[] = {"trestled", "--config", path.c_str()};
  app.parse(3, const_cast<char**>(argv));
  auto config = loader.Build();
  ASSERT_TRUE(config.ok()) << config.status();
  const DaemonConfig defaults;
  EXPECT_EQ(config->listen, defaults.listen);
  EXPECT_EQ(config->max_frame_bytes, defaults.max_frame_bytes);
  EXPECT_EQ(config->output_high_watermark, defaults.output_high_watermark);
  EXPECT_EQ(config->delivery_ttl_ms, defaults.delivery_ttl_ms);
  EXPECT_EQ(config->delivery_queue_bytes, defaults.delivery_queue_bytes);
  EXPECT_EQ(config->slow_app_grace_ms, defaults.slow_app_grace_ms);
  EXPECT_EQ(config->delivery_memory_budget, defaults.delivery_memory_budget);
  EXPECT_EQ(config->daemon_id, defaults.daemon_id);
  EXPECT_EQ(config->store, defaults.store);
  EXPECT_EQ(config->store_key_ttl_ms, defaults.store_key_ttl_ms);
  EXPECT_EQ(config->federate, defaults.federate);
  EXPECT_EQ(config->run, defaults.run);
  EXPECT_EQ(config->log_level, defaults.log_level);
}

}  // namespace
}  // namespace trestle::daemon
