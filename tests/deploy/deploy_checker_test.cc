// Unit tests of the deployment checkers (tests/deploy): the shell splitter,
// CommandFlagChecker against the real binaries' --help, the extraction of
// commands from systemd units and Markdown, and ComposeFileChecker on small
// compose texts, good and bad. The real files are checked in
// compose_check_test.cc.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_replace.h"
#include "command_flag_checker.h"
#include "compose_file_checker.h"
#include "deploy_file_commands.h"
#include "project_binaries.h"
#include "shell_words.h"

namespace trestle::deploy {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Words = std::vector<std::string>;

// --- SplitShellCommands ---------------------------------------------------

TEST(SplitShellCommandsTest, QuotesEscapesCommentsAndSeparators) {
  auto commands = SplitShellCommands(
      "a 'b c' \"d \\\"e\" f\\ g '' # a comment\n"
      "x | y && z; w & v || u\n");
  ASSERT_TRUE(commands.ok()) << commands.status();
  ASSERT_EQ(commands->size(), 7u);
  EXPECT_EQ((*commands)[0].words, (Words{"a", "b c", "d \"e", "f g", ""}));
  EXPECT_EQ((*commands)[0].line, 1);
  for (std::size_t i = 1; i < 7; ++i) {
    EXPECT_EQ((*commands)[i].words.size(), 1u);
    EXPECT_EQ((*commands)[i].line, 2);
  }
  EXPECT_EQ((*commands)[6].words, Words{"u"});
}

TEST(SplitShellCommandsTest, ContinuationLinesMakeOneCommandAtItsFirstLine) {
  auto commands = SplitShellCommands("\n\ntrestled \\\n  --listen 0.0.0.0:7878 \\\n  --federate\nnext");
  ASSERT_TRUE(commands.ok()) << commands.status();
  ASSERT_EQ(commands->size(), 2u);
  EXPECT_EQ((*commands)[0].words, (Words{"trestled", "--listen", "0.0.0.0:7878", "--federate"}));
  EXPECT_EQ((*commands)[0].line, 3);
  EXPECT_EQ((*commands)[1].line, 6);
}

TEST(SplitShellCommandsTest, UnterminatedQuoteNamesItsLine) {
  auto commands = SplitShellCommands("ok\ntrestled --run 'demo\n");
  ASSERT_FALSE(commands.ok());
  EXPECT_THAT(commands.status().message(), HasSubstr("line 2: unterminated ' quote"));
}

// --- CommandFlagChecker -----------------------------------------------------

class CommandFlagCheckerTest : public ::testing::Test {
 protected:
  CommandFlagChecker checker_{ProjectBinaries()};
  std::vector<std::string> errors_;
};

TEST_F(CommandFlagCheckerTest, NamesBinariesByFileName) {
  EXPECT_EQ(checker_.BinaryName("trestled"), "trestled");
  EXPECT_EQ(checker_.BinaryName("/usr/local/bin/trestle-sim"), "trestle-sim");
  EXPECT_EQ(checker_.BinaryName("build/tools/trestle/trestle"), "trestle");
  EXPECT_EQ(checker_.BinaryName("redis-server"), "");
  EXPECT_EQ(checker_.BinaryName("trestled-a"), "");
}

TEST_F(CommandFlagCheckerTest, AcceptsRealFlagsAndReadsValuesAndDefaults) {
  auto parsed = checker_.Check({"trestled", "--listen", "0.0.0.0:7878", "--daemon-id=3", "-c",
                                "/etc/trestle/trestled.yaml"},
                               "here", &errors_);
  EXPECT_THAT(errors_, IsEmpty());
  EXPECT_EQ(parsed.Path(), "trestled");
  EXPECT_EQ(parsed.ValueOf("--listen"), "0.0.0.0:7878");
  EXPECT_EQ(parsed.ValueOf("--daemon-id"), "3");
  EXPECT_EQ(parsed.ValueOf("--config"), "/etc/trestle/trestled.yaml");  // -c's long name
  EXPECT_EQ(parsed.ValueOf("--admin-listen"), "127.0.0.1:7879");       // from --help
  EXPECT_EQ(parsed.ValueOf("--no-such-flag"), std::nullopt);
}

TEST_F(CommandFlagCheckerTest, ReportsAnUnknownFlagByNameAndKeepsReading) {
  auto parsed = checker_.Check(
      {"trestled", "--no-such-flag", "7", "--listen", "0.0.0.0:1", "--also-not-a-flag"},
      "docker-compose.yml, service x, command", &errors_);
  EXPECT_THAT(errors_,
              ElementsAre("docker-compose.yml, service x, command: trestled has no flag "
                          "--no-such-flag (not in `trestled --help`)",
                          "docker-compose.yml, service x, command: trestled has no flag "
                          "--also-not-a-flag (not in `trestled --help`)"));
  EXPECT_EQ(parsed.ValueOf("--listen"), "0.0.0.0:1");  // "7" was taken as the unknown's value
}

TEST_F(CommandFlagCheckerTest, ChecksFlagsAgainstTheSubcommand) {
  auto parsed = checker_.Check({"trestle-sim", "ghost", "--daemon", "d:7878", "--pull", "--id", "g"},
                               "here", &errors_);
  EXPECT_THAT(errors_, IsEmpty());
  EXPECT_EQ(parsed.Path(), "trestle-sim ghost");
  EXPECT_EQ(parsed.ValueOf("--id"), "g");
  EXPECT_EQ(parsed.ValueOf("--pull"), "");

  // --topology is fabric's, not ghost's.
  checker_.Check({"trestle-sim", "ghost", "--topology", "ring:8"}, "here", &errors_);
  EXPECT_THAT(errors_, ElementsAre(HasSubstr("trestle-sim ghost has no flag --topology")));
  errors_.clear();
  checker_.Check({"trestle-sim", "fabric", "--daemon", "d:7878", "--topology", "ring:8"}, "here",
                 &errors_);
  EXPECT_THAT(errors_, IsEmpty());
}

TEST_F(CommandFlagCheckerTest, ReadsDefaultsWhereTheDescriptionFollowsOneBlank) {
  // "  --admin TEXT=127.0.0.1:7879 trestled's admin address HOST:PORT"
  auto parsed = checker_.Check({"trestle", "status"}, "here", &errors_);
  EXPECT_THAT(errors_, IsEmpty());
  EXPECT_EQ(parsed.ValueOf("--admin"), "127.0.0.1:7879");
  // "  --loss-rate FLOAT:FLOAT in [0 - 1]=0"
  parsed = checker_.Check({"trestle-sim", "fabric"}, "here", &errors_);
  EXPECT_EQ(parsed.ValueOf("--loss-rate"), "0");
  EXPECT_EQ(parsed.ValueOf("--routing"), "minimal");
}

TEST_F(CommandFlagCheckerTest, ReportsAnUnknownSubcommandAndAMissingValue) {
  checker_.Check({"trestle-sim", "ghots", "--daemon", "d:1"}, "doc.md:12", &errors_);
  ASSERT_FALSE(errors_.empty());
  EXPECT_THAT(errors_[0], HasSubstr("doc.md:12: trestle-sim has no subcommand 'ghots'"));
  errors_.clear();
  checker_.Check({"trestle", "status", "--admin"}, "unit:3", &errors_);
  EXPECT_THAT(errors_, ElementsAre("unit:3: trestle status --admin needs a value"));
  errors_.clear();
  checker_.Check({"trestled", "stray"}, "w", &errors_);
  EXPECT_THAT(errors_, ElementsAre(HasSubstr("trestled takes no argument 'stray'")));
}

TEST_F(CommandFlagCheckerTest, RefusesAProgramThatIsNotOurs) {
  checker_.Check({"redis-server", "--port", "1"}, "w", &errors_);
  EXPECT_THAT(errors_, ElementsAre("w: 'redis-server' is not a binary this project builds"));
}

TEST(CommandFlagCheckerMissingBinaryTest, SaysItsHelpCannotRun) {
  CommandFlagChecker checker(std::map<std::string, std::string>{{"trestled", "/nonexistent/trestled"}});
  std::vector<std::string> errors;
  checker.Check({"trestled", "--listen", "x"}, "w", &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors[0], HasSubstr("w: `trestled --help` (/nonexistent/trestled) failed"));
}

// --- Commands in systemd units and Markdown ---------------------------------

TEST(DeployFileCommandsTest, ExecLinesWithPrefixesAndContinuations) {
  auto commands = ExecStartCommands(
      "[Service]\n"
      "ExecStartPre=-/bin/true\n"
      "ExecStart=/usr/local/bin/trestled --config /etc/trestle/trestled.yaml \\\n"
      "    --run ${TRESTLE_RUN}\n"
      "Restart=on-failure\n");
  ASSERT_TRUE(commands.ok()) << commands.status();
  ASSERT_EQ(commands->size(), 2u);
  EXPECT_EQ((*commands)[0].words, Words{"/bin/true"});
  EXPECT_EQ((*commands)[1].words, (Words{"/usr/local/bin/trestled", "--config",
                                         "/etc/trestle/trestled.yaml", "--run", "${TRESTLE_RUN}"}));
  EXPECT_EQ((*commands)[1].line, 3);
}

TEST(DeployFileCommandsTest, ShellBlocksOnlyWithWrappersDropped) {
  auto commands = MarkdownShellCommands(
      "text trestled --not-code\n"
      "```sh\n"
      "sudo -u trestle TRESTLE_TOKEN=x trestled --listen 0.0.0.0:7878   # comment\n"
      "```\n"
      "```yaml\n"
      "listen: 1\n"
      "```\n"
      "```console\n"
      "$ trestle status\n"
      "version 1\n"
      "```\n");
  ASSERT_TRUE(commands.ok()) << commands.status();
  ASSERT_EQ(commands->size(), 2u);
  EXPECT_EQ((*commands)[0].words, (Words{"trestled", "--listen", "0.0.0.0:7878"}));
  EXPECT_EQ((*commands)[0].line, 3);
  EXPECT_EQ((*commands)[1].words, (Words{"trestle", "status"}));
  EXPECT_EQ((*commands)[1].line, 9);
}

TEST(DeployFileCommandsTest, UnclosedBlockIsAnError) {
  auto commands = MarkdownShellCommands("a\n```sh\ntrestled\n");
  ASSERT_FALSE(commands.ok());
  EXPECT_THAT(commands.status().message(), HasSubstr("line 2: code block never closed"));
}

// --- ComposeFileChecker -------------------------------------------------------

// A small compose file that passes; each test breaks one thing in it.
constexpr const char* kGoodCompose = R"(
x-build: &build
  context: .
  dockerfile: deploy/Dockerfile
services:
  redis:
    image: redis:7
    healthcheck:
      test: ["CMD", "redis-cli", "ping"]
  d:
    build: *build
    image: trestle:test
    environment:
      TRESTLE_TOKEN: secret
    command: trestled --store redis://redis:6379/0 --listen 0.0.0.0:7878 --admin-listen 0.0.0.0:7879
    ports: ["127.0.0.1:17878:7878", "7879"]
    depends_on:
      redis:
        condition: service_healthy
    healthcheck:
      test: ["CMD", "trestle", "status", "--admin", "127.0.0.1:7879"]
  app:
    image: trestle:test
    environment: ["TRESTLE_TOKEN=secret"]
    command: ["trestle-ping-pong", "--role", "pong", "--daemon", "d:7878"]
    depends_on: [d]
    healthcheck:
      test: ["CMD-SHELL", "trestle clients --admin d:7879 | grep -q pong"]
)";

