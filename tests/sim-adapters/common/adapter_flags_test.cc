// The flags live adapters share: what --help shows, and what the parsed
// text turns into (delivery mode, time mode, errors that name the value).
#include "trestle/adapter/adapter_flags.h"

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace trestle::adapter {
namespace {

void Parse(CLI::App& app, std::vector<std::string> args) {
  std::reverse(args.begin(), args.end());  // CLI11 takes them in reverse
  app.parse(args);
}

TEST(ConnectionFlags, HelpListsThemAndParsingSetsTheClientOptions) {
  for (const std::string group : {"", "Live adapter"}) {
    CLI::App app;
    ConnectionFlags flags;
    flags.AddTo(&app, "ghost", "127.0.0.1:7878", group);
    const std::string help = app.help();
    for (const char* flag : {"--daemon", "--pull", "--id", "--token"}) {
      EXPECT_NE(help.find(flag), std::string::npos) << flag << " in group '" << group << "'";
    }
    EXPECT_EQ(flags.Resolve().client_id, "ghost");
    EXPECT_EQ(flags.Resolve().daemon, "127.0.0.1:7878");
    EXPECT_EQ(flags.Resolve().mode, DeliveryMode::kPush);
    Parse(app, {"--daemon", "unix:/tmp/d.sock", "--id", "sim-2", "--pull"});
    EXPECT_EQ(flags.Resolve().daemon, "unix:/tmp/d.sock");
    EXPECT_EQ(flags.Resolve().client_id, "sim-2");
    EXPECT_EQ(flags.Resolve().mode, DeliveryMode::kPull);
  }
}

TEST(EndpointAdapterFlags, TheTimeModeIsUnsetUnlessGivenUnderEitherName) {
  for (const char* name : {"--time-mode", "--time"}) {
    CLI::App app;
    EndpointAdapterFlags flags;
    flags.AddTo(&app, "");
    SimAdapterOptions base;
    base.name = "test";
    EXPECT_FALSE(flags.Resolve(base)->time_mode.has_value()) << "follows the daemon";
    Parse(app, {name, "paced", "--dilation", "2", "--loss-rate", "0.5"});
    absl::StatusOr<SimAdapterOptions> options = flags.Resolve(base);
    ASSERT_TRUE(options.ok()) << options.status();
    EXPECT_EQ(options->time_mode, wire::TIME_MODE_PACED);
    EXPECT_EQ(options->dilation, 2);
    EXPECT_EQ(options->loss_rate, 0.5);
    EXPECT_EQ(options->name, "test");
  }
}

TEST(EndpointAdapterFlags, AnUnknownTimeModeIsNamed) {
  EndpointAdapterFlags flags;
  flags.time_mode = "warp";
  absl::StatusOr<SimAdapterOptions> options = flags.Resolve({});
  ASSERT_FALSE(options.ok());
  EXPECT_EQ(options.status().message(),
            "unknown time mode 'warp' (wallclock, paced, virtual, lockstep)");
}

TEST(EndpointAdapterFlags, WithoutAMapEndpointsGoInOrderOfFirstAppearance) {
  EndpointAdapterFlags flags;
  absl::StatusOr<EndpointMap> map = flags.LoadMap(4);
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_FALSE(map->from_file());
  EXPECT_EQ(map->endpoint_count(), 4u);
  flags.map = "/nonexistent/map.yaml";
  EXPECT_EQ(flags.LoadMap(4).status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace trestle::adapter
