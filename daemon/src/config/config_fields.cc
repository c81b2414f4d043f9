#include "config/config_fields.h"

#include <charconv>
#include <cstdlib>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "store/redis_payload_store.h"
#include "trestle/daemon/listen_address.h"
#include "trestle/platform/redis_url.h"

namespace trestle::daemon {
namespace {


absl::Status BadValue(const std::string& key, const std::string& value,
                      const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat(key, ": '", value, "' ", why));
}

// Parses "123", "64KiB", "16MiB", "1GiB" as a byte or item count.
bool ParseCount(const std::string& text, std::uint64_t* out) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr == text.data()) return false;
  const std::string suffix(ptr, end);
  std::uint64_t scale = 1;
  if (suffix == "KiB") scale = 1ull << 10;
  else if (suffix == "MiB") scale = 1ull << 20;
  else if (suffix == "GiB") scale = 1ull << 30;
  else if (!suffix.empty()) return false;
  *out = value * scale;
  return true;
}

template <typename T>
ConfigField CountField(const char* key, const char* help, T DaemonConfig::*member,
                 std::uint64_t min, std::uint64_t max) {
  return {key, help,
          [key, member, min, max](const std::string& v, DaemonConfig* c) {
            std::uint64_t n = 0;
            if (!ParseCount(v, &n)) {
              return BadValue(key, v, "is not a whole number (suffixes KiB, MiB, GiB allowed)");
            }
            if (n < min || n > max) {
              return BadValue(key, v,
                              absl::StrCat("is out of range [", min, ", ", max, "]"));
            }
            c->*member = static_cast<T>(n);
            return absl::OkStatus();
          },
          [member](const DaemonConfig& c) { return std::to_string(c.*member); }};
}

// A setting with named values, parsed into its enum once, at load.
template <typename E>
ConfigField EnumField(const char* key, const char* help, E DaemonConfig::*member,
                      platform::EnumNames<E> names) {
  return {key, absl::StrCat(help, " (", names.Joined(" | "), ")"),
          [key, member, names](const std::string& v, DaemonConfig* c) {
            if (std::optional<E> value = names.Find(v)) {
              c->*member = *value;
              return absl::OkStatus();
            }
            return BadValue(key, v, absl::StrCat("is not one of: ", names.Joined()));
          },
          [member, names](const DaemonConfig& c) { return std::string(names.Name(c.*member)); }};
}

ConfigField TextField(const char* key, const char* help, std::string DaemonConfig::*member) {
  return {key, help,
          [member](const std::string& v, DaemonConfig* c) {
            c->*member = v;
            return absl::OkStatus();
          },
          [member](const DaemonConfig& c) { return c.*member; }};
}

// An on/off setting. A switch (off by default) is a bare flag that turns it
// on; otherwise the flag takes true or false, as YAML does.
ConfigField BoolField(const char* key, const char* help, bool DaemonConfig::*member, bool is_switch) {
  return {key, help,
          [key, member](const std::string& v, DaemonConfig* c) {
            if (v == "true" || v == "yes" || v == "on") {
              c->*member = true;
            } else if (v == "false" || v == "no" || v == "off") {
              c->*member = false;
            } else {
              return BadValue(key, v, "is not true or false");
            }
            return absl::OkStatus();
          },
          [member, is_switch](const DaemonConfig& c) {
            return is_switch ? std::string() : std::string(c.*member ? "true" : "false");
          },
          is_switch};
}
ConfigField SwitchField(const char* key, const char* help, bool DaemonConfig::*member) {
  return BoolField(key, help, member, /*is_switch=*/true);
}

// The run's name, a part of every Redis key: letters, digits, '-', '_', '.'.
ConfigField RunField() {
  return {"run",
          "name of the run: every Redis key and stream is trestle:{RUN}:... (daemons of one "
          "bridge share it)",
          [](const std::string& v, DaemonConfig* c) {
            if (v.empty() || v.size() > 64) return BadValue("run", v, "must be 1 to 64 characters");
            for (char ch : v) {
              if (!absl::ascii_isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_' &&
                  ch != '.') {
                return BadValue("run", v, "may hold only letters, digits, '-', '_' and '.'");
              }
            }
            c->run = v;
            return absl::OkStatus();
          },
          [](const DaemonConfig& c) { return c.run; }};
}