class ComposeFileCheckerTest : public ::testing::Test {
 protected:
  // Checks kGoodCompose with `from` replaced by `to`.
  ComposeFileChecker::Report CheckWith(const std::string& from, const std::string& to) {
    const std::string text = absl::StrReplaceAll(kGoodCompose, {{from, to}});
    EXPECT_NE(text, kGoodCompose) << "'" << from << "' is not in the compose text";
    return compose_.Check(text, "bad.yml");
  }

  CommandFlagChecker flags_{ProjectBinaries()};
  ComposeFileChecker compose_{&flags_, TRESTLE_SOURCE_DIR};
};

TEST_F(ComposeFileCheckerTest, TheGoodTextPasses) {
  auto report = compose_.Check(kGoodCompose, "good.yml");
  EXPECT_THAT(report.errors, IsEmpty());
  EXPECT_EQ(report.services, 3);
  EXPECT_EQ(report.commands, 4);  // d and app, and their health checks
}

TEST_F(ComposeFileCheckerTest, AFlagThatDoesNotExistIsNamed) {
  auto report = CheckWith("--admin-listen 0.0.0.0:7879", "--admin-listen 0.0.0.0:7879 --federate-all");
  EXPECT_THAT(report.errors, ElementsAre("bad.yml, service d, command: trestled has no flag "
                                         "--federate-all (not in `trestled --help`)"));
}

