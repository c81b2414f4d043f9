#include "trestle/platform/process_launcher.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "trestle/platform/read_file.h"

extern char** environ;

namespace trestle::platform {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// Without a pidfd, how often waits look at the child again.
constexpr milliseconds kPollStep{5};

ProcessExit FromWaitStatus(int status) {
  ProcessExit e;
  if (WIFEXITED(status)) {
    e.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    e.signal = WTERMSIG(status);
  }
  return e;
}

// What the child wrote so far ("" before it wrote anything).
std::string OutputSoFar(const std::string& path) { return ReadFile(path).value_or(""); }

absl::Status SpawnError(int error, const std::string& path) {
  const std::string text = absl::StrCat("cannot start ", path, ": ", std::strerror(error));
  if (error == ENOENT) return absl::NotFoundError(text);
  if (error == EACCES) return absl::PermissionDeniedError(text);
  return absl::InternalError(text);
}

// The port numbers in `text` (separated by blanks or newlines).
absl::StatusOr<std::vector<std::uint16_t>> ParsePorts(const std::string& path,
                                                      const std::string& text) {
  std::vector<std::uint16_t> ports;
  for (absl::string_view word : absl::StrSplit(text, absl::ByAnyChar(" \t\n"), absl::SkipEmpty())) {
    unsigned value = 0;
    const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
    if (ec != std::errc() || ptr != word.data() + word.size() || value > 65535) {
      return absl::InvalidArgumentError(absl::StrCat("port file ", path, ": \"",
                                                     std::string(word), "\" is not a port number"));
    }
    ports.push_back(static_cast<std::uint16_t>(value));
  }
  if (ports.empty()) return absl::InvalidArgumentError(absl::StrCat("port file ", path, " is empty"));
  return ports;
}

}  // namespace

std::string ProcessExit::Describe(std::string_view name_view) const {
  const std::string name(name_view);
  if (killed) {
    return absl::StrCat(name, " did not stop within ", grace.count(), " ms of signal ",
                        stop_signal, " and was killed");
  }
  if (signal != 0) return absl::StrCat(name, " ended by signal ", signal);
  return absl::StrCat(name, " exited with status ", exit_code);
}

ProcessLauncher::~ProcessLauncher() {
  if (pid_ > 0) Stop();
}

absl::Status ProcessLauncher::Start(const std::string& path, std::vector<std::string> args,
                                    const Options& options) {
  if (pid_ > 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "cannot start ", path, ": ", name_, " (pid ", pid_, ") still runs under this launcher"));
  }
  exit_.reset();
  output_path_ = options.output_path;
  name_ = options.name;
  if (name_.empty()) {
    const std::size_t slash = path.rfind('/');
    name_ = slash == std::string::npos ? path : path.substr(slash + 1);
  }

  std::string argv0 = path;
  std::vector<char*> argv;
  argv.push_back(argv0.data());
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  if (!output_path_.empty()) {
    posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, output_path_.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&files, STDOUT_FILENO, STDERR_FILENO);
  }
  // The child must be stoppable whatever this process blocks or ignores.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGTERM);
  sigaddset(&defaults, SIGINT);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  pid_t pid = -1;
  const int error =
      posix_spawn(&pid, path.c_str(), &files, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  posix_spawnattr_destroy(&attributes);
  if (error != 0) return SpawnError(error, path);
  pid_ = pid;
  // Readable once the child ends. Through syscall(): glibc 2.36's
  // <sys/pidfd.h> lacks extern "C". -1 on kernels before 5.3: waits poll.
  pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  return absl::OkStatus();
}

void ProcessLauncher::Forget() {
  if (pidfd_ >= 0) close(pidfd_);
  pidfd_ = -1;
  pid_ = -1;
}

bool ProcessLauncher::Reap() {
  if (pid_ <= 0) return exit_.has_value();
  int status = 0;
  pid_t r = 0;
  do {
    r = waitpid(pid_, &status, WNOHANG);
  } while (r < 0 && errno == EINTR);
  if (r == 0) return false;
  // r < 0 (ECHILD): something else reaped it; how it ended is unknown.
  exit_ = r == pid_ ? FromWaitStatus(status) : ProcessExit{};
  Forget();
  return true;
}

bool ProcessLauncher::running() { return pid_ > 0 && !Reap(); }

void ProcessLauncher::Nap(milliseconds timeout) {
  if (timeout <= milliseconds(0)) return;
  if (pidfd_ >= 0) {
    pollfd p{pidfd_, POLLIN, 0};
    poll(&p, 1, static_cast<int>(timeout.count()));
    return;
  }
  std::this_thread::sleep_for(std::min(timeout, kPollStep));
}

std::optional<ProcessExit> ProcessLauncher::Wait(milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    if (pid_ <= 0) return exit_;
    if (Reap()) return exit_;
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
    if (left <= milliseconds(0)) return std::nullopt;
    Nap(left + milliseconds(1));
  }
}

std::optional<ProcessExit> ProcessLauncher::Stop(milliseconds grace, int signal) {
  if (pid_ <= 0 || Reap()) return exit_;
  kill(pid_, signal);
  if (std::optional<ProcessExit> e = Wait(grace)) return e;
  kill(pid_, SIGKILL);
  int status = 0;
  pid_t r = 0;
  do {
    r = waitpid(pid_, &status, 0);
  } while (r < 0 && errno == EINTR);
  ProcessExit e = r == pid_ ? FromWaitStatus(status) : ProcessExit{};
  e.killed = true;
  e.grace = grace;
  e.stop_signal = signal;
  exit_ = e;
  Forget();
  return exit_;
}

template <typename Ready>
absl::StatusOr<std::string> ProcessLauncher::WaitForFile(const std::string& path, Ready ready,
                                                         std::string_view what,
                                                         milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    std::string text = OutputSoFar(path);
    if (ready(text)) return text;
    if (pid_ <= 0 || Reap()) {
      const std::string how =
          exit_ ? exit_->Describe(name_) : absl::StrCat(name_, " was not started");
      return absl::UnavailableError(absl::StrCat(how, " before it had ", std::string(what)));
    }
    if (Clock::now() >= deadline) {
      return absl::DeadlineExceededError(
          absl::StrCat(name_, " has not ", std::string(what), " within ", timeout.count(), " ms"));
    }
    Nap(kPollStep);
  }
}

absl::StatusOr<std::vector<std::uint16_t>> ProcessLauncher::WaitForPortFile(
    const std::string& path, milliseconds timeout) {
  absl::StatusOr<std::string> text = WaitForFile(
      path, [](const std::string& t) { return !t.empty() && t.back() == '\n'; },
      absl::StrCat("written its port file ", path), timeout);
  if (!text.ok()) return text.status();
  return ParsePorts(path, *text);
}

absl::Status ProcessLauncher::WaitForOutput(std::string_view text, milliseconds timeout) {
  if (output_path_.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat(name_, " shares this process's output: nothing to wait for"));
  }
  return WaitForFile(
             output_path_,
             [text](const std::string& t) { return t.find(text) != std::string::npos; },
             absl::StrCat("printed \"", std::string(text), "\""), timeout)
      .status();
}

std::string ProcessLauncher::OutputTail(std::size_t max_bytes) const {
  std::string text = output_path_.empty() ? std::string() : OutputSoFar(output_path_);
  if (text.size() > max_bytes) text = "..." + text.substr(text.size() - max_bytes);
  return text.empty() ? "(no output)" : text;
}

}  // namespace trestle::platform
