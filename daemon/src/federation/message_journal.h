// MessageJournal: a federated daemon's record, in Redis, of the messages it
// accepted from its own apps and has not finished, so that a daemon killed
// and restarted takes them up again (docs/federation.md, "Durable
// delivery"). Messages taken over from a peer need no journal: their entry
// in this daemon's stream stays pending until they are finished.
//
// The journal is the stream `trestle:{run}:journal:{d}`, read only by
// daemon d itself, and only at its start (Recover). One entry per message,
// with the fields of a peer stream's transit entry (kind `a`): appended
// once the message stays here (Append), deleted once it is finished here
// (Delete), or in the same script that hands it on to a peer
// (PeerStreams::AppendRules).
//
// A message finished before its append's reply came (it has no entry id
// yet) is remembered (Forget), and its entry deleted as soon as the reply
// comes. Deletes that fail (Redis unreachable) are retried by Retry().
//
// Loop thread only. The connection must outlive the journal.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "store/redis_connection.h"
#include "store/stream_entry_id.h"

namespace trestle::daemon {

class MessageJournal {
 public:
  MessageJournal(RedisConnection& redis, std::string_view run, std::uint32_t daemon_id);

  // Appends the entry of message `message_id`; `done` gets its entry id, or
  // the error (the message is then not durable; it goes on regardless).
  using AppendCallback = std::function<void(const absl::StatusOr<StreamEntryId>& entry)>;
  void Append(std::uint64_t message_id, std::span<const std::string_view> fields,
              AppendCallback done);
  // Message `message_id`, whose append has not been answered yet, is
  // finished: its entry is deleted once the reply names it.
  void Forget(std::uint64_t message_id) { forgotten_.insert(message_id); }
  // Deletes entry `entry` (the message is finished here).
  void Delete(StreamEntryId entry);
  void Retry();

  // Reads what an earlier life of this daemon left, oldest first, in pages.
  // An entry whose payload (`payload_prefix` + the message id) is gone was
  // finished before the restart: Redis deletes it in the same script, and
  // it is not passed on. Each live entry goes to `each` (fields valid during
  // the call only); then `done` once the journal is read (or the error).
  using EntryCallback =
      std::function<void(StreamEntryId entry, std::span<const std::string_view> fields)>;
  void Recover(std::string_view payload_prefix, EntryCallback each,
               std::function<void(const absl::Status&)> done);

  const std::string& key() const { return key_; }
  std::size_t retries_waiting() const { return failed_.size(); }

 private:
  void RecoverPage(std::string from);

  RedisConnection& redis_;
  const std::string key_;  // trestle:{run}:journal:{d}
  absl::flat_hash_set<std::uint64_t> forgotten_;
  std::vector<StreamEntryId> failed_;  // deletes to retry
  // Recovery in progress.
  std::string recover_prefix_;
  EntryCallback recover_each_;
  std::function<void(const absl::Status&)> recover_done_;
  std::vector<std::string_view> fields_;  // Recover's scratch
  std::vector<std::string_view> argv_;    // Append's scratch
};

}  // namespace trestle::daemon