// An optional HOST:PORT (empty turns the service off).
ConfigField AddressField(const char* key, const char* help, std::string DaemonConfig::*member) {
  return {key, help,
          [key, member](const std::string& v, DaemonConfig* c) {
            if (!v.empty()) {
              auto parsed = ParseListenAddress(v);
              if (!parsed.ok()) return BadValue(key, v, std::string(parsed.status().message()));
            }
            c->*member = v;
            return absl::OkStatus();
          },
          [member](const DaemonConfig& c) { return c.*member; }};
}

}  // namespace

const std::vector<ConfigField>& ConfigFields() {
  static const std::vector<ConfigField> fields = {
      {"listen", "TCP listen address HOST:PORT (port 0: any free port)",
       [](const std::string& v, DaemonConfig* c) {
         auto parsed = ParseListenAddress(v);
         if (!parsed.ok()) return BadValue("listen", v, std::string(parsed.status().message()));
         c->listen = v;
         return absl::OkStatus();
       },
       [](const DaemonConfig& c) { return c.listen; }},
      AddressField("admin_listen", "gRPC admin service HOST:PORT (empty: off)",
                   &DaemonConfig::admin_listen),
      AddressField("metrics_listen", "Prometheus /metrics HOST:PORT (empty: off)",
                   &DaemonConfig::metrics_listen),
      TextField("unix_socket", "also listen on this Unix socket path", &DaemonConfig::unix_socket),
      TextField("port_file", "write the bound TCP port to this file", &DaemonConfig::port_file),
      TextField("auth_token", "shared token clients must present (env TRESTLE_TOKEN)",
                &DaemonConfig::auth_token),
      {"store", "payload store: memory, or redis://HOST:PORT[/DB]",
       [](const std::string& v, DaemonConfig* c) {
         if (v == "memory") {
           c->store = StoreKind::kMemory;
           c->store_url.clear();
           return absl::OkStatus();
         }
         if (!platform::ParseRedisUrl(v).ok()) {
           return BadValue("store", v, "is neither memory nor redis://HOST:PORT[/DB]");
         }
         c->store = StoreKind::kRedis;
         c->store_url = v;
         return absl::OkStatus();
       },
       [](const DaemonConfig& c) {
         return c.store == StoreKind::kMemory ? std::string("memory") : c.store_url;
       }},
      CountField("store_key_ttl_ms",
                 "payloads kept in Redis expire after this (above delivery_ttl_ms)",
                 &DaemonConfig::store_key_ttl_ms, 1000, 1ull << 40),
      {"store_client_url",
       "the Redis store's address as clients reach it, redis://HOST:PORT[/DB], for payloads by "
       "key (empty: --store)",
       [](const std::string& v, DaemonConfig* c) {
         if (!v.empty() && !platform::ParseRedisUrl(v).ok()) {
           return BadValue("store_client_url", v, "is not redis://HOST:PORT[/DB]");
         }
         c->store_client_url = v;
         return absl::OkStatus();
       },
       [](const DaemonConfig& c) { return c.store_client_url; }},
      BoolField("payload_by_key",
                "with a Redis store, accept sends by key: SDKs write large payloads to Redis "
                "themselves and send only the key (true | false)",
                &DaemonConfig::payload_by_key, /*is_switch=*/false),
      CountField("payload_by_key_threshold",
                 "payloads of at least this many bytes go by key (0: every payload)",
                 &DaemonConfig::payload_by_key_threshold, 0, 1ull << 40),
      CountField("daemon_id", "this daemon's id in a bridge (high bits of message ids)",
                 &DaemonConfig::daemon_id, 0, kMaxDaemonId),
      SwitchField("federate",
                  "join the bridge of every daemon sharing this Redis store and run (needs "
                  "--store redis://...; each daemon its own --daemon-id)",
                  &DaemonConfig::federate),
      BoolField("journal",
                "federated: keep every message that stays on this daemon in Redis too, so a "
                "killed daemon delivers it after its restart; costs Redis work per message "
                "(true | false)",
                &DaemonConfig::journal, /*is_switch=*/false),
      RunField(),
      EnumField("sim_assignment", "one simulator for all apps, or one per app node",
                &DaemonConfig::sim_assignment, SimAssignmentNames()),
      EnumField("time_mode", "time mode of the run, advertised to clients",
                &DaemonConfig::time_mode, wire::kTimeModeNames),
      {"lockstep_apps",
       "lockstep: the run's time starts once this many apps, or these ids (a,b,c), have joined",
       [](const std::string& v, DaemonConfig* c) {
         c->lockstep_app_count = 0;
         c->lockstep_app_ids.clear();
         if (v.empty()) return absl::OkStatus();
         std::uint64_t n = 0;
         if (ParseCount(v, &n)) {
           if (n > 1'000'000) return BadValue("lockstep_apps", v, "is more than 1000000 apps");
           c->lockstep_app_count = static_cast<std::uint32_t>(n);
           return absl::OkStatus();
         }
         for (absl::string_view id : absl::StrSplit(v, ',')) {
           if (id.empty() || id.size() > wire::kMaxClientIdBytes) {
             return BadValue("lockstep_apps", v,
                             "is neither a count nor a list of 1-255 byte client ids a,b,c");
           }
           c->lockstep_app_ids.emplace_back(id);
         }
         return absl::OkStatus();
       },
       [](const DaemonConfig& c) {
         if (!c.lockstep_app_ids.empty()) return std::string(absl::StrJoin(c.lockstep_app_ids, ","));
         return c.lockstep_app_count == 0 ? std::string() : std::to_string(c.lockstep_app_count);
       }},
      {"lockstep_coordinator",
       "lockstep across daemons (federate, required there on every daemon): the id of the "
       "daemon that coordinates the run's time, the one its simulator attaches to",
       [](const std::string& v, DaemonConfig* c) {
         c->lockstep_coordinator.reset();
         if (v.empty()) return absl::OkStatus();
         std::uint64_t n = 0;
         if (!ParseCount(v, &n) || n > kMaxDaemonId) {
           return BadValue("lockstep_coordinator", v,
                           absl::StrCat("is not a daemon id (0..", kMaxDaemonId, ")"));
         }
         c->lockstep_coordinator = static_cast<std::uint32_t>(n);
         return absl::OkStatus();
       },
       [](const DaemonConfig& c) {
         return c.lockstep_coordinator ? std::to_string(*c.lockstep_coordinator) : std::string();
       }},
      CountField("stall_warn",
                 "lockstep: warn, at most once per this many seconds, while virtual time has not "
                 "moved for that long and some app runs, naming who holds it back (0: never)",
                 &DaemonConfig::stall_warn_s, 0, 86'400),
      TextField("trace", "write one CSV line per finished message to this file",
                &DaemonConfig::trace_file),
      CountField("max_frame_bytes", "largest frame body accepted or sent",
                 &DaemonConfig::max_frame_bytes, wire::kMinMaxFrameBytes, 1ull << 30),
      CountField("handshake_max_frame_bytes", "largest frame accepted before Hello or Attach",
                 &DaemonConfig::handshake_max_frame_bytes, wire::kMinMaxFrameBytes, 1ull << 20),
      CountField("handshake_timeout_ms",
                 "close a connection that has not said Hello or Attach within this",
                 &DaemonConfig::handshake_timeout_ms, 1, 1ull << 32),
      CountField("max_batch", "most transits or deliveries per batch frame",
                 &DaemonConfig::max_batch, 1, 65536),
      CountField("transit_queue_limit", "transits queued per simulator before senders pause",
                 &DaemonConfig::transit_queue_limit, 1, 1ull << 32),
      CountField("delivery_queue_limit",
                 "deliveries waiting per connected app before it counts as slow",
                 &DaemonConfig::delivery_queue_limit, 1, 1ull << 32),
      CountField("delivery_queue_bytes",
                 "payload bytes waiting per connected app before it counts as slow",
                 &DaemonConfig::delivery_queue_bytes, 1, 1ull << 40),
      CountField("slow_app_grace_ms",
                 "how long an app may stay over its delivery queue bounds before its session "
                 "is closed",
                 &DaemonConfig::slow_app_grace_ms, 0, 1ull << 40),
      CountField("delivery_memory_budget",
                 "payload bytes waiting for delivery, all apps together, before simulators "
                 "pause",
                 &DaemonConfig::delivery_memory_budget, 1, 1ull << 44),
      CountField("max_absent_destinations",
                 "destinations that are not connected one app may name at once",
                 &DaemonConfig::max_absent_destinations, 1, 1ull << 32),
      CountField("delivery_ttl_ms", "how long deliveries wait for an absent app",
                 &DaemonConfig::delivery_ttl_ms, 1, 1ull << 40),
      CountField("session_linger_ms", "how long a broken session can be resumed",
                 &DaemonConfig::session_linger_ms, 0, 1ull << 40),
      CountField("output_high_watermark", "queued output bytes per connection before pausing",
                 &DaemonConfig::output_high_watermark, 4096, 1ull << 32),
      CountField("max_clients", "most sessions at once; the open-file limit is raised for them",
                 &DaemonConfig::max_clients, 1, 1ull << 24),
      EnumField("log_level", "log level", &DaemonConfig::log_level, LogLevelNames()),
  };
  return fields;
}

}  // namespace trestle::daemon