TEST_F(ComposeFileCheckerTest, AFlagOfAHealthCheckIsChecked) {
  auto report = CheckWith("\"status\", \"--admin\"", "\"status\", \"--adminn\"");
  EXPECT_THAT(report.errors, ElementsAre(HasSubstr(
                                 "bad.yml, service d, healthcheck: trestle status has no flag --adminn")));
}

TEST_F(ComposeFileCheckerTest, APublishedPortTheDaemonDoesNotListenOn) {
  auto report = CheckWith("\"7879\"]", "\"7999\"]");
  EXPECT_THAT(report.errors,
              ElementsAre("bad.yml, service d, ports[1]: container port 7999 is not one the "
                          "command listens on (--listen 0.0.0.0:7878, --admin-listen "
                          "0.0.0.0:7879)"));
}

TEST_F(ComposeFileCheckerTest, APublishedPortOnLoopbackInsideTheContainer) {
  auto report = CheckWith("--listen 0.0.0.0:7878", "--listen 127.0.0.1:7878");
  // Services in name order: app, then d.
  EXPECT_THAT(report.errors,
              ElementsAre(HasSubstr("bad.yml, service app, command: --daemon d:7878, but service "
                                    "d has --listen 127.0.0.1:7878: loopback"),
                          HasSubstr("bad.yml, service d, ports[0]: publishes port 7878 but "
                                    "--listen 127.0.0.1:7878 is loopback")));
}

