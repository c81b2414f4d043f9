#include "store/redis_payload_store.h"

#include <hiredis/hiredis.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>

#include "absl/strings/str_cat.h"

namespace trestle::daemon {

namespace {

std::string ReplyText(const redisReply* reply) { return std::string(reply->str, reply->len); }

RedisConnection::Options ConnectionOptions(const RedisPayloadStore::Options& o) {
  return {.connect_timeout_ms = o.connect_timeout_ms,
          .reply_timeout_ms = o.reply_timeout_ms,
          .reconnect_min_delay_ms = o.reconnect_min_delay_ms,
          .reconnect_max_delay_ms = o.reconnect_max_delay_ms};
}

}  // namespace

const std::string& ProcessKeyPrefix() {
  static const std::string prefix = [] {
    std::random_device rd;
    char text[32];
    std::snprintf(text, sizeof text, "trestle:%08x%08x:", rd(), rd());
    return std::string(text);
  }();
  return prefix;
}

std::string BridgePayloadPrefix(std::string_view run) {
  return "trestle:" + std::string(run) + ":p:";
}

std::string PayloadKeyPrefix(const DaemonConfig& config) {
  return config.federate ? BridgePayloadPrefix(config.run) : ProcessKeyPrefix();
}

// One Put's SET, until its answer.
struct RedisPayloadStore::PutRequest final : RedisConnection::ReplyHandler {
  PutRequest(RedisPayloadStore* store, PutCallback done) : store(store), done(std::move(done)) {}
  void OnRedisReply(const absl::Status& status, const redisReply* reply) override {
    std::unique_ptr<PutRequest> self(this);
    if (!status.ok()) {
      done(status);
      return;
    }
    if (reply->type == REDIS_REPLY_ERROR) {
      done(store->connection_.UnavailableError(absl::StrCat("SET: ", ReplyText(reply))));
      return;
    }
    store->size_++;
    done(absl::OkStatus());
  }

  RedisPayloadStore* store;
  PutCallback done;
};

// One Adopt's STRLEN, until its answer.
struct RedisPayloadStore::AdoptRequest final : RedisConnection::ReplyHandler {
  AdoptRequest(RedisPayloadStore* store, PutCallback done, std::uint64_t id, std::uint64_t size)
      : store(store), done(std::move(done)), id(id), size(size) {}
  void OnRedisReply(const absl::Status& status, const redisReply* reply) override {
    std::unique_ptr<AdoptRequest> self(this);
    if (!status.ok()) {
      done(status);
      return;
    }
    if (reply->type != REDIS_REPLY_INTEGER) {
      done(store->connection_.UnavailableError(absl::StrCat(
          "STRLEN: ", reply->type == REDIS_REPLY_ERROR ? ReplyText(reply) : "unexpected reply")));
      return;
    }
    const std::uint64_t found = reply->integer < 0 ? 0 : static_cast<std::uint64_t>(reply->integer);
    if (found != size) {
      char key[kKeyCapacity];
      const std::string name(key, store->FormatKey(id, key));
      const std::string url(store->name());
      // STRLEN answers 0 for a key that does not exist.
      done(found == 0 ? absl::NotFoundError(absl::StrCat(
                            "payload key '", name, "' is not in ", url, " (Send.by_key "
                            "announced ", size, " bytes): write it before the Send, under "
                            "Welcome.payload_store.key_prefix + the message id"))
                      : absl::InvalidArgumentError(absl::StrCat(
                            "payload key '", name, "' in ", url, " holds ", found,
                            " bytes, but Send.size announced ", size)));
      return;
    }
    store->size_++;
    done(absl::OkStatus());
  }

  RedisPayloadStore* store;
  PutCallback done;
  std::uint64_t id;
  std::uint64_t size;
};

// One TakeBatch's MGET, until its answer.
struct RedisPayloadStore::TakeRequest final : RedisConnection::ReplyHandler {
  TakeRequest(RedisPayloadStore* store, TakeCallback done, std::span<const std::uint64_t> ids)
      : store(store), done(std::move(done)), ids(ids.begin(), ids.end()) {}
  void OnRedisReply(const absl::Status& status, const redisReply* reply) override {
    std::unique_ptr<TakeRequest> self(this);
    store->TakeReplied(*this, status, reply);
  }

