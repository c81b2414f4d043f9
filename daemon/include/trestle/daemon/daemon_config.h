// DaemonConfig: every setting of trestled, with its default. ConfigLoader
// fills it from a YAML file and command-line flags (see config_loader.h); the
// same names serve both (`max_batch` in YAML is `--max-batch` on the command
// line). Enumerated settings are parsed once, at load, into the enums below:
// nothing on the message path compares strings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trestle/platform/enum_names.h"
#include "trestle/wire/frame_format.h"
#include "trestle/wire/time_mode.h"

namespace trestle::daemon {

// Which simulator models a message.
enum class SimAssignment : std::uint8_t {
  kSystem,   // one simulator (queue) serves every app
  kPerNode,  // the SIM whose client id equals the sending app's models its sends
};

enum class StoreKind : std::uint8_t {
  kMemory,  // payloads in the daemon's memory
  kRedis,   // payloads in Redis (store_url)
};

enum class LogLevel : std::uint8_t { kTrace, kDebug, kInfo, kWarn, kError, kOff };

// The one table of names per enum (platform::EnumNames), used by YAML,
// flags, Welcome and admin replies alike; TimeMode's is wire::kTimeModeNames.
platform::EnumNames<SimAssignment> SimAssignmentNames();
platform::EnumNames<LogLevel> LogLevelNames();

inline std::string_view SimAssignmentName(SimAssignment v) { return SimAssignmentNames().Name(v); }
inline std::string_view LogLevelName(LogLevel v) { return LogLevelNames().Name(v); }

// Message ids are (daemon_id << kDaemonIdShift) | (session << 32) | n: the
// daemon id in the top bits keeps ids of daemons that share a bridge apart.
inline constexpr int kDaemonIdBits = 10;
inline constexpr int kDaemonIdShift = 64 - kDaemonIdBits;
inline constexpr std::uint32_t kMaxDaemonId = (1u << kDaemonIdBits) - 1;
// Session numbers fill the bits between the daemon id and the sequence.
inline constexpr int kSessionBits = kDaemonIdShift - 32;

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
  // This daemon's id in a bridge of several daemons, 0..kMaxDaemonId. It
  // goes into the high bits of every message id.
  std::uint32_t daemon_id = 0;
  // Payload store: kMemory, or kRedis at store_url (redis://HOST:PORT[/DB]).
  StoreKind store = StoreKind::kMemory;
  std::string store_url;
  // Payloads kept in Redis expire after this, so that a daemon that dies
  // leaves nothing behind for long. A message whose payload outlives it (a
  // transit held longer by a simulator) is counted lost_in_store. Must be
  // above delivery_ttl_ms.
  std::uint64_t store_key_ttl_ms = 3'600'000;
  // The store's address as clients reach it (Welcome.payload_store.url),
  // when it differs from store_url (another host name, a NAT); empty:
  // store_url.
  std::string store_client_url;
  // Payloads by key (docs/protocol.md): with a Redis store, an SDK writes a
  // payload of at least payload_by_key_threshold bytes (0: every payload)
  // to Redis itself and sends only its key. payload_by_key false: Sends by
  // key are refused and SDKs send everything inline.
  bool payload_by_key = true;
  std::uint64_t payload_by_key_threshold = 65536;
  // Federation (docs/federation.md): this daemon joins the bridge of every
  // daemon sharing its Redis store and `run`. Needs store kRedis.
  bool federate = false;
  // Federated: journal in Redis every message that stays on this daemon, so
  // that a daemon killed and restarted delivers it (docs/federation.md,
  // "Durable delivery"). false: such a message and its payload stay in this
  // daemon's memory until it leaves the daemon, and touch Redis only if it
  // does; a kill loses them, as on a daemon that is not federated.
  bool journal = false;
  // The run's name: Redis keys and streams are `trestle:{run}:...`.
  std::string run = "default";
  SimAssignment sim_assignment = SimAssignment::kSystem;
  // How apps and simulators relate virtual time to wall time, advertised in
  // Welcome; in lockstep the daemon is the time coordinator (docs/protocol.md).
  wire::TimeMode time_mode = wire::TIME_MODE_WALLCLOCK;
  // Lockstep: the run's time starts once these apps have joined: a count
  // (lockstep_app_count), or their ids (lockstep_app_ids). 0 and none: at
  // once. An app that joins later starts at the run's bound.
  std::uint32_t lockstep_app_count = 0;
  std::vector<std::string> lockstep_app_ids;
  // Lockstep across daemons (federate; required there): the id of the
  // daemon that coordinates the run's time, the one its simulator attaches
  // to. Unset on one daemon: this daemon. The lockstep_apps of a run are the
  // coordinator's setting.
  std::optional<std::uint32_t> lockstep_coordinator;
  // Lockstep: a warning, at most once per this many seconds, while virtual
  // time has not moved for that long and some app runs, naming who holds it
  // back. 0: never.
  std::uint64_t stall_warn_s = 10;
  std::uint32_t coordinator() const { return lockstep_coordinator.value_or(daemon_id); }
  bool coordinates() const { return coordinator() == daemon_id; }
  // Write one line per message that reached its end (CSV, see
  // docs/protocol.md "Trace"); empty: no trace.
  std::string trace_file;
  std::uint32_t max_frame_bytes = wire::kDefaultMaxFrameBytes;
  // Largest frame accepted before a connection's Hello or Attach succeeded
  // (a Hello needs a few hundred bytes), so that strangers cannot make the
  // daemon buffer max_frame_bytes each.
  std::uint32_t handshake_max_frame_bytes = 4096;
  // A connection that has not completed Hello or Attach this long after it
  // was accepted is closed.
  std::uint64_t handshake_timeout_ms = 5000;
  // Most transits or deliveries in one batch frame (frames are bounded by
  // max_frame_bytes as well).
  std::uint32_t max_batch = 256;
  // Transits waiting per simulator before senders are paused.
  std::uint64_t transit_queue_limit = 65536;
  // Per-app delivery backlog: deliveries (and their payload bytes) waiting
  // for one connected app. An app over either bound for longer than
  // slow_app_grace_ms has its session closed; other apps are not affected.
  std::uint64_t delivery_queue_limit = 65536;
  std::uint64_t delivery_queue_bytes = 64u << 20;
  std::uint64_t slow_app_grace_ms = 10000;
  // Payload bytes waiting for delivery across all apps. Above it the daemon
  // stops reading outcomes from simulators until it falls to 3/4 of it: the
  // only thing that pauses simulators.
  std::uint64_t delivery_memory_budget = 1ull << 30;
  // Destinations that are not connected which one app may name at once
  // (each costs a registry entry until it connects or its messages expire);
  // past it the app's sends to other absent names are refused.
  std::uint64_t max_absent_destinations = 10000;
  // How long deliveries wait for a disconnected (or not yet connected) app
  // before they expire.
  std::uint64_t delivery_ttl_ms = 30000;
  // How long a session whose ctrl connection broke can be resumed.
  std::uint64_t session_linger_ms = 30000;
  // Output bytes queued on one connection above which the daemon stops
  // producing for it (resumes at a quarter of it).
  std::uint64_t output_high_watermark = 8u << 20;
  // Sessions (live or lingering) the daemon holds at most; a Hello beyond
  // it is refused (RESOURCE_EXHAUSTED). At start the daemon raises its
  // open-file limit for this many clients (3 connections each), or warns
  // that it cannot.
  std::uint64_t max_clients = 10000;
  LogLevel log_level = LogLevel::kInfo;
};

}  // namespace trestle::daemon
