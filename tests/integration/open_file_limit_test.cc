// trestled sizes its open-file limit for max_clients and says, naming the
// numbers, when the hard limit is too low. The limit is lowered for the
// child with `ulimit -n`, and setpriv drops CAP_SYS_RESOURCE from it so that
// a root with that capability cannot simply raise the limit again.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"

namespace trestle::testing {
namespace {

// trestled's log for a start under `files` open files and `max_clients`;
// it is stopped after half a second.
std::string StartLog(int files, int max_clients) {
  const std::string command = absl::StrCat(
      "setpriv --bounding-set -sys_resource bash -c 'ulimit -n ", files, " && exec timeout -s TERM 0.5 ", TRESTLED_PATH,
      " --listen 127.0.0.1:0 --admin-listen \"\" --max-clients ", max_clients, "' 2>&1");
  std::string out;
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buffer;
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  pclose(pipe);
  return out;
}

TEST(OpenFileLimit, TooFewFilesEvenForSharedConnectionsIsAWarningWithTheNumbers) {
  const std::string log = StartLog(500, 1000);
  EXPECT_NE(log.find("[warning] open-file limit 500 allows about 436 clients even with one "
                     "shared connection each (145 with three), fewer than max_clients 1000"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("trestled listening"), std::string::npos) << "it still starts: " << log;
}

TEST(OpenFileLimit, EnoughOnlyForSharedConnectionsIsSaid) {
  const std::string log = StartLog(500, 300);
  EXPECT_EQ(log.find("[warning]"), std::string::npos) << log;
  EXPECT_NE(log.find("max_clients 300 fit with one shared connection each; with three "
                     "connections each, about 145"),
            std::string::npos)
      << log;
}

TEST(OpenFileLimit, EnoughForThreeConnectionsEachIsQuiet) {
  const std::string log = StartLog(1000, 100);
  EXPECT_EQ(log.find("open-file limit"), std::string::npos) << log;
  EXPECT_NE(log.find("trestled listening"), std::string::npos) << log;
}

}  // namespace
}  // namespace trestle::testing
