// PeerStreams: the Redis Streams that carry messages between the daemons of
// a federated bridge (docs/federation.md). Daemon d reads its own stream
// `trestle:{run}:in:{d}` through the consumer group `trestled` (consumer
// `d{d}`); any daemon appends to it (XADD). An entry is a flat list of
// field/value pairs; what they mean is the business of the FederationRouter's
// two halves (FederationOutbound appends, FederationInbound reads).
//
// Durable: an entry stays pending in the group until Ack (or until the
// last Hold on it is released: an entry may carry several messages); the
// acks of a loop pass go as one XACK (FlushAcks). What is acknowledged goes from the
// stream in bulk: Trim() removes every entry
// before the oldest one still pending (XPENDING, then XTRIM MINID), which
// costs Redis far less than an XDEL per entry. Reading starts with this
// consumer's pending entries (those a previous run of this daemon read and
// never acknowledged: it was killed), then new ones. After the reading
// connection comes back from an outage the pending entries are read again,
// since a reply lost with the connection may have held some; the entry
// entry handler skips what it already has.
//
// Reads block on a connection of their own (XREADGROUP ... BLOCK), so that
// appends and acknowledgements on the shared command connection never wait
// behind them. Acks that fail (Redis unreachable) are retried by Retry().
//
// Loop thread only. The command connection and the handlers must outlive it.
#pragma once

#include <uv.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "store/redis_connection.h"
#include "store/stream_entry_id.h"

namespace trestle::daemon {

class PeerStreams {
 public:
  using EntryId = StreamEntryId;
  // The caller's note on one Append, handed back with its outcome (so that
  // an append costs no callback object).
  struct AppendTag {
    std::uint64_t message = 0;
    std::uint64_t serial = 0;
    char kind = 0;
    bool flag = false;
  };
  // Takes the entries of this daemon's stream (FederationInbound).
  class EntryHandler {
   public:
    // One entry of this daemon's stream: `fields` holds field, value, field,
    // value... (valid during the call only). `replayed`: read from this
    // consumer's pending entries (a restart, or after an outage), so it may
    // have been carried out already.
    virtual void OnPeerEntry(EntryId id, std::span<const std::string_view> fields,
                             bool replayed) = 0;

   protected:
    ~EntryHandler() = default;
  };
  // Takes the answers of the appends (FederationOutbound).
  class AppendHandler {
   public:
    // The outcome of the Append tagged `tag`: OK (appended), NotFound (the
    // key it needed is gone: nothing appended) or Unavailable. Appends are
    // answered in the order they were made; possibly inside Append.
    virtual void OnAppended(const AppendTag& tag, const absl::Status& status) = 0;

   protected:
    ~AppendHandler() = default;
  };

  struct Options {
    std::string run = "default";
    std::uint32_t daemon_id = 0;
    // Entries per read: up to PeerBatches::kMaxMembers messages each, so at
    // most 4,096 messages are taken up in one loop pass.
    std::uint32_t read_count = 32;
    std::uint64_t block_ms = 1'000;     // how long one read waits for entries
  };

  // `commands` carries appends and acks; reads get a connection of their own
  // to `url`. Nothing happens before Open().
  PeerStreams(uv_loop_t* loop, RedisConnection& commands, const std::string& url,
              Options options);
  ~PeerStreams();

  // Opens the reading connection (errors name the URL), creates the group if
  // needed, and starts reading; entries go to `entries`, the answers of
  // appends to `appends`; both must outlive the streams.
  absl::Status Open(EntryHandler& entries, AppendHandler& appends);
  void Close();

