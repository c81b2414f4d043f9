// BridgeDirectory: what the daemons of a federated bridge know of each other,
// kept in their shared Redis (docs/federation.md). Keys, all under
// `trestle:{run}:`:
//
//   apps, sims        hashes: client id -> the daemon it is attached to
//   alive:{d}         daemon d's heartbeat (expires after 3 heartbeats)
//   daemons           set of the daemons that published counters
//   counters:{d}      hash: daemon d's MessageCounters totals
//   sessions:{d}      daemon d's session counter (see Claim)
//   journal:{d}       daemon d's journal (MessageJournal)
//
// Client ids are unique across the bridge: Claim gives an id to this daemon
// unless another daemon that is alive holds it (its heartbeat key exists),
// in one Lua script, so two daemons never both win. A daemon that died
// without releasing its ids loses them once its heartbeat expires.
//
// Heartbeat() (once a second, from the daemon's housekeeping) refreshes this
// daemon's heartbeat and counters, sets the TTL of the run's keys (key_ttl_ms,
// so that a finished run leaves nothing behind), and reads back which daemons
// have a simulator and the bridge's summed counters, in one script.
//
// Errors: kUnavailable from the connection (Redis unreachable), or naming
// the reply Redis gave. Loop thread only; the connection must outlive it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "messages/message_counters.h"
#include "store/redis_connection.h"
#include "trestle.pb.h"

namespace trestle::daemon {

class BridgeDirectory {
 public:
  struct Options {
    std::string run = "default";
    std::uint32_t daemon_id = 0;
    // TTL of the run's keys, refreshed at every heartbeat.
    std::uint64_t key_ttl_ms = 3'600'000;
    // Heartbeats come at most this often (Heartbeat calls in between do
    // nothing); a daemon counts as alive for alive_ms after its last one.
    std::uint64_t interval_ms = 500;
    std::uint64_t alive_ms = 3'000;
  };
  // The bridge's counters, as of the last heartbeat's answer.
  struct Totals {
    std::vector<std::uint32_t> daemons;  // whose counters are summed, ascending
    MessageCounters counters;
    std::uint64_t at_ms = 0;             // loop time of the answer; 0: none yet
  };

  BridgeDirectory(RedisConnection& redis, Options options);

  // The holder of `id` once claimed: this daemon's id if the claim succeeded,
  // another's if an alive daemon holds it. A successful claim also counts
  // this daemon's sessions in Redis and returns the count: the session
  // number to use, so that a restarted daemon never reuses the ids of
  // messages its earlier life left in the bridge (docs/federation.md).
  struct Claimed {
    std::uint32_t holder = 0;
    std::uint64_t session_number = 0;  // 0 when another daemon holds the id
  };
  using ClaimCallback = std::function<void(const absl::StatusOr<Claimed>& claimed)>;
  void Claim(wire::Role role, std::string_view id, ClaimCallback done);
  // Gives `id` up if this daemon holds it (fire and forget).
  void Release(wire::Role role, std::string_view id);
  // The daemon app `id` is attached to, if any daemon that is alive holds it.
  using LocateCallback =
      std::function<void(const absl::StatusOr<std::optional<std::uint32_t>>& holder)>;
  void Locate(std::string_view app_id, LocateCallback done);

  // Whether `key` exists (a payload, by BridgePayloadPrefix).
  using ExistsCallback = std::function<void(const absl::StatusOr<bool>& exists)>;
  void Exists(std::string_view key, ExistsCallback done);

  // Publishes `mine` and refreshes what the accessors below return; `now_ms`
  // is the loop time.
  void Heartbeat(const MessageCounters& mine, std::uint64_t now_ms);

  // Alive daemons other than this one that have a simulator, ascending (as of
  // the last heartbeat).
  const std::vector<std::uint32_t>& sim_daemons() const { return sim_daemons_; }
  // Daemons whose heartbeat has not expired, this one included, ascending
  // (as of the last heartbeat, sent at totals().at_ms).
  const std::vector<std::uint32_t>& alive_daemons() const { return alive_daemons_; }
  const Totals& totals() const { return totals_; }
  // Whether the connection is up (calls fail at once otherwise).
  bool available() const { return redis_.available(); }
  const std::string& run() const { return options_.run; }
  std::uint32_t daemon_id() const { return options_.daemon_id; }
  // "trestle:{run}:".
  const std::string& prefix() const { return prefix_; }

 private:
  void HeartbeatReplied(const redisReply* reply, std::uint64_t now_ms);
  const std::string& HashOf(wire::Role role) const {
    return role == wire::ROLE_SIM ? sims_key_ : apps_key_;
  }

  RedisConnection& redis_;
  const Options options_;
  const std::string prefix_;
  const std::string me_;          // daemon id as text
  const std::string sessions_key_;  // trestle:{run}:sessions:{d}
  const std::string apps_key_;      // trestle:{run}:apps
  const std::string sims_key_;      // trestle:{run}:sims
  const std::string alive_prefix_;  // trestle:{run}:alive:
  const std::string alive_text_;  // alive_ms as text
  const std::string ttl_text_;    // key_ttl_ms as text
  std::vector<std::uint32_t> sim_daemons_;
  std::vector<std::uint32_t> alive_daemons_;
  Totals totals_;
  bool heartbeat_pending_ = false;
  std::uint64_t next_heartbeat_ms_ = 0;
};

}  // namespace trestle::daemon
