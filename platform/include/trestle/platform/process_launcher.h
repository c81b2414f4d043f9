// ProcessLauncher: one child process (a binary with arguments), from start
// to reaped. It starts the child, waits for what the child writes when it is
// ready (its port file, a line in its output), stops it (a signal, then
// SIGKILL after a bound), reaps it and says how it ended.
//
// Used by the integration tests (tests/support) and by `trestle bench`, so it
// depends on nothing but POSIX and Abseil.
//
// Ownership and lifetime: the launcher owns its child; destroying a launcher
// whose child still runs stops it (SIGTERM, then SIGKILL after
// kDefaultGrace). Only this launcher reaps its child, so nothing else in the
// process may wait for it (waitpid(-1) elsewhere would steal its exit).
//
// Threading: not thread-safe; use one launcher from one thread. Every wait
// blocks the calling thread (up to the timeout given); none runs a loop.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace trestle::platform {

// How a child ended.
struct ProcessExit {
  int exit_code = -1;  // its exit status; -1 if a signal ended it
  int signal = 0;      // the signal that ended it; 0 if it exited
  // Stop() had to SIGKILL it: it outlived `grace` after `stop_signal`.
  bool killed = false;
  int stop_signal = 0;
  std::chrono::milliseconds grace{0};

  // Exited with status 0 (on its own, or handling the signal Stop() sent).
  bool clean() const { return !killed && signal == 0 && exit_code == 0; }
  // "NAME exited with status 3", "NAME ended by signal 11", "NAME did not
  // stop within 5000 ms of signal 15 and was killed", "NAME exited with
  // status 0".
  std::string Describe(std::string_view name) const;
};

class ProcessLauncher {
 public:
  static constexpr std::chrono::milliseconds kDefaultGrace{5000};

  struct Options {
    // A file (created or truncated) for the child's stdout and stderr, or ""
    // to share this process's. The child's stdin is always /dev/null.
    std::string output_path;
    // In messages; "" = the binary's file name.
    std::string name;
  };

  ProcessLauncher() = default;
  ~ProcessLauncher();
  ProcessLauncher(const ProcessLauncher&) = delete;
  ProcessLauncher& operator=(const ProcessLauncher&) = delete;

  // Starts the binary at `path` (no PATH search) with `args` as argv[1..],
  // an empty signal mask and SIGTERM and SIGINT at their default action. Errors: FailedPrecondition if a child of this
  // launcher still runs; NotFound / PermissionDenied / Internal (naming the
  // path and the errno text) if it cannot be started, e.g. no such binary.
  // A launcher whose child ended may start another.
  absl::Status Start(const std::string& path, std::vector<std::string> args,
                     const Options& options = {});

  // The child's pid; -1 before Start and after it was reaped.
  pid_t pid() const { return pid_; }
  const std::string& name() const { return name_; }
  // True while the child runs; reaps it (keeping exit()) once it ended.
  bool running();
  // How the child ended, once it was reaped.
  const std::optional<ProcessExit>& exit() const { return exit_; }

  // Waits up to `timeout` for the child to end by itself. Returns how it
  // ended, nullopt if it still runs (or nothing was started).
  std::optional<ProcessExit> Wait(std::chrono::milliseconds timeout);

  // Sends `signal` and waits up to `grace` for the child to end; then sends
  // SIGKILL and reaps it (`killed` is set). A child that had already ended
  // is not signalled: its exit is returned as it was. nullopt if nothing
  // was ever started.
  std::optional<ProcessExit> Stop(std::chrono::milliseconds grace = kDefaultGrace,
                                  int signal = SIGTERM);

  // Waits up to `timeout` until the file at `path` holds port numbers
  // separated by blanks or newlines and ending in a newline, and returns
  // them in order. The file must appear whole (written elsewhere and renamed
  // into place, as trestled's --port-file "7878\n7879\n0\n" is): a partly
  // written one could be read early. Errors: Unavailable if the child ended
  // first (how, in the message); DeadlineExceeded; InvalidArgument if a word
  // is not a port number (naming the file and the word).
  absl::StatusOr<std::vector<std::uint16_t>> WaitForPortFile(const std::string& path,
                                                             std::chrono::milliseconds timeout);

  // Waits up to `timeout` until the child's output (Options::output_path,
  // which must be set) contains `text`. Errors as for WaitForPortFile.
  absl::Status WaitForOutput(std::string_view text, std::chrono::milliseconds timeout);

  // The last `max_bytes` of the child's output file, "(no output)" if there
  // is none.
  std::string OutputTail(std::size_t max_bytes = 2000) const;

 private:
  // Waits until the file at `path` satisfies `ready`, as WaitForPortFile;
  // `what` ("wrote /tmp/port") completes the error messages.
  template <typename Ready>
  absl::StatusOr<std::string> WaitForFile(const std::string& path, Ready ready,
                                          std::string_view what,
                                          std::chrono::milliseconds timeout);
  // Sleeps up to `timeout` or until the child ends, whichever is first.
  void Nap(std::chrono::milliseconds timeout);
  // Reaps the child if it ended; true if it did (exit_ is set).
  bool Reap();
  void Forget();

  pid_t pid_ = -1;
  int pidfd_ = -1;  // readable once the child ends; -1 if the kernel lacks pidfds
  std::string name_;
  std::string output_path_;
  std::optional<ProcessExit> exit_;
};

}  // namespace trestle::platform
