// Real processes for integration tests, each stopped (SIGTERM, then SIGKILL)
// when destroyed: DaemonProcess (trestled on free loopback ports),
// ChildProcess (any binary), RedisProcess (a private redis-server). All three
// run on platform::ProcessLauncher (the one `trestle bench` uses); these
// wrappers add what a test wants: failures reported to GoogleTest, and exit
// codes as plain ints.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "trestle/platform/process_launcher.h"

namespace trestle::testing {

class DaemonProcess {
 public:
  // Starts trestled with --listen 127.0.0.1:0 and --log-level warn (unless
  // `extra_args` has its own) and --admin-listen 127.0.0.1:0 plus
  // `extra_args`, and waits
  // (up to 10 s) until it has written its ports.
  // Adds a test failure if it does not start.
  explicit DaemonProcess(std::vector<std::string> extra_args = {});
  // With `capture_log`, its stdout and stderr go to a file that log()
  // reads, not to the test's stderr.
  DaemonProcess(std::vector<std::string> extra_args, bool capture_log);
  ~DaemonProcess();
  DaemonProcess(const DaemonProcess&) = delete;
  DaemonProcess& operator=(const DaemonProcess&) = delete;

  std::uint16_t port() const { return port_; }
  std::uint16_t admin_port() const { return admin_port_; }
  std::uint16_t metrics_port() const { return metrics_port_; }  // 0: off
  std::string admin_address() const { return "127.0.0.1:" + std::to_string(admin_port_); }
  pid_t pid() const { return process_.pid(); }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  bool running() const { return process_.running(); }
  // Sends SIGTERM and waits (10 s, then SIGKILL and a test failure); returns
  // the exit status (-1 if a signal ended it or it was not running).
  int Stop();
  // What it has logged so far (with capture_log; "" otherwise).
  std::string log() const;

 private:
  mutable platform::ProcessLauncher process_;  // running() reaps
  std::uint16_t port_ = 0;
  std::uint16_t admin_port_ = 0;
  std::uint16_t metrics_port_ = 0;
  std::string dir_;
  std::string log_path_;
};

// Runs a test binary (trestle-sim, an example) with arguments; stops it when
// destroyed.
class ChildProcess {
 public:
  ChildProcess(const std::string& path, std::vector<std::string> args);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  // SIGTERM (or `signal`) and wait (10 s, then SIGKILL and a test failure);
  // returns the exit code, -1 if signalled or it could not start.
  int Stop(int signal = 15);
  // Waits up to timeout_ms for it to exit by itself; returns the exit code,
  // -1 if signalled, -2 on timeout.
  int Wait(int timeout_ms);
  pid_t pid() const { return process_.pid(); }

 private:
  platform::ProcessLauncher process_;
};

}  // namespace trestle::testing

namespace trestle::testing {

// RedisProcess: a private redis-server on a free loopback port, no
// persistence, stopped when destroyed.
class RedisProcess {
 public:
  // `append_only`: every write is in an append-only file (fsync always), so
  // that Restart() keeps the data, as a production Redis would.
  explicit RedisProcess(bool append_only = false);
  ~RedisProcess();
  std::uint16_t port() const { return port_; }
  std::string url(int db = 0) const {
    return "redis://127.0.0.1:" + std::to_string(port_) + "/" + std::to_string(db);
  }
  bool ok() const { return child_ != nullptr; }
  // Stops the server (SIGTERM: its data is gone unless append_only), and
  // starts it again on the same port and directory.
  void Stop() { child_.reset(); }
  bool Restart();

 private:
  bool StartOn(std::uint16_t port);  // false if it exited (port taken)
  std::uint16_t port_ = 0;
  bool append_only_ = false;
  std::string dir_;
  std::unique_ptr<ChildProcess> child_;
};

}  // namespace trestle::testing
