// The trestle-sim subcommands from trestle_fabric_cli, driven through CLI11
// as the binary drives them: describe output, sweep CSV columns, plotting.
#include <filesystem>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli/gnuplot_plotter.h"
#include "cli/sweep_report.h"
#include "fabric_cli_test.h"

namespace trestle::fabric {
namespace {

using ::testing::HasSubstr;

TEST_F(FabricCliTest, DescribePrintsTheShape) {
  std::string out = Run({"fabric", "describe", "--topology", "fattree:k=4"});
  EXPECT_THAT(out, HasSubstr("endpoints       16"));
  EXPECT_THAT(out, HasSubstr("switches        20"));
  EXPECT_THAT(out, HasSubstr("16 host, 32 local, 0 global"));
  EXPECT_THAT(out, HasSubstr("diameter        4 switch-to-switch hops"));
  EXPECT_THAT(out, HasSubstr("bisection       8 links"));
}

TEST_F(FabricCliTest, DescribeRejectsABadSpec) {
  EXPECT_THAT(Run({"fabric", "describe", "--topology", "ring:8,link_bw=400"}),
              HasSubstr("error: topology 'ring:8,link_bw=400': key 'link_bw'"));
}

TEST_F(FabricCliTest, SweepWritesExactlyTheCsvColumns) {
  std::string csv = (dir_ / "out.csv").string();
  std::string out = Run({"sweep", "--backend", "fabric", "--topology", "switch:8", "--topology",
                         "dragonfly:p=2,a=4,h=2,g=8", "--collective", "allreduce", "--algorithm",
                         "ring", "--algorithm", "halving-doubling", "--sizes", "16KiB,1MiB",
                         "--link-bw", "400Gbps", "--link-latency", "500ns", "--csv", csv});
  EXPECT_THAT(out, HasSubstr("wrote " + csv));
  std::istringstream lines(Slurp(csv));
  std::string header;
  std::getline(lines, header);
  EXPECT_EQ(header, "backend,topology,algorithm,collective,size_bytes,time_ns");
  std::vector<std::string> rows;
  for (std::string line; std::getline(lines, line);) rows.push_back(line);
  ASSERT_EQ(rows.size(), 2u * 2u * 2u);
  EXPECT_THAT(rows[0], ::testing::StartsWith("fabric,switch:8,ring,allreduce,16384,"));
  // A spec with commas is quoted.
  EXPECT_THAT(rows[4], ::testing::StartsWith(
                           "fabric,\"dragonfly:p=2,a=4,h=2,g=8\",ring,allreduce,16384,"));
}

TEST_F(FabricCliTest, SweepRejectsUnknownBackendAndBareSizes) {
  EXPECT_THAT(Run({"sweep", "--backend", "ns3", "--topology", "ring:4", "--collective",
                   "allreduce", "--algorithm", "ring", "--sizes", "1KiB"}),
              HasSubstr("unknown backend 'ns3'"));
  EXPECT_THAT(Run({"sweep", "--backend", "fabric", "--topology", "ring:4", "--collective",
                   "allreduce", "--algorithm", "ring", "--sizes", "1024"}),
              HasSubstr("'1024'"));
}

TEST_F(FabricCliTest, MissingGnuplotIsAClearError) {
  cli::SweepReport report;
  report.Add({"fabric", "ring:4", "ring", "allreduce", 1024, 100});
  absl::Status s = cli::GnuplotPlotter("trestle-no-such-gnuplot")
                       .Plot(report, "t", (dir_ / "x.png").string());
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr("gnuplot-nox"));
}

TEST_F(FabricCliTest, SweepDrawsAPng) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) GTEST_SKIP() << "no gnuplot";
  std::string png = (dir_ / "it's a plot.png").string();  // A quote must survive.
  std::string out = Run({"sweep", "--backend", "fabric", "--topology", "switch:8", "--topology",
                         "ring:8", "--collective", "allreduce", "--algorithm", "ring", "--sizes",
                         "16KiB,64KiB,1MiB", "--plot", png});
  EXPECT_THAT(out, HasSubstr("wrote " + png));
  EXPECT_EQ(Slurp(png).substr(1, 3), "PNG");
}

}  // namespace
}  // namespace trestle::fabric
