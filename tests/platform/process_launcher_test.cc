// ProcessLauncher against real /bin/sh children: the port file, the output,
// exit codes and signals, and the SIGKILL after the grace period for a child
// that ignores SIGTERM.
#include "trestle/platform/process_launcher.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <string>

namespace trestle::platform {
namespace {

using std::chrono::milliseconds;

class ProcessLauncherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/launcher-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Starts `/bin/sh -c script`, its output in dir_/out.
  void StartScript(ProcessLauncher& p, const std::string& script) {
    ASSERT_TRUE(
        p.Start("/bin/sh", {"-c", script}, {.output_path = dir_ + "/out", .name = "script"}).ok());
  }

  std::string dir_;
};

TEST_F(ProcessLauncherTest, ReadsThePortFileOnceItIsWholeAndStopsTheChild) {
  ProcessLauncher p;
  const std::string port_file = dir_ + "/port";
  // Written in two steps and renamed, as trestled does: never seen half-written.
  StartScript(p, "sleep 0.1; printf '7878\\n9' > " + port_file + ".tmp; printf ' 0\\n' >> " +
                     port_file + ".tmp; mv " + port_file + ".tmp " + port_file +
                     "; exec sleep 30");
  absl::StatusOr<std::vector<std::uint16_t>> ports = p.WaitForPortFile(port_file, milliseconds(10'000));
  ASSERT_TRUE(ports.ok()) << ports.status();
  EXPECT_EQ(*ports, (std::vector<std::uint16_t>{7878, 9, 0}));
  EXPECT_TRUE(p.running());
  const pid_t pid = p.pid();
  const std::optional<ProcessExit> exit = p.Stop();
  ASSERT_TRUE(exit.has_value());
  EXPECT_EQ(exit->signal, SIGTERM);  // sleep does not handle it
  EXPECT_FALSE(exit->killed);
  EXPECT_FALSE(exit->clean());
  EXPECT_EQ(exit->Describe("script"), "script ended by signal 15");
  EXPECT_FALSE(p.running());
  EXPECT_EQ(p.pid(), -1);
  EXPECT_EQ(kill(pid, 0), -1) << "reaped: the pid is gone";
  EXPECT_EQ(errno, ESRCH);
}

TEST_F(ProcessLauncherTest, ReportsTheExitCode) {
  ProcessLauncher p;
  StartScript(p, "echo bye; exit 3");
  const std::optional<ProcessExit> exit = p.Wait(milliseconds(10'000));
  ASSERT_TRUE(exit.has_value());
  EXPECT_EQ(exit->exit_code, 3);
  EXPECT_EQ(exit->signal, 0);
  EXPECT_FALSE(exit->clean());
  EXPECT_EQ(exit->Describe("script"), "script exited with status 3");
  EXPECT_EQ(p.OutputTail(), "bye\n");
  // Stopping an ended child signals nothing and keeps its exit.
  EXPECT_EQ(p.Stop()->exit_code, 3);
}

TEST_F(ProcessLauncherTest, AChildThatHandlesSigtermExitsCleanly) {
  ProcessLauncher p;
  StartScript(p, "trap 'exit 0' TERM; echo ready; while :; do sleep 0.02; done");
  ASSERT_TRUE(p.WaitForOutput("ready", milliseconds(10'000)).ok());
  const std::optional<ProcessExit> exit = p.Stop(milliseconds(10'000));
  ASSERT_TRUE(exit.has_value());
  EXPECT_TRUE(exit->clean()) << exit->Describe("script");
  EXPECT_EQ(exit->exit_code, 0);
}

TEST_F(ProcessLauncherTest, AChildThatIgnoresSigtermIsKilledAfterTheGracePeriod) {
  ProcessLauncher p;
  StartScript(p, "trap '' TERM; echo ready; while :; do sleep 0.02; done");
  ASSERT_TRUE(p.WaitForOutput("ready", milliseconds(10'000)).ok());
  const auto start = std::chrono::steady_clock::now();
  const std::optional<ProcessExit> exit = p.Stop(milliseconds(300));
  const auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(exit.has_value());
  EXPECT_TRUE(exit->killed);
  EXPECT_EQ(exit->signal, SIGKILL);
  EXPECT_EQ(exit->stop_signal, SIGTERM);
  EXPECT_GE(waited, milliseconds(300)) << "SIGKILL only after the grace period";
  EXPECT_EQ(exit->Describe("script"),
            "script did not stop within 300 ms of signal 15 and was killed");
  EXPECT_FALSE(p.running());
}

TEST_F(ProcessLauncherTest, AChildThatExitsBeforeItsPortFileSaysHow) {
  ProcessLauncher p;
  StartScript(p, "exit 7");
  absl::StatusOr<std::vector<std::uint16_t>> ports =
      p.WaitForPortFile(dir_ + "/never", milliseconds(10'000));
  ASSERT_FALSE(ports.ok());
  EXPECT_EQ(ports.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(ports.status().message(), "script exited with status 7 before it had written its "
                                      "port file " + dir_ + "/never");
}

TEST_F(ProcessLauncherTest, WaitingIsBounded) {
  ProcessLauncher p;
  StartScript(p, "exec sleep 30");
  absl::StatusOr<std::vector<std::uint16_t>> ports =
      p.WaitForPortFile(dir_ + "/never", milliseconds(50));
  ASSERT_FALSE(ports.ok());
  EXPECT_EQ(ports.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(ports.status().message(),
            "script has not written its port file " + dir_ + "/never within 50 ms");
  absl::Status output = p.WaitForOutput("ready", milliseconds(50));
  EXPECT_EQ(output.code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(output.message(), "script has not printed \"ready\" within 50 ms");
  EXPECT_FALSE(p.Wait(milliseconds(20)).has_value()) << "still running";
}

TEST_F(ProcessLauncherTest, APortFileThatIsNotPortsIsAnErrorNamingIt) {
  ProcessLauncher p;
  const std::string port_file = dir_ + "/port";
  StartScript(p, "echo '7878 http' > " + port_file + "; exec sleep 30");
  absl::StatusOr<std::vector<std::uint16_t>> ports =
      p.WaitForPortFile(port_file, milliseconds(10'000));
  ASSERT_FALSE(ports.ok());
  EXPECT_EQ(ports.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ports.status().message(),
            "port file " + port_file + ": \"http\" is not a port number");
}

TEST_F(ProcessLauncherTest, AMissingBinaryIsNotFoundNamingIt) {
  ProcessLauncher p;
  const absl::Status s = p.Start(dir_ + "/no-such-binary", {});
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(s.message().find(dir_ + "/no-such-binary"), std::string::npos) << s;
  EXPECT_FALSE(p.running());
  EXPECT_FALSE(p.Stop().has_value()) << "nothing was started";
}

TEST_F(ProcessLauncherTest, OneChildAtATime) {
  ProcessLauncher p;
  StartScript(p, "exec sleep 30");
  EXPECT_EQ(p.Start("/bin/true", {}).code(), absl::StatusCode::kFailedPrecondition);
  p.Stop();
  ASSERT_TRUE(p.Start("/bin/true", {}).ok()) << "a launcher whose child ended starts another";
  ASSERT_TRUE(p.Wait(milliseconds(10'000)).has_value());
  EXPECT_TRUE(p.exit()->clean());
}

TEST_F(ProcessLauncherTest, DestroyingTheLauncherStopsAndReapsTheChild) {
  pid_t pid = -1;
  {
    ProcessLauncher p;
    StartScript(p, "exec sleep 30");
    pid = p.pid();
    ASSERT_GT(pid, 0);
  }
  EXPECT_EQ(kill(pid, 0), -1);
  EXPECT_EQ(errno, ESRCH);
}

}  // namespace
}  // namespace trestle::platform
