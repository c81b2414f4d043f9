#include "daemon_process.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

#include "trestle/platform/read_file.h"

#ifndef TRESTLED_PATH
#error "TRESTLED_PATH must name the trestled binary"
#endif

namespace trestle::testing {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kStopGrace{10'000};

// An exit as the tests see it: the exit code, -1 if a signal ended it.
int ExitCode(const std::optional<platform::ProcessExit>& exit) {
  return exit && exit->signal == 0 ? exit->exit_code : -1;
}

// Stops `process` with `signal`; a process that outlives kStopGrace is
// killed and fails the test.
int StopProcess(platform::ProcessLauncher& process, int signal) {
  const pid_t pid = process.pid();
  const std::optional<platform::ProcessExit> exit = process.Stop(kStopGrace, signal);
  if (exit && exit->killed) {
    ADD_FAILURE() << "process " << pid << " ignored signal " << signal << " for "
                  << kStopGrace.count() << " ms";
  }
  return ExitCode(exit);
}

}  // namespace

DaemonProcess::DaemonProcess(std::vector<std::string> extra_args)
    : DaemonProcess(std::move(extra_args), false) {}

DaemonProcess::DaemonProcess(std::vector<std::string> extra_args, bool capture_log) {
  char templ[] = "/tmp/trestle-test-XXXXXX";
  dir_ = mkdtemp(templ);
  if (capture_log) log_path_ = dir_ + "/trestled.log";
  const std::string port_file = dir_ + "/port";
  std::vector<std::string> args = {"--admin-listen", "127.0.0.1:0", "--port-file", port_file};
  auto given = [&extra_args](const char* flag) {
    return std::find(extra_args.begin(), extra_args.end(), flag) != extra_args.end();
  };
  if (!given("--listen")) args.insert(args.begin(), {"--listen", "127.0.0.1:0"});
  if (!given("--log-level")) args.insert(args.end(), {"--log-level", "warn"});
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  absl::Status started =
      process_.Start(TRESTLED_PATH, std::move(args), {.output_path = log_path_, .name = ""});
  if (started.ok()) {
    // Data, admin and metrics ports, in that order.
    absl::StatusOr<std::vector<std::uint16_t>> ports =
        process_.WaitForPortFile(port_file, milliseconds(10'000));
    if (ports.ok() && ports->size() == 3 && (*ports)[0] != 0) {
      port_ = (*ports)[0];
      admin_port_ = (*ports)[1];
      metrics_port_ = (*ports)[2];
      return;
    }
    started = ports.ok() ? absl::InternalError("the port file does not hold 3 ports")
                         : ports.status();
  }
  ADD_FAILURE() << "trestled did not start (" << TRESTLED_PATH << "): " << started;
}

std::string DaemonProcess::log() const {
  if (log_path_.empty()) return "";
  return platform::ReadFile(log_path_).value_or("");
}

DaemonProcess::~DaemonProcess() {
  Stop();
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

int DaemonProcess::Stop() {
  if (!process_.running()) return -1;
  return StopProcess(process_, SIGTERM);
}

ChildProcess::ChildProcess(const std::string& path, std::vector<std::string> args) {
  if (absl::Status s = process_.Start(path, std::move(args)); !s.ok()) {
    ADD_FAILURE() << s;
  }
}

ChildProcess::~ChildProcess() {
  if (process_.running()) Stop();
}

int ChildProcess::Stop(int signal) { return StopProcess(process_, signal); }

int ChildProcess::Wait(int timeout_ms) {
  const std::optional<platform::ProcessExit> exit = process_.Wait(milliseconds(timeout_ms));
  if (!exit && process_.running()) return -2;
  return ExitCode(exit);
}

}  // namespace trestle::testing

namespace trestle::testing {
namespace {

// A port the kernel just gave out, released again: free for a moment.
std::uint16_t FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

bool CanConnect(std::uint16_t port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  close(fd);
  return ok;
}

}  // namespace

RedisProcess::RedisProcess(bool append_only) : append_only_(append_only) {
  char templ[] = "/tmp/trestle-redis-XXXXXX";
  dir_ = mkdtemp(templ);
  for (int attempt = 0; attempt < 3 && child_ == nullptr; ++attempt) {
    port_ = FreePort();
    StartOn(port_);
  }
  if (child_ == nullptr) ADD_FAILURE() << "redis-server did not start";
}

bool RedisProcess::StartOn(std::uint16_t port) {
  auto child = std::make_unique<ChildProcess>(
      "/usr/bin/redis-server",
      std::vector<std::string>{"--port", std::to_string(port), "--bind", "127.0.0.1", "--save",
                               "", "--appendonly", append_only_ ? "yes" : "no", "--appendfsync",
                               "always", "--dir", dir_, "--loglevel", "warning"});
  for (int i = 0; i < 200; ++i) {
    if (CanConnect(port)) {
      child_ = std::move(child);
      return true;
    }
    if (child->Wait(0) != -2) return false;  // exited: port taken
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

bool RedisProcess::Restart() {
  child_.reset();
  return StartOn(port_);
}

RedisProcess::~RedisProcess() {
  child_.reset();
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

}  // namespace trestle::testing
