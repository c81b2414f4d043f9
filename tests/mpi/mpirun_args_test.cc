// trestle mpirun's view of the mpirun command: its number of ranks, and
// the ranks' environment added as -x options after the launcher.
#include "mpirun_args.h"

#include <gtest/gtest.h>

namespace trestle {
namespace {

TEST(MpirunArgs, TheWorldIsTheSumOfEveryAppContextsRanks) {
  EXPECT_EQ(*WorldSizeOf({"mpirun", "--oversubscribe", "-np", "4", "./a"}), 4);
  EXPECT_EQ(*WorldSizeOf({"mpiexec", "-n", "2", "./a", ":", "--np", "3", "./b"}), 5);
  EXPECT_EQ(*WorldSizeOf({"mpirun", "-c", "16", "python3", "x.py"}), 16);
  // The program's own options are not mpirun's; option values are not the program.
  EXPECT_EQ(*WorldSizeOf({"mpirun", "--mca", "btl", "self,vader", "-x", "A=1", "-np", "2",
                          "NPopenmpi", "-n", "100"}),
            2);
  EXPECT_EQ(*WorldSizeOf({"mpirun", "-np", "1", "./a", "-np", "9", ":", "-n", "3", "./b"}), 4);
  EXPECT_EQ(WorldSizeOf({"mpirun", "./a"}).status().message(),
            "cannot tell how many ranks mpirun starts: give it -np N (or trestle mpirun --np N)");
  EXPECT_EQ(WorldSizeOf({"mpirun", "-np", "x", "./a"}).status().message(),
            "mpirun -np needs a positive number of ranks, not 'x'");
  EXPECT_EQ(WorldSizeOf({"mpirun", "-np"}).status().message(),
            "mpirun -np needs a positive number of ranks");
}

TEST(MpirunArgs, TheEnvironmentGoesInAsXOptionsRightAfterTheLauncher) {
  absl::StatusOr<std::vector<std::string>> argv = WithRankEnvironment(
      {"/usr/bin/mpirun", "-np", "2", "./a"}, {{"LD_PRELOAD", "/x/lib.so"}, {"TRESTLE_TOKEN", ""}});
  ASSERT_TRUE(argv.ok());
  EXPECT_EQ(*argv, (std::vector<std::string>{"/usr/bin/mpirun", "-x", "LD_PRELOAD=/x/lib.so", "-x",
                                             "TRESTLE_TOKEN", "-np", "2", "./a"}));
  EXPECT_EQ(WithRankEnvironment({"srun", "-n", "2", "./a"}, {}).status().message(),
            "the command after -- must be Open MPI's mpirun (or mpiexec), not 'srun': trestle "
            "mpirun -- mpirun -np N PROGRAM ...");
}

}  // namespace
}  // namespace trestle
