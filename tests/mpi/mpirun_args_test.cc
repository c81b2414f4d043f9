// trestle mpirun's view of the launcher command: which MPI it starts (and
// so which build of the layer), its number of ranks, and the ranks'
// environment added as that launcher's options.
#include "mpirun_args.h"

#include <gtest/gtest.h>

namespace trestle {
namespace {

using Argv = std::vector<std::string>;

TEST(MpirunArgs, TheWorldIsTheSumOfEveryAppContextsRanks) {
  constexpr MpiAbi kOmpi = MpiAbi::kOpenMpi;
  EXPECT_EQ(*WorldSizeOf({"mpirun", "--oversubscribe", "-np", "4", "./a"}, kOmpi), 4);
  EXPECT_EQ(*WorldSizeOf({"mpiexec", "-n", "2", "./a", ":", "--np", "3", "./b"}, kOmpi), 5);
  EXPECT_EQ(*WorldSizeOf({"mpirun", "-c", "16", "python3", "x.py"}, kOmpi), 16);
  // The program's own options are not mpirun's; option values are not the program.
  EXPECT_EQ(*WorldSizeOf({"mpirun", "--mca", "btl", "self,vader", "-x", "A=1", "-np", "2",
                          "NPopenmpi", "-n", "100"},
                         kOmpi),
            2);
  EXPECT_EQ(*WorldSizeOf({"mpirun", "-np", "1", "./a", "-np", "9", ":", "-n", "3", "./b"}, kOmpi),
            4);
  EXPECT_EQ(WorldSizeOf({"mpirun", "./a"}, kOmpi).status().message(),
            "cannot tell how many ranks mpirun starts: give it -np N (or trestle mpirun --np N)");
  EXPECT_EQ(WorldSizeOf({"mpirun", "-np", "x", "./a"}, kOmpi).status().message(),
            "mpirun -np needs a positive number of ranks, not 'x'");
  EXPECT_EQ(WorldSizeOf({"mpirun", "-np"}, kOmpi).status().message(),
            "mpirun -np needs a positive number of ranks");
}

TEST(MpirunArgs, HydraOptionsAndTheirValuesAreNotThePrograms) {
  constexpr MpiAbi kMpich = MpiAbi::kMpich;
  // -genv takes two values, -launcher one (with one dash or two).
  EXPECT_EQ(*WorldSizeOf({"mpiexec.mpich", "-genv", "A", "-n", "-launcher", "fork", "--ppn",
                          "2", "-n", "4", "./a", "-n", "100"},
                         kMpich),
            4);
  EXPECT_EQ(*WorldSizeOf({"mpiexec.mpich", "-n", "2", "./a", ":", "-np", "3", "./b"}, kMpich),
            5);
  // -c is Open MPI's count, not hydra's: a flag there.
  EXPECT_EQ(WorldSizeOf({"mpiexec.mpich", "-c", "16", "./a"}, kMpich).status().message(),
            "cannot tell how many ranks mpirun starts: give it -np N (or trestle mpirun --np N)");
}

std::string Unused() {
  ADD_FAILURE() << "asked although the launcher's name says which MPI it is";
  return "";
}

TEST(MpirunArgs, TheLaunchersNameSaysWhichMpiItStarts) {
  for (const char* l : {"mpiexec.mpich", "/usr/bin/mpirun.mpich", "mpiexec.hydra"}) {
    EXPECT_EQ(*MpiAbiOf(l, Unused, Unused), MpiAbi::kMpich) << l;
  }
  for (const char* l : {"orterun", "/usr/bin/mpirun.openmpi", "mpiexec.openmpi"}) {
    EXPECT_EQ(*MpiAbiOf(l, Unused, Unused), MpiAbi::kOpenMpi) << l;
  }
  EXPECT_EQ(LayerFileName(MpiAbi::kMpich), "libtrestle-mpi-mpich.so");
  EXPECT_EQ(LayerFileName(MpiAbi::kOpenMpi), "libtrestle-mpi.so");
  EXPECT_EQ(MpiAbiOf("srun", Unused, Unused).status().message(),
            "the command after -- must be Open MPI's mpirun (or mpiexec) or MPICH's "
            "mpiexec.mpich (or mpirun.mpich), not 'srun': trestle mpirun -- mpirun -np N "
            "PROGRAM ...");
}

TEST(MpirunArgs, MpirunIsTheMpiItLeadsToElseTheOneItsVersionNames) {
  // Debian's alternatives: /usr/bin/mpirun leads to orterun or mpiexec.hydra.
  EXPECT_EQ(*MpiAbiOf("mpirun", [] { return std::string("/usr/bin/mpiexec.hydra"); }, Unused),
            MpiAbi::kMpich);
  EXPECT_EQ(*MpiAbiOf("/usr/bin/mpiexec", [] { return std::string("/usr/bin/orterun"); }, Unused),
            MpiAbi::kOpenMpi);
  // A launcher of another name: its --version says.
  const auto other = [] { return std::string("/opt/mpi/bin/mpiexec"); };
  EXPECT_EQ(*MpiAbiOf("mpiexec", other,
                      [] { return std::string("HYDRA build details:\n    Version: 4.0.2\n"); }),
            MpiAbi::kMpich);
  EXPECT_EQ(*MpiAbiOf("mpirun", other,
                      [] { return std::string("mpirun (Open MPI) 4.1.4\n\nReport bugs to"); }),
            MpiAbi::kOpenMpi);
  EXPECT_EQ(MpiAbiOf("mpirun", other, [] { return std::string("Intel(R) MPI Library"); })
                .status()
                .message(),
            "cannot tell which MPI 'mpirun' starts: its --version names neither Open MPI nor "
            "MPICH (HYDRA); run Open MPI's mpirun.openmpi or MPICH's mpiexec.mpich");
}

TEST(MpirunArgs, TheEnvironmentGoesInAsXOptionsRightAfterOpenMpisLauncher) {
  EXPECT_EQ(WithRankEnvironment({"/usr/bin/mpirun", "-np", "2", "./a"},
                                {{"LD_PRELOAD", "/x/lib.so"}, {"TRESTLE_TOKEN", ""}},
                                MpiAbi::kOpenMpi),
            (Argv{"/usr/bin/mpirun", "-x", "LD_PRELOAD=/x/lib.so", "-x", "TRESTLE_TOKEN", "-np",
                  "2", "./a"}));
}

TEST(MpirunArgs, TheEnvironmentGoesInAsGenvOptionsRightAfterHydra) {
  // An empty value: the caller's own, by name, in one -genvlist.
  EXPECT_EQ(WithRankEnvironment({"mpiexec.mpich", "-n", "2", "./a"},
                                {{"LD_PRELOAD", "/x/lib-mpich.so"},
                                 {"TRESTLE_TOKEN", ""},
                                 {"TRESTLE_MPI_POLL_NS", "100"},
                                 {"OTHER", ""}},
                                MpiAbi::kMpich),
            (Argv{"mpiexec.mpich", "-genv", "LD_PRELOAD", "/x/lib-mpich.so", "-genv",
                  "TRESTLE_MPI_POLL_NS", "100", "-genvlist", "TRESTLE_TOKEN,OTHER", "-n", "2",
                  "./a"}));
  EXPECT_EQ(WithRankEnvironment({"mpiexec.mpich", "-n", "1", "./a"}, {{"A", "1"}}, MpiAbi::kMpich),
            (Argv{"mpiexec.mpich", "-genv", "A", "1", "-n", "1", "./a"}));
}
}  // namespace
}  // namespace trestle
