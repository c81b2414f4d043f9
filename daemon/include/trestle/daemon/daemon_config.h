// DaemonConfig: every setting of trestled, with its default. ConfigLoader
// fills it from a YAML file and command-line flags (see config_loader.h); the
// same names serve both (`max_batch` in YAML is `--max-batch` on the command
// line).
#pragma once

#include <cstdint>
#include <string>

#include "trestle/wire/frame_format.h"

namespace trestle::daemon {

struct DaemonConfig {
  // TCP listen address, HOST:PORT. Port 0 picks a free port (see
  // port_file). Listening beyond loopback requires auth_token.
  std::string listen = "127.0.0.1:7878";
  // Optional Unix socket path; empty = none.
  std::string unix_socket;
  // Once listening, write the bound ports to this file, one per line: data
  // (TCP), admin, metrics (0 when off). For tests and scripts.
  std::string port_file;
  // gRPC admin service address HOST:PORT; empty = off.
  std::string admin_listen = "127.0.0.1:7879";
  // Prometheus /metrics over HTTP, HOST:PORT; empty = off.
  std::string metrics_listen;
  // Shared token every client must present; empty = none. Also read from
  // the TRESTLE_TOKEN environment variable when not configured.
  std::string auth_token;
  // Payload store: "memory" (embedded).
  std::string store = "memory";
  // "system": one simulator serves every app. "per-node": a SIM whose client
  // id equals an app's id models that app's sends.
  std::string sim_assignment = "system";
  // Advertised to clients: wallclock | paced | virtual.
  std::string time_mode = "wallclock";
  std::uint32_t max_frame_bytes = wire::kDefaultMaxFrameBytes;
  // Most transits or deliveries in one batch frame.
  std::uint32_t max_batch = 256;
  // Transits waiting per simulator before senders are paused.
  std::uint64_t transit_queue_limit = 65536;
  // Deliveries waiting per app before the simulator's outcomes are paused.
  std::uint64_t delivery_queue_limit = 65536;
  // How long deliveries wait for a disconnected (or not yet connected) app
  // before they expire.
  std::uint64_t delivery_ttl_ms = 30000;
  // How long a session whose ctrl connection broke can be resumed.
  std::uint64_t session_linger_ms = 30000;
  // Output bytes queued on one connection above which the daemon stops
  // producing for it (resumes at a quarter of it).
  std::uint64_t output_high_watermark = 8u << 20;
  // Clients the daemon should be able to hold (3 connections each): at start
  // it raises its open-file limit for them, or warns that it cannot.
  std::uint64_t max_clients = 10000;
  // trace | debug | info | warn | error | off
  std::string log_level = "info";
};

}  // namespace trestle::daemon
