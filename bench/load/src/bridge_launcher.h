// BridgeLauncher: starts a private trestled and ghost simulator for one
// benchmark configuration, and stops them.
//
// The daemon listens on 127.0.0.1 at a free port (and, on request, on a Unix
// socket in a private temporary directory); the ghost simulator connects to
// it in the same delivery mode as the apps. Their output goes to log files
// in that directory (shown when something fails). The children inherit this
// process's limits: raise RLIMIT_NOFILE before Start.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace trestle::bench {

class BridgeLauncher {
 public:
  struct Paths {
    std::string trestled;
    std::string trestle_sim;
  };
  // The binaries of this build tree, found relative to the running
  // executable (build/tools/trestle/trestle -> build/daemon/trestled and
  // build/sim-adapters/trestle-sim).
  static Paths DefaultPaths();

  explicit BridgeLauncher(Paths paths);
  // Stops whatever is still running (see Stop) and removes the directory.
  ~BridgeLauncher();
  BridgeLauncher(const BridgeLauncher&) = delete;
  BridgeLauncher& operator=(const BridgeLauncher&) = delete;

  // Starts trestled with `store` (and a Unix socket if `unix_socket`), waits
  // until it has bound its port, then starts the ghost simulator (PULL if
  // `pull`) and waits until it says it is connected. Each wait is bounded by
  // `timeout`. On error everything started is stopped again. Call once.
  absl::Status Start(const std::string& store, bool pull, bool unix_socket,
                     std::chrono::milliseconds timeout);
  // Where apps connect: "unix:PATH" with a Unix socket, else "127.0.0.1:PORT".
  const std::string& client_address() const { return client_address_; }
  pid_t daemon_pid() const { return daemon_pid_; }
  pid_t ghost_pid() const { return ghost_pid_; }

  // Stops the ghost, then the daemon: SIGTERM, up to 5 s each, then SIGKILL.
  // Returns an error naming a process that had to be killed or that exited
  // with a non-zero status. Idempotent.
  absl::Status Stop();

 private:
  pid_t Spawn(const std::string& path, const std::vector<std::string>& args,
              const std::string& log_path);
  absl::Status WaitForFile(pid_t pid, const std::string& path, const std::string& needle,
                           std::chrono::milliseconds timeout, const char* what);
  std::string LogTail(const std::string& log_path) const;

  Paths paths_;
  std::string dir_;
  std::string client_address_;
  pid_t daemon_pid_ = -1;
  pid_t ghost_pid_ = -1;
};

}  // namespace trestle::bench
