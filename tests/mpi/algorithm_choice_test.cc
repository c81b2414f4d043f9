// AlgorithmChoice and LayerOptions: what TRESTLE_MPI_* say, errors naming
// the variable and the entry, and Open MPI's automatic choices.
#include "algorithm_choice.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>

#include "layer_options.h"

namespace trestle::mpi {
namespace {

TEST(AlgorithmChoice, ForcedAlgorithmsWinAndTheRestFollowOpenMpisRules) {
  absl::StatusOr<AlgorithmChoice> c = AlgorithmChoice::Parse("allreduce=ring,bcast=linear");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->For(Collective::kAllreduce, 16, 8, true), Algorithm::kRing);
  EXPECT_EQ(c->For(Collective::kBcast, 16, 1 << 20, true), Algorithm::kLinear);
  AlgorithmChoice automatic = *AlgorithmChoice::Parse("");
  EXPECT_EQ(automatic.For(Collective::kAllreduce, 16, 9999, true), Algorithm::kRecursiveDoubling);
  EXPECT_EQ(automatic.For(Collective::kAllreduce, 16, 10000, true), Algorithm::kRing);
  EXPECT_EQ(automatic.For(Collective::kAllreduce, 16, 1 << 20, false),
            Algorithm::kRecursiveDoubling);
  EXPECT_EQ(automatic.For(Collective::kBarrier, 8, 0, true), Algorithm::kRecursiveDoubling);
  EXPECT_EQ(automatic.For(Collective::kBarrier, 6, 0, true), Algorithm::kDissemination);
  EXPECT_EQ(automatic.For(Collective::kReduce, 8, 1024, true), Algorithm::kLinear);
  EXPECT_EQ(automatic.For(Collective::kReduce, 16, 1024, true), Algorithm::kBinomial);
  EXPECT_EQ(automatic.For(Collective::kAllgather, 8, 6000, true), Algorithm::kRecursiveDoubling);
  EXPECT_EQ(automatic.For(Collective::kAllgather, 8, 7000, true), Algorithm::kRing);
  EXPECT_EQ(automatic.For(Collective::kAllgather, 6, 8, true), Algorithm::kRing);
  EXPECT_EQ(automatic.For(Collective::kAlltoall, 8, 2999, true), Algorithm::kLinear);
  EXPECT_EQ(automatic.For(Collective::kAlltoall, 8, 3000, true), Algorithm::kPairwise);
}

TEST(AlgorithmChoice, ABadEntryIsNamed) {
  EXPECT_EQ(AlgorithmChoice::Parse("allreduce").status().message(),
            "'allreduce' is not COLLECTIVE=ALGORITHM, e.g. allreduce=ring");
  EXPECT_EQ(AlgorithmChoice::Parse("scan=ring").status().message(),
            "'scan=ring': unknown collective 'scan' (one of barrier, bcast, reduce, allreduce, "
            "allgather, alltoall)");
  EXPECT_EQ(AlgorithmChoice::Parse("alltoall=ring").status().message(),
            "'alltoall=ring': alltoall has no algorithm 'ring' (one of pairwise, linear)");
}

absl::StatusOr<LayerOptions> FromMap(const std::map<std::string, std::string>& env) {
  return LayerOptions::FromEnvironment([&](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

TEST(LayerOptions, ReadsEverySettingWithItsDefault) {
  absl::StatusOr<LayerOptions> o = FromMap({{"TRESTLE_MPI_DAEMON", "127.0.0.1:7"}});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->daemon, "127.0.0.1:7");
  EXPECT_EQ(o->id_prefix, "rank-");
  EXPECT_EQ(o->compute, LayerOptions::Compute::kNone);
  EXPECT_EQ(o->poll_ns, 100u);
  EXPECT_TRUE(o->virtual_gettimeofday);
  EXPECT_EQ(o->reduce_bytes_per_second, 0);
  EXPECT_EQ(o->mirror, LayerOptions::Mirror::kSteps);
  for (const auto& [text, mirror] : {std::pair{"steps", LayerOptions::Mirror::kSteps},
                                     {"collectives", LayerOptions::Mirror::kCollectives},
                                     {"auto", LayerOptions::Mirror::kAuto}}) {
    o = FromMap({{"TRESTLE_MPI_DAEMON", "d"}, {"TRESTLE_MPI_MIRROR", text}});
    ASSERT_TRUE(o.ok()) << o.status();
    EXPECT_EQ(o->mirror, mirror) << text;
  }
  o = FromMap({{"TRESTLE_MPI_DAEMON", "unix:/s"},
               {"TRESTLE_MPI_COMPUTE", "measured:0.5"},
               {"TRESTLE_MPI_ID_PREFIX", "p"},
               {"TRESTLE_MPI_POLL_NS", "7"},
               {"TRESTLE_MPI_GETTIMEOFDAY", "real"},
               {"TRESTLE_MPI_REDUCE_BW", "1e11"},
               {"TRESTLE_MPI_COLL", "barrier=dissemination"}});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->compute, LayerOptions::Compute::kMeasured);
  EXPECT_EQ(o->compute_scale, 0.5);
  EXPECT_EQ(o->id_prefix, "p");
  EXPECT_EQ(o->poll_ns, 7u);
  EXPECT_FALSE(o->virtual_gettimeofday);
  EXPECT_EQ(o->reduce_bytes_per_second, 1e11);
  EXPECT_EQ(o->algorithms.forced(Collective::kBarrier), Algorithm::kDissemination);
}

TEST(LayerOptions, AMissingDaemonOrABadValueIsNamed) {
  EXPECT_EQ(FromMap({}).status().message(),
            "TRESTLE_MPI_DAEMON is not set: run the program through `trestle mpirun` "
            "(docs/mpi.md)");
  EXPECT_EQ(FromMap({{"TRESTLE_MPI_DAEMON", "d"}, {"TRESTLE_MPI_COMPUTE", "measured:-1"}})
                .status()
                .message(),
            "TRESTLE_MPI_COMPUTE='measured:-1': SCALE must be a number above 0");
  EXPECT_EQ(FromMap({{"TRESTLE_MPI_DAEMON", "d"}, {"TRESTLE_MPI_COMPUTE", "lots"}})
                .status()
                .message(),
            "TRESTLE_MPI_COMPUTE='lots': expected none, measured or measured:SCALE");
  EXPECT_EQ(FromMap({{"TRESTLE_MPI_DAEMON", "d"}, {"TRESTLE_MPI_POLL_NS", "0"}}).status().message(),
            "TRESTLE_MPI_POLL_NS='0': expected a whole number of ns, at least 1");
  EXPECT_EQ(FromMap({{"TRESTLE_MPI_DAEMON", "d"}, {"TRESTLE_MPI_COLL", "bcast=ring"}})
                .status()
                .message(),
            "TRESTLE_MPI_COLL='bcast=ring': 'bcast=ring': bcast has no algorithm 'ring' (one of "
            "binomial, linear)");
  EXPECT_EQ(FromMap({{"TRESTLE_MPI_DAEMON", "d"}, {"TRESTLE_MPI_MIRROR", "whole"}})
                .status()
                .message(),
            "TRESTLE_MPI_MIRROR='whole': expected steps, collectives or auto");
}

}  // namespace
}  // namespace trestle::mpi
