// RelayLauncher: starts, for one benchmark configuration, the two processes
// that carry its messages, and stops them. For the bridge they are trestled
// and the ghost simulator; for its floor (`--floor`) the floor relay and the
// floor echo (two subcommands of this `trestle` binary). Either way: a relay
// that listens on 127.0.0.1 at a free port (and, on request, on a Unix
// socket in a private temporary directory) and writes its port file, then a
// peer that connects to it and says so on its output (or no peer: another
// daemon of a federated bridge, whose simulator is attached elsewhere). Output goes to log
// files in that directory, shown when something fails. Both run on
// platform::ProcessLauncher. The children inherit this process's limits:
// raise RLIMIT_NOFILE before Start.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "trestle/platform/process_launcher.h"

namespace trestle::bench {

class RelayLauncher {
 public:
  struct Paths {
    std::string trestled;
    std::string trestle_sim;
    std::string trestle;  // this binary, for the floor's subcommands
    // The binaries of this build tree, found relative to the running
    // executable (build/tools/trestle/trestle -> build/daemon/trestled and
    // build/sim-adapters/trestle-sim).
    static Paths Default();
  };

  // What to start.
  struct Spec {
    std::string relay_name;  // in messages: "trestled"
    std::string relay_path;
    // Besides --listen 127.0.0.1:0, --port-file and --unix-socket, which
    // every relay takes.
    std::vector<std::string> relay_args;
    std::string peer_name;  // "the ghost simulator"
    std::string peer_path;  // "": no peer
    std::vector<std::string> peer_args;  // the relay's address is appended
    std::string peer_ready_text;         // the peer prints it once connected
  };
  // trestled with `store` and `daemon_args`, and the ghost simulator (PULL if
  // `pull`) as client `ghost_id` (unique across a federated bridge).
  static Spec Bridge(const Paths& paths, const std::string& store, bool pull,
                     const std::vector<std::string>& daemon_args, const std::string& ghost_id);
  // trestled alone (another daemon of a federated bridge).
  static Spec Daemon(const Paths& paths, const std::string& store,
                     const std::vector<std::string>& daemon_args);
  // `trestle bench-floor-relay` and `trestle bench-floor-echo`.
  static Spec Floor(const Paths& paths);

  explicit RelayLauncher(Spec spec);
  // Stops whatever is still running (see Stop) and removes the directory.
  ~RelayLauncher();
  RelayLauncher(const RelayLauncher&) = delete;
  RelayLauncher& operator=(const RelayLauncher&) = delete;

  // Starts the relay (with a Unix socket if `unix_socket`), waits until it
  // has written its port file, then starts the peer (if any) and waits until
  // it says it is connected. Each wait is bounded by `timeout`. On error everything
  // started is stopped again and the message ends with the log's tail.
  // Call once.
  absl::Status Start(bool unix_socket, std::chrono::milliseconds timeout);
  // Where apps connect: "unix:PATH" with a Unix socket, else "127.0.0.1:PORT".
  const std::string& client_address() const { return client_address_; }
  pid_t relay_pid() const { return relay_.pid(); }
  pid_t peer_pid() const { return peer_.pid(); }

  // Stops the peer, then the relay: SIGTERM, up to 5 s each, then SIGKILL.
  // Returns an error naming a process that had to be killed or that ended
  // otherwise than with status 0. Idempotent.
  absl::Status Stop();

 private:
  Spec spec_;
  std::string dir_;
  std::string client_address_;
  platform::ProcessLauncher relay_;
  platform::ProcessLauncher peer_;
};

}  // namespace trestle::bench
