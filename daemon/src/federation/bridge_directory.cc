#include "federation/bridge_directory.h"

#include <hiredis/hiredis.h>

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "store/decimal_field.h"

namespace trestle::daemon {
namespace {

// KEYS[1] the hash, KEYS[2] this daemon's session counter; ARGV: id, this
// daemon, the heartbeat key prefix. Returns {holder, session number}: this
// daemon and a new number unless an alive other daemon holds the id.
constexpr std::string_view kClaimScript = R"lua(
local holder = redis.call('HGET', KEYS[1], ARGV[1])
if holder and holder ~= ARGV[2] and redis.call('EXISTS', ARGV[3] .. holder) == 1 then
  return {tonumber(holder), 0}
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return {tonumber(ARGV[2]), redis.call('INCR', KEYS[2])}
)lua";

// KEYS[1] the hash; ARGV: id, this daemon.
constexpr std::string_view kReleaseScript = R"lua(
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0
)lua";

// KEYS[1] apps hash; ARGV: id, the heartbeat key prefix. The holder if alive.
constexpr std::string_view kLocateScript = R"lua(
local holder = redis.call('HGET', KEYS[1], ARGV[1])
if holder and redis.call('EXISTS', ARGV[2] .. holder) == 1 then return tonumber(holder) end
return false
)lua";

// ARGV: prefix, this daemon, alive_ms, ttl_ms, then counter name/value
// pairs. Returns {{daemon, {name, value, ...}}..., {sim daemons...}}.
constexpr std::string_view kHeartbeatScript = R"lua(
local p, me, alive, ttl = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
redis.call('SET', p .. 'alive:' .. me, '1', 'PX', alive)
redis.call('SADD', p .. 'daemons', me)
local ck = p .. 'counters:' .. me
redis.call('HSET', ck, unpack(ARGV, 5))
for _, k in ipairs({'daemons', 'apps', 'sims', 'in:' .. me, 'sessions:' .. me, 'journal:' .. me}) do
  redis.call('PEXPIRE', p .. k, ttl)
end
redis.call('PEXPIRE', ck, ttl)
local totals = {}
for _, d in ipairs(redis.call('SMEMBERS', p .. 'daemons')) do
  local values = redis.call('HGETALL', p .. 'counters:' .. d)
  if #values > 0 then
    table.insert(totals, d)
    table.insert(totals, values)
  end
end
local alive = {}
for _, d in ipairs(redis.call('SMEMBERS', p .. 'daemons')) do
  if redis.call('EXISTS', p .. 'alive:' .. d) == 1 then table.insert(alive, d) end
end
local sims, seen = {}, {}
for _, d in ipairs(redis.call('HVALS', p .. 'sims')) do
  if not seen[d] and d ~= me and redis.call('EXISTS', p .. 'alive:' .. d) == 1 then
    seen[d] = true
    table.insert(sims, d)
  end
end
return {totals, sims, alive}
)lua";

struct CounterName {
  std::string_view name;
  std::uint64_t MessageCounters::*member;
};
constexpr CounterName kCounterNames[] = {
    {"accepted", &MessageCounters::accepted},   {"delivered", &MessageCounters::delivered},
    {"dropped", &MessageCounters::dropped},     {"expired", &MessageCounters::expired},
    {"lost_in_store", &MessageCounters::lost_in_store},
    {"in_flight", &MessageCounters::in_flight}, {"received", &MessageCounters::received},
    {"rejected", &MessageCounters::rejected},   {"from_peers", &MessageCounters::from_peers},
    {"forwarded", &MessageCounters::forwarded}, {"recovered", &MessageCounters::recovered},
};

std::string_view Text(const redisReply* r) { return {r->str, r->len}; }

// A reply's daemon id: an integer, or its decimal text.
bool DaemonOf(const redisReply* r, std::uint32_t* out) {
  std::uint64_t n = 0;
  if (r->type == REDIS_REPLY_INTEGER) {
    n = static_cast<std::uint64_t>(r->integer);
  } else if (r->type != REDIS_REPLY_STRING || !ParseDecimal(Text(r), &n)) {
    return false;
  }
  *out = static_cast<std::uint32_t>(n);
  return true;
}


}  // namespace

BridgeDirectory::BridgeDirectory(RedisConnection& redis, Options options)
    : redis_(redis),
      options_(std::move(options)),
      prefix_(absl::StrCat("trestle:", options_.run, ":")),
      me_(std::to_string(options_.daemon_id)),
      sessions_key_(absl::StrCat(prefix_, "sessions:", options_.daemon_id)),
      apps_key_(prefix_ + "apps"),
      sims_key_(prefix_ + "sims"),
      alive_prefix_(prefix_ + "alive:"),
      alive_text_(std::to_string(options_.alive_ms)),
      ttl_text_(std::to_string(options_.key_ttl_ms)) {}