TEST_F(ComposeFileCheckerTest, ADaemonAddressWithTheWrongPortOrHost) {
  auto report = CheckWith("\"d:7878\"", "\"d:7879\"");
  EXPECT_THAT(report.errors, ElementsAre("bad.yml, service app, command: --daemon d:7879, but "
                                         "service d has --listen 0.0.0.0:7878"));
  report = CheckWith("\"d:7878\"", "\"e:7878\"");
  EXPECT_THAT(report.errors,
              ElementsAre("bad.yml, service app, command: --daemon e:7878: no service named 'e'"));
}

TEST_F(ComposeFileCheckerTest, DependsOnNamesAServiceThatExists) {
  auto report = CheckWith("depends_on: [d]", "depends_on: [d, db]");
  EXPECT_THAT(report.errors, ElementsAre("bad.yml, service app, depends_on: no service named 'db'"));
  report = CheckWith("depends_on: [d]", "depends_on: [redis]");
  EXPECT_THAT(report.errors, ElementsAre("bad.yml, service app, command: --daemon d:7878, but d "
                                         "is not in depends_on"));
}

TEST_F(ComposeFileCheckerTest, EveryServiceNeedsAHealthCheck) {
  auto report = CheckWith("    healthcheck:\n      test: [\"CMD\", \"redis-cli\", \"ping\"]\n", "");
  EXPECT_THAT(report.errors,
              ElementsAre("bad.yml, service redis: has no healthcheck",
                          "bad.yml, service d, depends_on: redis is to be service_healthy but "
                          "has no healthcheck"));
}

TEST_F(ComposeFileCheckerTest, ABuildNeedsItsDockerfile) {
  auto report = CheckWith("dockerfile: deploy/Dockerfile", "dockerfile: deploy/Dockerfile.nope");
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_THAT(report.errors[0], HasSubstr("bad.yml, service d: build: Dockerfile "));
  EXPECT_THAT(report.errors[0], HasSubstr("deploy/Dockerfile.nope does not exist"));
}

TEST_F(ComposeFileCheckerTest, OurImageMustRunOurBinary) {
  auto report = CheckWith("[\"trestle-ping-pong\",", "[\"ping-pong\",");
  EXPECT_THAT(report.errors, ElementsAre("bad.yml, service app, command: runs the project's image "
                                         "but names no project binary ('ping-pong')"));
}

TEST_F(ComposeFileCheckerTest, TokensWhereTheDaemonNeedsThem) {
  auto report = CheckWith("      TRESTLE_TOKEN: secret\n", "      OTHER: x\n");
  EXPECT_THAT(report.errors,
              ElementsAre(HasSubstr("bad.yml, service d, command: listens beyond loopback "
                                    "without a token"),
                          HasSubstr("bad.yml, service d, healthcheck: --admin 127.0.0.1:7879, "
                                    "but this container requires a token and this service has "
                                    "none")));
  report = CheckWith("[\"TRESTLE_TOKEN=secret\"]", "[\"OTHER=x\"]");
  EXPECT_THAT(report.errors,
              ElementsAre(HasSubstr("bad.yml, service app, command: --daemon d:7878, but service "
                                    "d requires a token and this service has none"),
                          HasSubstr("bad.yml, service app, healthcheck: --admin d:7879, but "
                                    "service d requires a token")));
}

TEST_F(ComposeFileCheckerTest, TheStoreMustBeAServiceItDependsOn) {
  auto report = CheckWith("redis://redis:6379/0", "redis://cache:6379/0");
  EXPECT_THAT(report.errors, ElementsAre("bad.yml, service d, command: --store "
                                         "redis://cache:6379/0: the host is not a service of "
                                         "this file"));
}

TEST_F(ComposeFileCheckerTest, MergeKeysAndBadYamlAreReported) {
  auto report = CheckWith("    build: *build\n", "    <<: {build: *build}\n");
  EXPECT_THAT(report.errors, testing::Contains(HasSubstr("bad.yml, service d: uses a YAML merge key")));
  report = compose_.Check("services: [1", "broken.yml");
  EXPECT_THAT(report.errors, ElementsAre(HasSubstr("broken.yml: not valid YAML")));
}

}  // namespace
}  // namespace trestle::deploy
