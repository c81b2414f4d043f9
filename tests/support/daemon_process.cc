#include "daemon_process.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#ifndef TRESTLED_PATH
#error "TRESTLED_PATH must name the trestled binary"
#endif

namespace trestle::testing {
namespace {

pid_t Spawn(const std::string& path, const std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    execv(path.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

// Waits for `pid` up to timeout_ms; returns its exit code, -1 if signalled,
// -2 if still running.
int WaitFor(pid_t pid, int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    int status = 0;
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (r < 0) return -1;
    if (std::chrono::steady_clock::now() > deadline) return -2;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

int StopProcess(pid_t pid, int signal) {
  if (pid <= 0) return -1;
  kill(pid, signal);
  int code = WaitFor(pid, 10000);
  if (code == -2) {
    kill(pid, SIGKILL);
    code = WaitFor(pid, 5000);
    ADD_FAILURE() << "process " << pid << " ignored signal " << signal << " for 10 s";
  }
  return code;
}

}  // namespace

DaemonProcess::DaemonProcess(std::vector<std::string> extra_args) {
  char templ[] = "/tmp/trestle-test-XXXXXX";
  dir_ = mkdtemp(templ);
  const std::string port_file = dir_ + "/port";
  std::vector<std::string> args = {"--listen", "127.0.0.1:0", "--admin-listen", "127.0.0.1:0",
                                   "--port-file", port_file, "--log-level", "warn"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  pid_ = Spawn(TRESTLED_PATH, args);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    // The file appears whole (written, then renamed): data, admin, metrics ports.
    std::ifstream in(port_file);
    unsigned port = 0, admin = 0, metrics = 0;
    if (in >> port >> admin >> metrics && port != 0) {
      port_ = static_cast<std::uint16_t>(port);
      admin_port_ = static_cast<std::uint16_t>(admin);
      metrics_port_ = static_cast<std::uint16_t>(metrics);
      return;
    }
    if (WaitFor(pid_, 0) != -2) {
      pid_ = -1;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ADD_FAILURE() << "trestled did not start (" << TRESTLED_PATH << ")";
}

DaemonProcess::~DaemonProcess() {
  Stop();
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

bool DaemonProcess::running() const { return pid_ > 0 && WaitFor(pid_, 0) == -2; }

int DaemonProcess::Stop() {
  if (pid_ <= 0) return -1;
  const int code = StopProcess(pid_, SIGTERM);
  pid_ = -1;
  return code;
}

ChildProcess::ChildProcess(const std::string& path, std::vector<std::string> args)
    : pid_(Spawn(path, args)) {}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) Stop();
}

int ChildProcess::Stop(int signal) {
  const int code = StopProcess(pid_, signal);
  pid_ = -1;
  return code;
}

int ChildProcess::Wait(int timeout_ms) {
  const int code = WaitFor(pid_, timeout_ms);
  if (code != -2) pid_ = -1;
  return code;
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

RedisProcess::RedisProcess() {
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
                               "", "--appendonly", "no", "--dir", dir_, "--loglevel",
                               "warning"});
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
