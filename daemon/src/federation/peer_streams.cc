#include "federation/peer_streams.h"

#include <hiredis/hiredis.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <utility>

#include "absl/strings/str_cat.h"
#include "store/decimal_field.h"

namespace trestle::daemon {
namespace {

constexpr std::string_view kGroup = "trestled";

// KEYS: the stream, the key that must exist (''), the stream to delete an
// entry from (''); ARGV: that entry's id (''), then the new entry's fields.
constexpr std::string_view kAppendIfScript = R"lua(
if KEYS[2] ~= '' and redis.call('EXISTS', KEYS[2]) == 0 then return false end
local id = redis.call('XADD', KEYS[1], '*', unpack(ARGV, 2))
if ARGV[1] ~= '' then redis.call('XDEL', KEYS[3], ARGV[1]) end
return id
)lua";

std::string_view Text(const redisReply* r) { return {r->str, r->len}; }

}  // namespace

PeerStreams::PeerStreams(uv_loop_t* loop, RedisConnection& commands, const std::string& url,
                         Options options)
    : commands_(commands),
      options_(std::move(options)),
      stream_(absl::StrCat("trestle:", options_.run, ":in:", options_.daemon_id)),
      prefix_(absl::StrCat("trestle:", options_.run, ":in:")),
      consumer_(absl::StrCat("d", options_.daemon_id)),
      count_text_(std::to_string(options_.read_count)),
      block_text_(std::to_string(options_.block_ms)),
      reader_(loop, "streams", url,
              RedisConnection::Options{.reply_timeout_ms = options_.block_ms + 5'000}) {}

PeerStreams::~PeerStreams() { Close(); }

absl::Status PeerStreams::Open(EntryHandler& entries, AppendHandler& appends) {
  entries_ = &entries;
  appends_ = &appends;
  reader_.SetStateCallback([this](bool up) {
    if (!up || closed_) return;
    // After every (re)connection: the group may be new (a restarted Redis),
    // and a lost reply may have held entries: read the pending ones again.
    pending_pass_ = true;
    pending_from_.assign(1, '0');  // not = "0": GCC 12 warns falsely (-Wrestrict, PR 105329)
    const std::string_view argv[] = {"XGROUP", "CREATE", stream_, kGroup, "0", "MKSTREAM"};
    reader_.Send(argv, [](const absl::Status&, const redisReply*) {});  // BUSYGROUP: it exists
    Read();
  });
  return reader_.Open();
}

void PeerStreams::Close() {
  if (closed_) return;
  FlushAcks();
  closed_ = true;
  reader_.Close();
}

void PeerStreams::Read() {
  if (reading_ || closed_ || !reader_.available()) return;
  reading_ = true;
  auto done = [this](const absl::Status& status, const redisReply* reply) {
    OnRead(status, reply);
  };
  if (pending_pass_) {
    const std::string_view argv[] = {"XREADGROUP", "GROUP",  kGroup,  consumer_,   "COUNT",
                                     count_text_,  "STREAMS", stream_, pending_from_};
    reader_.Send(argv, std::move(done));
  } else {
    const std::string_view argv[] = {"XREADGROUP", "GROUP", kGroup,      consumer_, "COUNT",
                                     count_text_,  "BLOCK", block_text_, "STREAMS", stream_,
                                     ">"};
    reader_.Send(argv, std::move(done));
  }
}

void PeerStreams::OnRead(const absl::Status& status, const redisReply* reply) {
  reading_ = false;
  if (!status.ok() || closed_) return;  // the state callback reads again once it is back
  if (reply->type == REDIS_REPLY_ERROR) {
    // NOGROUP: the stream went (a Redis restart, or its TTL); make it again.
    spdlog::warn("reading stream {}: {}", stream_, std::string(Text(reply)));
    const std::string_view argv[] = {"XGROUP", "CREATE", stream_, kGroup, "0", "MKSTREAM"};
    reader_.Send(argv, [](const absl::Status&, const redisReply*) {});
    pending_pass_ = false;
    Read();
    return;
  }
  std::size_t entries = 0;
  if (reply->type == REDIS_REPLY_ARRAY && reply->elements > 0) {
    const redisReply* stream = reply->element[0];
    if (stream->type == REDIS_REPLY_ARRAY && stream->elements == 2) {
      const redisReply* list = stream->element[1];
      entries = list->elements;
      for (std::size_t i = 0; i < list->elements; ++i) {
        const redisReply* entry = list->element[i];
        if (entry->type != REDIS_REPLY_ARRAY || entry->elements != 2) continue;
        EntryId id;
        if (!EntryId::Parse(Text(entry->element[0]), &id)) continue;
        if (pending_pass_) {
          pending_from_ = std::string(Text(entry->element[0]));
        } else {
          last_read_ = id;
        }
        const redisReply* kv = entry->element[1];
        if (kv->type != REDIS_REPLY_ARRAY) {
          Ack(id);  // pending, but deleted: nothing left to do
          continue;
        }
        fields_.clear();
        for (std::size_t k = 0; k < kv->elements; ++k) fields_.push_back(Text(kv->element[k]));
        entries_->OnPeerEntry(id, fields_, pending_pass_);
      }
    }
  }
  if (pending_pass_ && entries == 0) pending_pass_ = false;  // caught up: new entries now
  Read();
}

void PeerStreams::WritePayload(std::string_view key, std::string_view value,
                               std::string_view ttl_ms) {
  const std::string_view set[] = {"SET", key, value, "PX", ttl_ms};
  commands_.Send(set, &ignored_);
}

void PeerStreams::Append(std::uint32_t daemon, std::span<const std::string_view> fields,
                         const AppendRules& rules, const AppendTag& tag) {
  std::string& key = stream_keys_[daemon];
  if (key.empty()) key = absl::StrCat(prefix_, daemon);
  argv_.clear();
  if (rules.only_if_key.empty() && rules.then_delete_entry.empty()) {
    argv_.insert(argv_.end(), {"XADD", key, "*"});  // no script: one costs Redis ~3 us a call
  } else {
    argv_.insert(argv_.end(), {"EVAL", kAppendIfScript, "3", key, rules.only_if_key,
                               rules.then_delete_from, rules.then_delete_entry});
  }
  argv_.insert(argv_.end(), fields.begin(), fields.end());
  appending_.push_back(tag);  // before Send, which may answer at once
  sending_ = true;
  commands_.Send(argv_, &append_replies_);
  sending_ = false;
}

void PeerStreams::AppendReplies::OnRedisReply(const absl::Status& status,
                                              const redisReply* reply) {
  // Answered inside Send (not sent): the newest; otherwise the oldest.
  std::deque<AppendTag>& tags = streams.appending_;
  const AppendTag tag = streams.sending_ ? tags.back() : tags.front();
  streams.sending_ ? tags.pop_back() : tags.pop_front();
  AppendHandler& to = *streams.appends_;
  if (!status.ok()) return to.OnAppended(tag, status);
  if (reply->type == REDIS_REPLY_ERROR) {
    return to.OnAppended(tag, streams.commands_.UnavailableError(absl::StrCat(
                                  "XADD: ", absl::string_view(reply->str, reply->len))));
  }
  if (reply->type == REDIS_REPLY_NIL) {
    return to.OnAppended(tag, absl::NotFoundError("the key is gone"));
  }
  to.OnAppended(tag, absl::OkStatus());
}

void PeerStreams::Ack(EntryId id) {
  unconfirmed_.insert(id);
  acks_.push_back(id);
}

void PeerStreams::Release(EntryId id) {
  auto it = holds_.find(id);
  if (it == holds_.end()) return;
  if (--it->second > 0) return;
  holds_.erase(it);
  Ack(id);
}

void PeerStreams::FlushAcks() {
  for (std::size_t from = 0; from < acks_.size(); from += kAcksPerCommand) {
    const std::size_t n = std::min(kAcksPerCommand, acks_.size() - from);
    ack_text_.clear();
    ack_ends_.clear();
    for (std::size_t i = from; i < from + n; ++i) {
      AppendDecimal(ack_text_, acks_[i].ms);
      ack_text_.push_back('-');
      AppendDecimal(ack_text_, acks_[i].seq);
      ack_ends_.push_back(ack_text_.size());
    }
    // Views once the text is whole (appending may move it).
    ack_argv_.assign({"XACK", stream_, kGroup});
    std::size_t at = 0;
    for (std::size_t end : ack_ends_) {
      ack_argv_.push_back(std::string_view(ack_text_).substr(at, end - at));
      at = end;
    }
    std::vector<EntryId> batch(acks_.begin() + static_cast<std::ptrdiff_t>(from),
                               acks_.begin() + static_cast<std::ptrdiff_t>(from + n));
    commands_.Send(ack_argv_, [this, batch = std::move(batch)](const absl::Status& status,
                                                                const redisReply* reply) {
      if (!status.ok() || reply->type != REDIS_REPLY_INTEGER) return;  // Retry() sends them again
      for (EntryId id : batch) unconfirmed_.erase(id);
    });
  }
  acks_.clear();
}

void PeerStreams::Trim(std::uint64_t now_ms) {
  if (trimming_ || now_ms < next_trim_ms_ || !commands_.available()) return;
  if (last_read_ == EntryId{}) return;  // nothing read as new yet
  next_trim_ms_ = now_ms + kTrimPeriodMs;
  trimming_ = true;
  // Every entry up to last_read_ was delivered to this consumer (reads go
  // in id order); those not pending are acknowledged. An entry read after
  // this XPENDING is newer than either bound.
  const EntryId after_read{last_read_.ms, last_read_.seq + 1};
  const std::string_view argv[] = {"XPENDING", stream_, kGroup};
  commands_.Send(argv, [this, after_read](const absl::Status& status, const redisReply* reply) {
    trimming_ = false;
    if (!status.ok() || closed_ || reply->type != REDIS_REPLY_ARRAY || reply->elements < 2) return;
    std::string min_id;
    if (reply->element[0]->type == REDIS_REPLY_INTEGER && reply->element[0]->integer == 0) {
      min_id = after_read.Text();
    } else if (reply->element[1]->type == REDIS_REPLY_STRING) {
      min_id = std::string(Text(reply->element[1]));  // the oldest pending entry stays
    } else {
      return;
    }
    const std::string_view trim[] = {"XTRIM", stream_, "MINID", min_id};
    commands_.Send(trim, [](const absl::Status&, const redisReply*) {});
  });
}

void PeerStreams::Retry() {
  if (unconfirmed_.empty() || !commands_.available()) return;
  std::vector<EntryId> ids(unconfirmed_.begin(), unconfirmed_.end());
  for (EntryId id : ids) Ack(id);
}

}  // namespace trestle::daemon
