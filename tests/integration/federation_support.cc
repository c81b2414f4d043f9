#include "federation_support.h"

#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include "absl/strings/str_cat.h"
#include "app_fleet.h"
#include "command_output.h"

namespace trestle::testing {

std::vector<std::string> Federated(const RedisProcess& redis, int daemon_id,
                                   const std::string& run,
                                   const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"--store", redis.url(2), "--federate", "--run", run,
                                   "--daemon-id", std::to_string(daemon_id)};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TwoDaemonsOneGhost::TwoDaemonsOneGhost(const std::string& run, bool append_only,
                                       const std::vector<std::string>& extra)
    : redis(append_only),
      a(Federated(redis, 1, run, extra)),
      b(Federated(redis, 2, run, extra)),
      ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", a.address()}) {}

ReceiversBridge::ReceiversBridge(const std::string& run)
    : run(run),
      senders(Federated(redis, 2, run)),
      ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", senders.address()}),
      receivers(std::make_unique<DaemonProcess>(Federated(redis, 1, run))) {}

void ReceiversBridge::Restart(const std::vector<std::string>& extra) {
  receivers.reset();
  receivers = std::make_unique<DaemonProcess>(Federated(redis, 1, run, extra));
}

void ExpectBalancedWithPeers(const wire::Counters& t, const std::string& who) {
  EXPECT_EQ(t.accepted() + t.from_peers() + t.recovered(),
            t.delivered() + t.dropped() + t.expired() + t.lost_in_store() + t.forwarded() +
                t.in_flight())
      << who << ": " << t.ShortDebugString();
}

wire::Counters SettledTotals(AppClient& app) { return SettledStats(app).total(); }

std::string StatusTable(const std::string& admin_address) {
  return RunCommand(absl::StrCat(TRESTLE_CLI_PATH, " status --admin ", admin_address, " 2>&1"))
      .text;
}

std::string Field(const std::string& table, const std::string& name) {
  std::size_t at = 0;
  while ((at = table.find(name, at)) != std::string::npos) {
    const bool line_start = at == 0 || table[at - 1] == '\n';
    const std::size_t end = table.find('\n', at);
    const std::string line = table.substr(at, end - at);
    at += name.size();
    if (!line_start || line.size() <= name.size() || line[name.size()] != ' ') continue;
    const std::size_t value = line.find_first_not_of(' ', name.size());
    return value == std::string::npos ? "" : line.substr(value);
  }
  return "";
}

long long RedisInteger(const RedisProcess& redis, const std::string& command) {
  redisContext* c = redisConnect("127.0.0.1", redis.port());
  freeReplyObject(redisCommand(c, "SELECT 2"));
  auto* r = static_cast<redisReply*>(redisCommand(c, command.c_str()));
  const long long n = r != nullptr && r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
  freeReplyObject(r);
  redisFree(c);
  return n;
}

long long RedisPendingEntries(const RedisProcess& redis, const std::string& stream) {
  redisContext* c = redisConnect("127.0.0.1", redis.port());
  freeReplyObject(redisCommand(c, "SELECT 2"));
  auto* r = static_cast<redisReply*>(redisCommand(c, "XPENDING %s trestled", stream.c_str()));
  const long long n = r != nullptr && r->type == REDIS_REPLY_ARRAY && r->elements > 0 &&
                              r->element[0]->type == REDIS_REPLY_INTEGER
                          ? r->element[0]->integer
                          : -1;
  freeReplyObject(r);
  redisFree(c);
  return n;
}

std::uint64_t HeldBy(const wire::StatsReply& stats, const std::string& prefix) {
  std::uint64_t held = 0;
  for (const wire::ClientStats& c : stats.clients()) {
    if (c.client_id().rfind(prefix, 0) == 0) held += c.held();
  }
  return held;
}

std::vector<std::string> RunKeys(const RedisProcess& redis, const std::string& run) {
  redisContext* c = redisConnect("127.0.0.1", redis.port());
  freeReplyObject(redisCommand(c, "SELECT 2"));
  auto* r = static_cast<redisReply*>(redisCommand(c, "KEYS trestle:%s:*", run.c_str()));
  std::vector<std::string> keys;
  for (std::size_t i = 0; r != nullptr && i < r->elements; ++i) {
    keys.emplace_back(r->element[i]->str, r->element[i]->len);
  }
  freeReplyObject(r);
  redisFree(c);
  return keys;
}

long long RedisCalls(const RedisProcess& redis, const std::string& command) {
  redisContext* c = redisConnect("127.0.0.1", redis.port());
  auto* r = static_cast<redisReply*>(redisCommand(c, "INFO commandstats"));
  long long calls = 0;
  if (r != nullptr && r->type == REDIS_REPLY_STRING) {
    const std::string info(r->str, r->len);
    const std::string key = "cmdstat_" + command + ":calls=";
    if (std::size_t at = info.find(key); at != std::string::npos) {
      calls = std::stoll(info.substr(at + key.size()));
    }
  }
  freeReplyObject(r);
  redisFree(c);
  return calls;
}

void CountPayloads(std::vector<std::unique_ptr<AppClient>>& apps,
                   std::map<std::string, int>& seen) {
  for (auto& app : apps) app->OnMessage([&seen](Message&& m) { seen[m.payload]++; });
}

int Total(const std::map<std::string, int>& seen) {
  int total = 0;
  for (const auto& [payload, n] : seen) total += n;
  return total;
}

void ExpectEachOnce(const std::map<std::string, int>& seen) {
  for (const auto& [payload, n] : seen) {
    EXPECT_EQ(n, 1) << "payload " << payload.substr(0, payload.find('\0')) << " arrived " << n
                    << " times";
  }
}

}  // namespace trestle::testing
