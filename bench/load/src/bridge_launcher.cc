#include "bridge_launcher.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace trestle::bench {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// SIGTERM, wait up to 5 s, then SIGKILL. Returns "" for a clean exit, else
// a description.
std::string Terminate(pid_t pid, const char* what) {
  if (pid <= 0) return "";
  kill(pid, SIGTERM);
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) {
      if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
      if (WIFEXITED(status)) {
        return std::string(what) + " exited with status " + std::to_string(WEXITSTATUS(status));
      }
      return std::string(what) + " ended by signal " + std::to_string(WTERMSIG(status));
    }
    if (r < 0 && errno != EINTR) return std::string(what) + ": waitpid: " + std::strerror(errno);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  return std::string(what) + " did not stop within 5 s of SIGTERM and was killed";
}

}  // namespace

BridgeLauncher::Paths BridgeLauncher::DefaultPaths() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  // build/tools/trestle/trestle -> build/
  const fs::path build = ec ? fs::path(".") : exe.parent_path().parent_path().parent_path();
  return Paths{(build / "daemon" / "trestled").string(),
               (build / "sim-adapters" / "trestle-sim").string()};
}

BridgeLauncher::BridgeLauncher(Paths paths) : paths_(std::move(paths)) {}

BridgeLauncher::~BridgeLauncher() {
  (void)Stop();
  if (!dir_.empty()) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
}

pid_t BridgeLauncher::Spawn(const std::string& path, const std::vector<std::string>& args,
                            const std::string& log_path) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid != 0) return pid;
  // Child: output to the log, no stdin, then exec.
  const int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (log >= 0) {
    dup2(log, STDOUT_FILENO);
    dup2(log, STDERR_FILENO);
    close(log);
  }
  const int null = open("/dev/null", O_RDONLY);
  if (null >= 0) {
    dup2(null, STDIN_FILENO);
    close(null);
  }
  execv(path.c_str(), argv.data());
  std::fprintf(stderr, "exec %s: %s\n", path.c_str(), std::strerror(errno));
  _exit(127);
}

std::string BridgeLauncher::LogTail(const std::string& log_path) const {
  std::string text = ReadFile(log_path);
  if (text.size() > 2000) text = "..." + text.substr(text.size() - 2000);
  return text.empty() ? "(no output)" : text;
}

absl::Status BridgeLauncher::WaitForFile(pid_t pid, const std::string& path,
                                         const std::string& needle,
                                         std::chrono::milliseconds timeout, const char* what) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string text = ReadFile(path);
    if (needle.empty() ? !text.empty() && text.find('\n') != std::string::npos
                       : text.find(needle) != std::string::npos) {
      return absl::OkStatus();
    }
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      if (pid == daemon_pid_) daemon_pid_ = -1;
      if (pid == ghost_pid_) ghost_pid_ = -1;
      return absl::UnavailableError(std::string(what) + " exited during start-up");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return absl::DeadlineExceededError(std::string(what) + " did not start within " +
                                     std::to_string(timeout.count()) + " ms");
}

absl::Status BridgeLauncher::Start(const std::string& store, bool pull, bool unix_socket,
                                   std::chrono::milliseconds timeout) {
  char dir_template[] = "/tmp/trestle-bench-XXXXXX";
  if (mkdtemp(dir_template) == nullptr) {
    return absl::InternalError(std::string("mkdtemp: ") + std::strerror(errno));
  }
  dir_ = dir_template;
  const std::string port_file = dir_ + "/port";
  const std::string daemon_log = dir_ + "/trestled.log";
  const std::string ghost_log = dir_ + "/ghost.log";
  const std::string socket_path = dir_ + "/trestled.sock";

  // Every port is picked free, so benchmarks (and tests of them) can run
  // side by side and beside a daemon on the default ports.
  std::vector<std::string> daemon_args = {"--listen",   "127.0.0.1:0", "--admin-listen",
                                          "127.0.0.1:0", "--port-file", port_file,
                                          "--store",    store};
  if (unix_socket) {
    daemon_args.push_back("--unix-socket");
    daemon_args.push_back(socket_path);
  }
  daemon_pid_ = Spawn(paths_.trestled, daemon_args, daemon_log);
  if (daemon_pid_ < 0) return absl::InternalError(std::string("fork: ") + std::strerror(errno));
  if (absl::Status s = WaitForFile(daemon_pid_, port_file, "", timeout, "trestled"); !s.ok()) {
    const std::string tail = LogTail(daemon_log);
    (void)Stop();
    return absl::Status(s.code(), std::string(s.message()) + " (" + paths_.trestled + "):\n" + tail);
  }
  const std::string port = ReadFile(port_file).substr(0, ReadFile(port_file).find('\n'));
  const std::string tcp_address = "127.0.0.1:" + port;
  client_address_ = unix_socket ? "unix:" + socket_path : tcp_address;

  std::vector<std::string> ghost_args = {"ghost", "--daemon", client_address_, "--id",
                                         "bench-ghost"};
  if (pull) ghost_args.push_back("--pull");
  ghost_pid_ = Spawn(paths_.trestle_sim, ghost_args, ghost_log);
  if (ghost_pid_ < 0) {
    (void)Stop();
    return absl::InternalError(std::string("fork: ") + std::strerror(errno));
  }
  if (absl::Status s = WaitForFile(ghost_pid_, ghost_log, "connected to", timeout, "ghost simulator");
      !s.ok()) {
    const std::string tail = LogTail(ghost_log);
    (void)Stop();
    return absl::Status(s.code(),
                        std::string(s.message()) + " (" + paths_.trestle_sim + "):\n" + tail);
  }
  return absl::OkStatus();
}

absl::Status BridgeLauncher::Stop() {
  std::string problems = Terminate(ghost_pid_, "the ghost simulator");
  ghost_pid_ = -1;
  const std::string daemon_problem = Terminate(daemon_pid_, "trestled");
  daemon_pid_ = -1;
  if (!daemon_problem.empty()) problems += (problems.empty() ? "" : "; ") + daemon_problem;
  if (problems.empty()) return absl::OkStatus();
  return absl::InternalError(problems);
}

}  // namespace trestle::bench
