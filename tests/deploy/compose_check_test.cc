// The deployment files against the binaries this build produces (issue 13,
// "Deployment"): docker-compose.yml (ComposeFileChecker: images and builds,
// health checks, commands, flags, ports, addresses, depends_on),
// deploy/systemd/trestled.service's Exec lines and the ```sh commands of
// docs/multi-machine.md (CommandFlagChecker: every flag is in the binary's
// real --help). No Docker engine is needed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "command_flag_checker.h"
#include "compose_file_checker.h"
#include "deploy_file_commands.h"
#include "project_binaries.h"
#include "shell_words.h"

namespace trestle::deploy {
namespace {

using ::testing::IsEmpty;

std::string ReadSourceFile(const std::string& relative) {
  std::ifstream in(std::string(TRESTLE_SOURCE_DIR) + "/" + relative);
  EXPECT_TRUE(in.good()) << relative << " cannot be read";
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Checks every command of `commands` that names a project binary; returns
// how many it checked.
int CheckProjectCommands(CommandFlagChecker& checker, const std::vector<ShellCommand>& commands,
                         const std::string& file, std::vector<std::string>* errors) {
  int checked = 0;
  for (const ShellCommand& c : commands) {
    if (c.words.empty() || checker.BinaryName(c.words[0]).empty()) continue;
    checker.Check(c.words, absl::StrCat(file, ":", c.line), errors);
    ++checked;
  }
  return checked;
}

class DeployFilesTest : public ::testing::Test {
 protected:
  CommandFlagChecker checker_{ProjectBinaries()};
};

TEST_F(DeployFilesTest, ComposeFileMatchesTheBinaries) {
  ComposeFileChecker compose(&checker_, TRESTLE_SOURCE_DIR);
  auto report = compose.Check(ReadSourceFile("docker-compose.yml"), "docker-compose.yml");
  EXPECT_THAT(report.errors, IsEmpty()) << absl::StrJoin(report.errors, "\n");
  // redis, trestled-a, trestled-b, sim, pong, ping; the five commands of
  // ours and their five health checks.
  EXPECT_EQ(report.services, 6);
  EXPECT_EQ(report.commands, 10);
}

// The layout issue 13 asks for: two daemons with their own ids sharing one
// store and run, federated; one simulator on one daemon; ping and pong on
// different daemons, so that every payload crosses between them.
TEST_F(DeployFilesTest, ComposeFileIsOneBridgeOfTwoDaemons) {
  const YAML::Node services = YAML::Load(ReadSourceFile("docker-compose.yml"))["services"];
  ASSERT_TRUE(services.IsMap());
  EXPECT_EQ(services["redis"]["image"].as<std::string>(), "redis:7");
  std::vector<std::string> ignored;
  auto parse = [&](const char* name) {
    auto words = SplitShellCommands(services[name]["command"].as<std::string>());
    EXPECT_TRUE(words.ok() && words->size() == 1) << name;
    return checker_.Check(words.ok() && !words->empty() ? words->front().words
                                                        : std::vector<std::string>{""},
                          name, &ignored);
  };
  auto a = parse("trestled-a");
  auto b = parse("trestled-b");
  EXPECT_EQ(a.binary, "trestled");
  EXPECT_EQ(b.binary, "trestled");
  EXPECT_EQ(a.ValueOf("--daemon-id"), "1");
  EXPECT_EQ(b.ValueOf("--daemon-id"), "2");
  EXPECT_EQ(a.ValueOf("--store"), "redis://redis:6379/0");
  EXPECT_EQ(b.ValueOf("--store"), "redis://redis:6379/0");
  EXPECT_EQ(a.ValueOf("--run"), "demo");
  EXPECT_EQ(b.ValueOf("--run"), "demo");
  EXPECT_EQ(a.ValueOf("--federate"), "");  // given, as a switch
  EXPECT_EQ(b.ValueOf("--federate"), "");

  auto sim = parse("sim");
  EXPECT_EQ(sim.Path(), "trestle-sim ghost");
  EXPECT_EQ(sim.ValueOf("--daemon"), "trestled-a:7878");
  auto ping = parse("ping");
  auto pong = parse("pong");
  EXPECT_EQ(ping.ValueOf("--role"), "ping");
  EXPECT_EQ(pong.ValueOf("--role"), "pong");
  EXPECT_EQ(ping.ValueOf("--daemon"), "trestled-a:7878");
  EXPECT_EQ(pong.ValueOf("--daemon"), "trestled-b:7878");
}

TEST_F(DeployFilesTest, SystemdUnitMatchesTheBinaries) {
  const std::string unit = ReadSourceFile("deploy/systemd/trestled.service");
  auto commands = ExecStartCommands(unit);
  ASSERT_TRUE(commands.ok()) << commands.status();
  ASSERT_EQ(commands->size(), 1u);
  const std::vector<std::string>& words = commands->front().words;
  ASSERT_FALSE(words.empty());
  EXPECT_EQ(words[0], "/usr/local/bin/trestled");
  std::vector<std::string> errors;
  auto parsed = checker_.Check(words, absl::StrCat("deploy/systemd/trestled.service:",
                                                   commands->front().line),
                               &errors);
  EXPECT_THAT(errors, IsEmpty()) << absl::StrJoin(errors, "\n");
  EXPECT_EQ(parsed.ValueOf("--config"), "/etc/trestle/trestled.yaml");

  // LimitNOFILE fits 10,000 clients at three files each plus trestled's 64
  // spare (daemon.cc, RaiseOpenFileLimit).
  std::uint64_t limit = 0;
  for (absl::string_view line : absl::StrSplit(unit, '\n')) {
    if (absl::ConsumePrefix(&line, "LimitNOFILE=")) {
      ASSERT_TRUE(absl::SimpleAtoi(line, &limit)) << line;
    }
  }
  EXPECT_GE(limit, 10'000u * 3 + 64);
}

TEST_F(DeployFilesTest, MultiMachineDocMatchesTheBinaries) {
  auto commands = MarkdownShellCommands(ReadSourceFile("docs/multi-machine.md"));
  ASSERT_TRUE(commands.ok()) << commands.status();
  std::vector<std::string> errors;
  const int checked = CheckProjectCommands(checker_, *commands, "docs/multi-machine.md", &errors);
  EXPECT_THAT(errors, IsEmpty()) << absl::StrJoin(errors, "\n");
  // Each program of the layout is quoted: the daemons, the simulator, an app
  // and the operator's checks.
  std::set<std::string> programs;
  for (const ShellCommand& c : *commands) {
    if (!c.words.empty()) programs.insert(checker_.BinaryName(c.words[0]));
  }
  for (const char* program : {"trestled", "trestle-sim", "trestle", "trestle-ping-pong"}) {
    EXPECT_EQ(programs.count(program), 1u) << "docs/multi-machine.md quotes no " << program;
  }
  EXPECT_GE(checked, 8);
}

}  // namespace
}  // namespace trestle::deploy