void BridgeDirectory::Claim(wire::Role role, std::string_view id, ClaimCallback done) {
  const std::string_view argv[] = {"EVAL", kClaimScript, "2", HashOf(role), sessions_key_,
                                   id,     me_,          alive_prefix_};
  redis_.Send(argv, [this, done = std::move(done)](const absl::Status& status,
                                                   const redisReply* reply) {
    if (!status.ok()) return done(status);
    Claimed claimed;
    if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2 ||
        !DaemonOf(reply->element[0], &claimed.holder) ||
        reply->element[1]->type != REDIS_REPLY_INTEGER) {
      return done(redis_.UnavailableError(absl::StrCat(
          "claiming a client id: ",
          reply->type == REDIS_REPLY_ERROR ? std::string(Text(reply)) : "unexpected reply")));
    }
    claimed.session_number = static_cast<std::uint64_t>(reply->element[1]->integer);
    done(claimed);
  });
}

void BridgeDirectory::Release(wire::Role role, std::string_view id) {
  const std::string_view argv[] = {"EVAL", kReleaseScript, "1", HashOf(role), id, me_};
  redis_.Send(argv, [](const absl::Status&, const redisReply*) {});
}

void BridgeDirectory::Locate(std::string_view app_id, LocateCallback done) {
  const std::string_view argv[] = {"EVAL", kLocateScript, "1", apps_key_, app_id, alive_prefix_};
  redis_.Send(argv, [this, done = std::move(done)](const absl::Status& status,
                                                   const redisReply* reply) {
    if (!status.ok()) return done(status);
    if (reply->type == REDIS_REPLY_NIL) return done(std::optional<std::uint32_t>());
    std::uint32_t holder = 0;
    if (!DaemonOf(reply, &holder)) {
      return done(redis_.UnavailableError(absl::StrCat(
          "locating a client: ",
          reply->type == REDIS_REPLY_ERROR ? std::string(Text(reply)) : "unexpected reply")));
    }
    done(std::optional<std::uint32_t>(holder));
  });
}

void BridgeDirectory::Exists(std::string_view key, ExistsCallback done) {
  const std::string_view argv[] = {"EXISTS", key};
  redis_.Send(argv, [this, done = std::move(done)](const absl::Status& status,
                                                   const redisReply* reply) {
    if (!status.ok()) return done(status);
    if (reply->type != REDIS_REPLY_INTEGER) {
      return done(redis_.UnavailableError("EXISTS: unexpected reply"));
    }
    done(reply->integer == 1);
  });
}

void BridgeDirectory::Heartbeat(const MessageCounters& mine, std::uint64_t now_ms) {
  if (heartbeat_pending_ || now_ms < next_heartbeat_ms_ || !redis_.available()) return;
  next_heartbeat_ms_ = now_ms + options_.interval_ms;
  std::vector<std::string> values;
  values.reserve(std::size(kCounterNames));
  for (const CounterName& c : kCounterNames) values.push_back(std::to_string(mine.*c.member));
  std::vector<std::string_view> argv = {"EVAL", kHeartbeatScript, "0", prefix_,
                                        me_,    alive_text_,      ttl_text_};
  for (std::size_t i = 0; i < std::size(kCounterNames); ++i) {
    argv.push_back(kCounterNames[i].name);
    argv.push_back(values[i]);
  }
  heartbeat_pending_ = true;
  redis_.Send(argv, [this, now_ms](const absl::Status& status, const redisReply* reply) {
    heartbeat_pending_ = false;
    if (status.ok()) HeartbeatReplied(reply, now_ms);
  });
}

void BridgeDirectory::HeartbeatReplied(const redisReply* reply, std::uint64_t now_ms) {
  if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 3) return;
  const redisReply* totals = reply->element[0];
  const redisReply* sims = reply->element[1];
  const redisReply* alive = reply->element[2];
  Totals t;
  t.at_ms = now_ms;
  for (std::size_t i = 0; i + 1 < totals->elements; i += 2) {
    std::uint32_t daemon = 0;
    const redisReply* values = totals->element[i + 1];
    if (!DaemonOf(totals->element[i], &daemon) || values->type != REDIS_REPLY_ARRAY) continue;
    t.daemons.push_back(daemon);
    for (std::size_t k = 0; k + 1 < values->elements; k += 2) {
      std::uint64_t n = 0;
      if (!ParseDecimal(Text(values->element[k + 1]), &n)) continue;
      for (const CounterName& c : kCounterNames) {
        if (Text(values->element[k]) == c.name) t.counters.*c.member += n;
      }
    }
  }
  std::sort(t.daemons.begin(), t.daemons.end());
  totals_ = std::move(t);
  sim_daemons_.clear();
  for (std::size_t i = 0; i < sims->elements; ++i) {
    std::uint32_t daemon = 0;
    if (DaemonOf(sims->element[i], &daemon)) sim_daemons_.push_back(daemon);
  }
  std::sort(sim_daemons_.begin(), sim_daemons_.end());
  alive_daemons_.clear();
  for (std::size_t i = 0; i < alive->elements; ++i) {
    std::uint32_t daemon = 0;
    if (DaemonOf(alive->element[i], &daemon)) alive_daemons_.push_back(daemon);
  }
  std::sort(alive_daemons_.begin(), alive_daemons_.end());
}

}  // namespace trestle::daemon
