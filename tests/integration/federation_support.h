// What the federation suites (federation_test, federation_faults_test) share:
// the arguments of a federated trestled, the usual bridge of two daemons and
// a ghost, the per-daemon accounting identity with peers, a daemon's
// `trestle status` table and its rows, integer answers of the test's private
// redis-server, and counts of received payloads.
//
// Everything runs on the test's thread and blocks (a Redis connection opened
// and closed per call, a `trestle` process per status); failures are
// GoogleTest failures, never exceptions. Redis helpers use db 2, the db
// Federated() gives the daemons.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "daemon_process.h"
#include "trestle.pb.h"
#include "trestle/app_client.h"

namespace trestle::testing {

// trestled's arguments for daemon `daemon_id` of run `run`, its store (and
// the bridge's) db 2 of `redis`, then `extra`.
std::vector<std::string> Federated(const RedisProcess& redis, int daemon_id,
                                   const std::string& run,
                                   const std::vector<std::string>& extra = {});

// A private redis-server (append-only if asked: its data survives
// Restart()), federated daemons 1 (`a`) and 2 (`b`) of run `run`, both
// with `extra` arguments too, and a ghost simulator attached to `a`; all
// stopped when destroyed, the ghost first. Tests name the parts with
// `auto& [redis, a, b, ghost] = bridge;`.
struct TwoDaemonsOneGhost {
  explicit TwoDaemonsOneGhost(const std::string& run, bool append_only = false,
                              const std::vector<std::string>& extra = {});
  RedisProcess redis;
  DaemonProcess a;
  DaemonProcess b;
  ChildProcess ghost;
};

// A private redis-server, daemon 2 (`senders`) with a ghost simulator, and
// daemon 1 (`receivers`), which a test may kill and start again
// (Restart(extra)); all of run `run`, stopped when destroyed.
struct ReceiversBridge {
  explicit ReceiversBridge(const std::string& run);
  void Restart(const std::vector<std::string>& extra = {});
  const std::string run;
  RedisProcess redis;
  DaemonProcess senders;
  ChildProcess ghost;
  std::unique_ptr<DaemonProcess> receivers;
};

// A federated daemon's identity (tests/support/counters_check.h has the
// single daemon's): accepted + from_peers + recovered = delivered + dropped
// + expired + lost_in_store + forwarded + in_flight. `who` names the daemon
// in the failure.
void ExpectBalancedWithPeers(const wire::Counters& t, const std::string& who);

// The daemon's counters (through `app`) once nothing is in flight.
wire::Counters SettledTotals(AppClient& app);

// `trestle status` of the daemon whose admin service is at
// `admin_address`, stderr included.
std::string StatusTable(const std::string& admin_address);

// The value of row `name` in a `trestle status` table ("" if absent).
std::string Field(const std::string& table, const std::string& name);

// `command`'s integer reply on db 2 of `redis` (-1 on an error or another
// kind of reply).
long long RedisInteger(const RedisProcess& redis, const std::string& command);

// How many entries of stream `stream` (db 2 of `redis`) the consumer group
// `trestled` has read and not acknowledged (XPENDING; -1 on an error).
long long RedisPendingEntries(const RedisProcess& redis, const std::string& stream);

// The sum of `held` over the clients of `stats` whose id starts with
// `prefix` (for apps: deliveries written and not acknowledged).
std::uint64_t HeldBy(const wire::StatsReply& stats, const std::string& prefix);

// Keys of run `run` in db 2 of `redis` (KEYS: fine on a test's private
// server).
std::vector<std::string> RunKeys(const RedisProcess& redis, const std::string& run);

// How many times `redis` has run `command` (INFO commandstats; lower case,
// e.g. "getdel"), 0 if never.
long long RedisCalls(const RedisProcess& redis, const std::string& command);

// Deliveries counted by payload: from now on every app of `apps` adds one to
// `seen[payload]` per message (`seen` must outlive their callbacks); the sum
// of the counts; and a failure for every payload that arrived more than
// once (named up to its first NUL).
void CountPayloads(std::vector<std::unique_ptr<AppClient>>& apps, std::map<std::string, int>& seen);
int Total(const std::map<std::string, int>& seen);
void ExpectEachOnce(const std::map<std::string, int>& seen);

}  // namespace trestle::testing