  RedisPayloadStore* store;
  TakeCallback done;
  std::vector<std::uint64_t> ids;
};

RedisPayloadStore::RedisPayloadStore(uv_loop_t* loop, std::string url, Options options)
    : options_(options),
      ttl_text_(std::to_string(options.key_ttl_ms)),
      connection_(loop, "store", std::move(url), ConnectionOptions(options)) {
  key_prefix_ = (options_.key_prefix.empty() ? ProcessKeyPrefix() : options_.key_prefix)
                    .substr(0, kKeyCapacity - 24);
}

RedisPayloadStore::~RedisPayloadStore() { Close(); }

std::size_t RedisPayloadStore::FormatKey(std::uint64_t id, char* out) const {
  std::memcpy(out, key_prefix_.data(), key_prefix_.size());
  char* end = std::to_chars(out + key_prefix_.size(), out + kKeyCapacity, id).ptr;
  return static_cast<std::size_t>(end - out);
}

void RedisPayloadStore::FormatArgv(std::string_view command,
                                   std::span<const std::uint64_t> ids) {
  key_text_.resize(ids.size() * kKeyCapacity);
  argv_.resize(ids.size() + 1);
  argv_[0] = command;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    char* key = key_text_.data() + i * kKeyCapacity;
    argv_[i + 1] = std::string_view(key, FormatKey(ids[i], key));
  }
}

void RedisPayloadStore::Put(std::uint64_t id, std::string&& payload, PutCallback done) {
  char key[kKeyCapacity];
  const std::string_view argv[] = {"SET", {key, FormatKey(id, key)}, payload, "PX", ttl_text_};
  const std::size_t argc = options_.key_ttl_ms > 0 ? 5 : 3;
  // While the connection is down, the request completes (and goes) at once.
  connection_.Send(std::span(argv, argc), new PutRequest(this, std::move(done)));
}

void RedisPayloadStore::Adopt(std::uint64_t id, std::uint64_t size, PutCallback done) {
  char key[kKeyCapacity];
  const std::string_view argv[] = {"STRLEN", {key, FormatKey(id, key)}};
  connection_.Send(argv, new AdoptRequest(this, std::move(done), id, size));
}

void RedisPayloadStore::TakeBatch(std::span<const std::uint64_t> ids, TakeCallback done) {
  if (ids.empty() || !connection_.available()) {
    done(connection_.status(), {}, {});
    return;
  }
  FormatArgv("MGET", ids);
  connection_.Send(argv_, new TakeRequest(this, std::move(done), ids));
}

void RedisPayloadStore::TakeReplied(TakeRequest& request, const absl::Status& status,
                                    const redisReply* reply) {
  const std::size_t n = request.ids.size();
  if (!status.ok()) {
    request.done(status, {}, {});
    return;
  }
  if (reply->type != REDIS_REPLY_ARRAY || reply->elements != n) {
    request.done(connection_.UnavailableError(absl::StrCat(
                     "MGET: ", reply->type == REDIS_REPLY_ERROR ? ReplyText(reply)
                                                                : "unexpected reply")),
                 {}, {});
    return;
  }
  std::vector<std::string> payloads(n);
  const bool keep = options_.keep_taken;
  std::vector<TakeResult> results(n, keep ? TakeResult::kKept : TakeResult::kTaken);
  std::size_t taken = 0;  // request.ids[0, taken) become the ids to unlink
  std::size_t missing = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const redisReply* element = reply->element[i];
    if (element->type == REDIS_REPLY_STRING) {
      payloads[i].assign(element->str, element->len);
      request.ids[taken++] = request.ids[i];
    } else {
      results[i] = TakeResult::kMissing;  // nil: expired, evicted or deleted
      missing++;
    }
  }
  size_ -= std::min(size_, keep ? missing : n);
  if (keep) taken = 0;  // they stay until Erase
  // Delete what we now hold before `done` runs, so that a payload it puts
  // back under the same id is queued after the delete. If the connection is
  // no longer up the keys go with their TTL.
  if (taken > 0) {
    FormatArgv("UNLINK", std::span<const std::uint64_t>(request.ids.data(), taken));
    connection_.Send(argv_, &unlinked_);
  }
  request.done(absl::OkStatus(), std::span<std::string>(payloads),
               std::span<const TakeResult>(results));
}

void RedisPayloadStore::Erase(std::uint64_t id) {
  if (size_ > 0) size_--;
  erasing_.push_back(id);
}

void RedisPayloadStore::Flush() {
  // If the connection is down, or hiredis refuses the command, the keys go
  // with their TTL.
  if (connection_.available()) {
    constexpr std::size_t kKeysPerCommand = 1024;
    const std::span<const std::uint64_t> ids(erasing_);
    for (std::size_t from = 0; from < ids.size(); from += kKeysPerCommand) {
      FormatArgv("UNLINK", ids.subspan(from, std::min(kKeysPerCommand, ids.size() - from)));
      connection_.Send(argv_, &unlinked_);
    }
  }
  erasing_.clear();
}

}  // namespace trestle::daemon
