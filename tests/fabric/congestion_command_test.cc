// `trestle-sim congestion` through CLI11 as the binary runs it: a run's
// summary, the CSV columns, a small --sweep with its heat map, and errors
// that name the flag.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "fabric_cli_test.h"

namespace trestle::fabric {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kDragonfly[] = "dragonfly:p=4,a=4,h=2,g=5";

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST_F(FabricCliTest, CongestionRunPrintsTheImpactAndWritesExactlyTheCsvColumns) {
  const std::string csv = (dir_ / "run.csv").string();
  const std::string out =
      Run({"congestion", "--topology", kDragonfly, "--victim", "allreduce:8B", "--aggressor",
           "incast", "--split", "20:80", "--allocation", "interleaved", "--cc", "off",
           "--iterations", "5", "--csv", csv});
  EXPECT_THAT(out, HasSubstr("victim on 16, aggressor on 64 (split 20:80, interleaved)"));
  EXPECT_THAT(out, HasSubstr("congestion control off"));
  EXPECT_THAT(out, HasSubstr("impact      mean "));
  const std::vector<std::string> lines = Lines(Slurp(csv));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "victim,aggressor,split,allocation,cc,tc,impact_mean,impact_p99");
  EXPECT_THAT(lines[1], StartsWith("allreduce:8B,incast,20:80,interleaved,off,same,"));
}

TEST_F(FabricCliTest, CongestionSweepWritesOneRowPerRunAndAHeatMap) {
  const std::string csv = (dir_ / "grid.csv").string();
  const std::string png = (dir_ / "grid.png").string();
  const bool gnuplot = std::system("command -v gnuplot >/dev/null 2>&1") == 0;
  std::vector<std::string> args = {"congestion", "--topology", kDragonfly, "--sweep",
                                   "--victim", "ring-latency:8B", "--victim", "ring-bw:64KiB",
                                   "--aggressor", "incast", "--allocation", "random",
                                   "--iterations", "2", "--csv", csv, "--plot", png};
  const std::string out = Run(args);
  if (!gnuplot) {
    EXPECT_THAT(out, HasSubstr("gnuplot-nox"));
    return;
  }
  EXPECT_THAT(out, HasSubstr("wrote " + csv));
  EXPECT_THAT(out, HasSubstr("wrote " + png));
  const std::vector<std::string> lines = Lines(Slurp(csv));
  ASSERT_EQ(lines.size(), 1u + 2 * 2) << "victims x cc on/off";
  EXPECT_THAT(lines[1], StartsWith("ring-latency:8B,incast,20:80,random,on,same,"));
  EXPECT_THAT(lines[4], StartsWith("ring-bw:64KiB,incast,20:80,random,off,same,"));
  EXPECT_EQ(Slurp(png).substr(1, 3), "PNG");
}

TEST_F(FabricCliTest, CongestionErrorsNameTheFlag) {
  EXPECT_THAT(Run({"congestion", "--topology", kDragonfly, "--aggressor", "incast"}),
              HasSubstr("one run needs one --victim and one --aggressor"));
  EXPECT_THAT(Run({"congestion", "--topology", kDragonfly, "--victim", "allreduce:8B",
                   "--aggressor", "incast", "--tc", "mixed"}),
              HasSubstr("--tc 'mixed': expected same or separate"));
  EXPECT_THAT(Run({"congestion", "--topology", kDragonfly, "--victim", "allreduce:8B",
                   "--aggressor", "incast", "--split", "50:60"}),
              HasSubstr("split '50:60'"));
  EXPECT_THAT(Run({"congestion", "--topology", kDragonfly, "--victim", "allreduce:8B",
                   "--aggressor", "incast", "--allocation", "packed"}),
              HasSubstr("unknown allocation 'packed'"));
  EXPECT_THAT(Run({"congestion", "--topology", kDragonfly, "--victim", "allreduce:8B",
                   "--aggressor", "incast", "--plot", "x.png"}),
              HasSubstr("--plot draws the heat map of --sweep"));
  EXPECT_THAT(Run({"congestion", "--topology", kDragonfly, "--victim", "allreduce:8B",
                   "--aggressor", "incast", "--cc-queue", "4"}),
              HasSubstr("--cc-queue: "));
  EXPECT_THAT(Run({"congestion", "--topology", kDragonfly, "--victim", "allreduce:8B",
                   "--aggressor", "incast", "--packet-size", "0B"}),
              HasSubstr("--packet-size: must be at least 1 byte"));
  EXPECT_THAT(Run({"congestion", "--topology", kDragonfly, "--victim", "allreduce:8B",
                   "--aggressor", "incast", "--burstiness", "-1"}),
              HasSubstr("--burstiness: -1 is outside [0, 1000]"));
}

// The queues' sizes reach the model: a bigger queue per flow slows a victim
// that shares the aggressor's class.
TEST_F(FabricCliTest, CongestionTakesTheQueueSizes) {
  auto impact = [&](const char* cc_queue) {
    const std::string out =
        Run({"congestion", "--topology", kDragonfly, "--victim", "allreduce:8B", "--aggressor",
             "alltoall", "--allocation", "interleaved", "--iterations", "5", "--cc-queue", cc_queue});
    const std::size_t at = out.find("impact      mean ");
    return at == std::string::npos ? 0.0 : std::stod(out.substr(at + 17));
  };
  EXPECT_GT(impact("16KiB"), 1.5 * impact("4KiB"));
}

}  // namespace
}  // namespace trestle::fabric
