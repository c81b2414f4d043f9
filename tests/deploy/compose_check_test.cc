// The deployment files against the binaries this build produces (issue 13,
// "Deployment"): docker-compose.yml (ComposeFileChecker: images and builds,
// health checks, commands, flags, ports, addresses, depends_on),
// deploy/systemd/trestled.service's Exec lines and the ```sh commands of
// docs/multi-machine.md (CommandFlagChecker: every flag is in the binary's
// real --help). No Docker engine is needed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <set>
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
#include "trestle/platform/read_file.h"

namespace trestle::deploy {
namespace {

using ::testing::IsEmpty;

std::string ReadSourceFile(const std::string& relative) {
  absl::StatusOr<std::string> text =
      platform::ReadFile(std::string(TRESTLE_SOURCE_DIR) + "/" + relative);
  EXPECT_TRUE(text.ok()) << text.status();
  return text.value_or("");
}

// The words of `c` from the project binary it runs: its program, or, for
// `docker run ... IMAGE trestled ...` and `docker compose exec SERVICE
// trestle ...`, the first word after `docker` that names one and is not the
// value of a docker flag (`--name trestled`). Empty if none.
std::vector<std::string> ProjectCommand(const CommandFlagChecker& checker, const ShellCommand& c) {
  if (c.words.empty()) return {};
  std::size_t start = 0;
  if (c.words[0] == "docker") {
    start = 1;
    while (start < c.words.size() && (checker.BinaryName(c.words[start]).empty() ||
                                      c.words[start - 1][0] == '-')) {
      ++start;
    }
  }
  if (start >= c.words.size() || checker.BinaryName(c.words[start]).empty()) return {};
  return {c.words.begin() + static_cast<std::ptrdiff_t>(start), c.words.end()};
}

// Checks every command of `commands` that runs a project binary; returns
// the programs it checked.
std::multiset<std::string> CheckProjectCommands(CommandFlagChecker& checker,
                                                const std::vector<ShellCommand>& commands,
                                                const std::string& file,
                                                std::vector<std::string>* errors) {
  std::multiset<std::string> checked;
  for (const ShellCommand& c : commands) {
    const std::vector<std::string> words = ProjectCommand(checker, c);
    if (words.empty()) continue;
    checker.Check(words, absl::StrCat(file, ":", c.line), errors);
    checked.insert(checker.BinaryName(words[0]));
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
  const std::string doc = ReadSourceFile("docs/multi-machine.md");
  auto commands = MarkdownShellCommands(doc);
  ASSERT_TRUE(commands.ok()) << commands.status();
  std::vector<std::string> errors;
  const std::multiset<std::string> checked =
      CheckProjectCommands(checker_, *commands, "docs/multi-machine.md", &errors);
  EXPECT_THAT(errors, IsEmpty()) << absl::StrJoin(errors, "\n");
  // Each program of the layout is quoted: the daemons (by hand and in
  // Docker), the simulators, the apps and the operator's checks.
  EXPECT_EQ(checked.count("trestled"), 2u);
  EXPECT_EQ(checked.count("trestle-sim"), 3u);
  EXPECT_EQ(checked.count("trestle-ping-pong"), 2u);
  EXPECT_EQ(checked.count("trestle"), 4u);
}

// The doc's trestled.yaml (a ```yaml block whose first line names
// trestled.yaml): every key is a setting, i.e. a trestled flag in snake_case.
TEST_F(DeployFilesTest, MultiMachineDocConfigKeysAreSettings) {
  const std::string doc = ReadSourceFile("docs/multi-machine.md");
  int keys = 0;
  std::vector<std::string> errors;
  std::size_t at = 0;
  while ((at = doc.find("```yaml\n", at)) != std::string::npos) {
    const std::size_t body = at + 8;
    const std::size_t end = doc.find("```", body);
    ASSERT_NE(end, std::string::npos);
    at = end + 3;
    const std::string block = doc.substr(body, end - body);
    if (block.substr(0, block.find('\n')).find("trestled.yaml") == std::string::npos) continue;
    const YAML::Node config = YAML::Load(block);
    ASSERT_TRUE(config.IsMap());
    for (const auto& kv : config) {
      std::string flag = "--" + kv.first.as<std::string>();
      for (char& c : flag) c = c == '_' ? '-' : c;
      checker_.Check({"trestled", flag, kv.second.as<std::string>()},
                     "docs/multi-machine.md, trestled.yaml key " + kv.first.as<std::string>(),
                     &errors);
      ++keys;
    }
  }
  EXPECT_THAT(errors, IsEmpty()) << absl::StrJoin(errors, "\n");
  EXPECT_EQ(keys, 5);
}

}  // namespace
}  // namespace trestle::deploy
