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
                           "--link-bw", "--link-latency", "describe", "live adapter"}) {
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
              HasSubstr("error: unknown time mode 'warp' (virtual, paced, wallclock)"));
  EXPECT_THAT(Run({"fabric", "--daemon", kNoDaemon, "--topology", "ring:8", "--routing", "odd"}),
              HasSubstr("error: unknown routing 'odd'"));
  EXPECT_THAT(Run({"fabric", "--daemon", kNoDaemon, "--topology", "ring:8", "--endpoint-delay",
                   "10"}),
              HasSubstr("error:"));
  EXPECT_THAT(Run({"fabric", "--daemon", kNoDaemon, "--topology", "hypercube:3"}),
              HasSubstr("error:"));
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
