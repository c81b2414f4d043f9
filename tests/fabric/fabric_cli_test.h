// Test fixture: runs the trestle-sim subcommands of trestle_fabric_cli
// through CLI11 as the binary does, capturing what they print.
#ifndef TRESTLE_TESTS_FABRIC_FABRIC_CLI_TEST_H_
#define TRESTLE_TESTS_FABRIC_FABRIC_CLI_TEST_H_

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "temp_dir.h"
#include "trestle/fabric/cli.h"

namespace trestle::fabric {

class FabricCliTest : public TempDirTest {
 protected:
  // Runs `trestle-sim ARGS...`; returns stdout, or on failure what it printed
  // to stderr.
  std::string Run(std::vector<std::string> args) {
    CLI::App app;
    RegisterFabricCommands(app);
    std::reverse(args.begin(), args.end());  // CLI11 takes them in reverse.
    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    try {
      app.parse(args);
    } catch (const CLI::ParseError& e) {
      ::testing::internal::GetCapturedStdout();
      std::string err = ::testing::internal::GetCapturedStderr();
      EXPECT_EQ(err, std::string("error: ") + e.what() + "\n");
      return err;
    }
    ::testing::internal::GetCapturedStderr();
    return ::testing::internal::GetCapturedStdout();
  }

  static std::string Slurp(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
};

}  // namespace trestle::fabric

#endif  // TRESTLE_TESTS_FABRIC_FABRIC_CLI_TEST_H_
