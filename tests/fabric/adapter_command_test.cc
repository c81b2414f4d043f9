// `trestle-sim fabric` without a subcommand (the live adapter): what --help
// says, and the errors it gives before it ever connects.
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fabric_cli_test.h"

namespace trestle::fabric {
namespace {

using ::testing::HasSubstr;

// A port nothing listens on: these runs must fail before connecting.
constexpr char kNoDaemon[] = "127.0.0.1:1";

TEST_F(FabricCliTest, FabricHelpDescribesTheAdapterAndTheDescribeSubcommand) {
  CLI::App app;
  RegisterFabricCommands(app);
  const std::string help = app.get_subcommand("fabric")->help();
  for (const char* text : {"--daemon", "--topology", "--routing", "--map", "--time", "--dilation",
                           "--seed", "--loss-rate", "--pull", "--id", "--endpoint-delay",
                           "--link-bw", "--link-latency", "describe", "live adapter", "--model",
                           "--cc", "--class", "--classes", "--drain-after"}) {
    EXPECT_THAT(help, HasSubstr(text));
  }
}

TEST_F(FabricCliTest, FabricAloneAsksForDaemonAndTopologyOrASubcommand) {
  std::string err = Run({"fabric"});
  EXPECT_THAT(err, HasSubstr("--daemon ADDR and --topology SPEC"));
  EXPECT_THAT(err, HasSubstr("fabric describe"));
  EXPECT_THAT(Run({"fabric", "--daemon", kNoDaemon}), HasSubstr("--topology SPEC"));
}

TEST_F(FabricCliTest, DescribeStillWorksBesideTheAdapterOptions) {
  EXPECT_THAT(Run({"fabric", "describe", "--topology", "ring:8"}), HasSubstr("endpoints       8"));
}

TEST_F(FabricCliTest, AdapterRejectsABadTimeModeRoutingOrSpecNamingIt) {
  EXPECT_THAT(Run({"fabric", "--daemon", kNoDaemon, "--topology", "ring:8", "--time", "warp"}),
              HasSubstr("error: unknown time mode 'warp' (wallclock, paced, virtual"))
      << "the list grows with lockstep";
  EXPECT_THAT(Run({"fabric", "--daemon", kNoDaemon, "--topology", "ring:8", "--routing", "odd"}),
              HasSubstr("error: unknown routing 'odd'"));
  EXPECT_THAT(Run({"fabric", "--daemon", kNoDaemon, "--topology", "ring:8", "--endpoint-delay",
                   "10"}),
              HasSubstr("error:"));
  EXPECT_THAT(Run({"fabric", "--daemon", kNoDaemon, "--topology", "hypercube:3"}),
              HasSubstr("error:"));
}

TEST_F(FabricCliTest, AdapterRejectsBadFlowModelSettingsNamingThem) {
  const std::vector<std::string> base = {"fabric", "--daemon", kNoDaemon, "--topology", "ring:8"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return Run(args);
  };
  EXPECT_THAT(with({"--model", "packet"}),
              HasSubstr("error: unknown network model 'packet' (unaware, flow)"));
  EXPECT_THAT(with({"--model", "flow", "--cc", "maybe"}),
              HasSubstr("error: --cc 'maybe': expected on or off"));
  EXPECT_THAT(with({"--model", "flow", "--class", "1:min=80"}),
              HasSubstr("min: '80' needs a % sign"));
  EXPECT_THAT(with({"--model", "flow", "--class", "1:min=80%", "--class", "2:min=30%"}),
              HasSubstr("add up to 110%"));
  EXPECT_THAT(with({"--model", "flow", "--class", "1:speed=3"}), HasSubstr("unknown key 'speed'"));
  EXPECT_THAT(with({"--model", "flow", "--classes", (dir_ / "none.yaml").string()}),
              HasSubstr("traffic classes '"));
  EXPECT_THAT(with({"--model", "flow", "--drain-after", "1"}), HasSubstr("error:"));
}

TEST_F(FabricCliTest, AdapterRejectsAMapEntryOutOfRangeNamingTheId) {
  const std::string map = (dir_ / "map.yaml").string();
  std::ofstream(map) << "ping: 0\npong: 8\n";
  EXPECT_THAT(Run({"fabric", "--daemon", kNoDaemon, "--topology", "ring:8", "--map", map}),
              HasSubstr("client id 'pong': endpoint 8 is out of range (the topology has "
                        "endpoints 0..7)"));
}

}  // namespace
}  // namespace trestle::fabric