  // What else an Append does, in the same script (empty: nothing).
  struct AppendRules {
    // Append only while this key exists: NotFound if it does not (nothing
    // appended).
    std::string_view only_if_key;
    // With the append, delete entry `then_delete_entry` ("ms-seq") of stream
    // `then_delete_from` (the journal entry of a message handed on).
    std::string_view then_delete_from;
    std::string_view then_delete_entry;
  };
  // SET `key` to `value` (PX `ttl_ms`, decimal text), pipelined: a payload
  // that leaves its daemon's memory with its message. Redis runs it before
  // the Appends that follow on this connection, and what stops it (the
  // connection lost, out of memory) stops them too, so a message's entry is
  // never in a stream without its payload. The reply is not looked at.
  void WritePayload(std::string_view key, std::string_view value, std::string_view ttl_ms);
  // Appends an entry to daemon `daemon`'s stream; the AppendHandler gets
  // the outcome with `tag`. Only after Open().
  void Append(std::uint32_t daemon, std::span<const std::string_view> fields,
              const AppendRules& rules, const AppendTag& tag);
  // The entry is finished here: acknowledged by the next FlushAcks (and
  // deleted by a later Trim).
  void Ack(EntryId id);
  // An entry may carry several messages: each one in hand here holds it,
  // and it is acknowledged (Ack) when the last hold is released.
  void Hold(EntryId id) { ++holds_[id]; }
  void Release(EntryId id);
  // Whether some message of the entry is in hand here (it was read in this
  // daemon's life and is not finished).
  bool Held(EntryId id) const { return holds_.contains(id); }
  // Sends the acks since the last call, as XACKs of up to kAcksPerCommand
  // entries (once per loop pass; also by Close).
  void FlushAcks();
  static constexpr std::size_t kAcksPerCommand = 1024;
  // Retries the acknowledgements that failed (from housekeeping).
  void Retry();
  // From housekeeping: at most every kTrimPeriodMs, deletes the entries of
  // this daemon's stream before the oldest one not acknowledged (all of
  // them up to the last one read if none is pending).
  void Trim(std::uint64_t now_ms);
  static constexpr std::uint64_t kTrimPeriodMs = 100;
  // Acks not yet confirmed by Redis (for the entry handler's duplicate check).
  bool AckPending(EntryId id) const { return unconfirmed_.contains(id); }

  const std::string& stream() const { return stream_; }

 private:
  void Read();
  void OnRead(const absl::Status& status, const redisReply* reply);
  // The answers of the appends, oldest first (one connection answers in
  // order): tags waiting in appending_.
  struct AppendReplies final : RedisConnection::ReplyHandler {
    explicit AppendReplies(PeerStreams& streams) : streams(streams) {}
    void OnRedisReply(const absl::Status& status, const redisReply* reply) override;
    PeerStreams& streams;
  };

  RedisConnection& commands_;
  const Options options_;
  EntryHandler* entries_ = nullptr;
  AppendHandler* appends_ = nullptr;
  const std::string stream_;   // trestle:{run}:in:{d}
  const std::string prefix_;   // trestle:{run}:in:
  const std::string consumer_;
  const std::string count_text_;
  const std::string block_text_;
  RedisConnection reader_;
  bool reading_ = false;     // a read is outstanding
  bool pending_pass_ = true; // reading this consumer's pending entries (from pending_from_)
  EntryId last_read_;        // the newest entry read as new (">"); 0-0: none yet
  bool trimming_ = false;    // a Trim's XPENDING is outstanding
  std::uint64_t next_trim_ms_ = 0;
  std::string pending_from_ = "0";
  bool closed_ = false;
  absl::flat_hash_map<EntryId, std::uint32_t> holds_;  // entry -> messages in hand
  absl::flat_hash_set<EntryId> unconfirmed_;  // acked, not yet confirmed
  std::vector<EntryId> acks_;                 // acked, not yet sent
  std::string ack_text_;                      // FlushAcks' scratch: the ids' text,
  std::vector<std::size_t> ack_ends_;         // where each ends,
  std::vector<std::string_view> ack_argv_;
  std::vector<std::string_view> fields_;      // scratch for OnPeerEntry
  std::vector<std::string_view> argv_;        // scratch for Append
  RedisConnection::IgnoreReply ignored_;      // WritePayload's SET
  AppendReplies append_replies_{*this};
  std::deque<AppendTag> appending_;           // appends sent, not yet answered
  bool sending_ = false;                      // inside Append's Send
  absl::flat_hash_map<std::uint32_t, std::string> stream_keys_;  // by daemon
};

}  // namespace trestle::daemon
