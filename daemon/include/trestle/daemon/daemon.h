// Daemon: trestled as a library, so that main() and tests run the same code.
//
//   trestle::daemon::Daemon d(config);
//   if (auto s = d.Start(); !s.ok()) { ... }  // binds listeners
//   d.Run();                                  // until SIGINT/SIGTERM or Shutdown
//
// Not thread-safe: Start and Run on one thread. Shutdown() may be called
// from a callback on the loop (signal handlers use it).
#pragma once

#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "trestle/daemon/daemon_config.h"

namespace trestle::daemon {

class Daemon {
 public:
  explicit Daemon(DaemonConfig config);
  ~Daemon();
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  // Binds the TCP listener (and Unix socket, if configured), writes the port
  // file and installs SIGINT/SIGTERM handlers. Errors name the address.
  absl::Status Start();
  // Runs the event loop until shutdown; returns the process exit code.
  int Run();
  // Stops accepting, ends every session and lets the loop finish.
  void Shutdown();
  // The bound TCP port (useful with port 0). Valid after Start().
  std::uint16_t port() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace trestle::daemon
