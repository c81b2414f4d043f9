#include "federation/message_journal.h"

#include <hiredis/hiredis.h>

#include <utility>

#include "absl/strings/str_cat.h"

namespace trestle::daemon {
namespace {

constexpr long long kPage = 256;
constexpr std::string_view kPageText = "256";

// KEYS[1] the journal; ARGV: first id (inclusive, or "(id" exclusive), page
// size, payload key prefix. Deletes the page's entries whose payload is gone;
// returns {entries read, {live entries}}.
constexpr std::string_view kRecoverScript = R"lua(
local page = redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', ARGV[2])
local live = {}
for _, e in ipairs(page) do
  local f, id = e[2], nil
  for i = 1, #f, 2 do if f[i] == 'id' then id = f[i + 1] end end
  if id and redis.call('EXISTS', ARGV[3] .. id) == 1 then
    table.insert(live, e)
  else
    redis.call('XDEL', KEYS[1], e[1])
  end
end
local last = ''
if #page > 0 then last = page[#page][1] end
return {#page, last, live}
)lua";

std::string_view Text(const redisReply* r) { return {r->str, r->len}; }

}  // namespace

MessageJournal::MessageJournal(RedisConnection& redis, std::string_view run,
                               std::uint32_t daemon_id)
    : redis_(redis), key_(absl::StrCat("trestle:", std::string(run), ":journal:", daemon_id)) {}

void MessageJournal::Append(std::uint64_t message_id, std::span<const std::string_view> fields,
                            AppendCallback done) {
  argv_.assign({"XADD", key_, "*"});
  argv_.insert(argv_.end(), fields.begin(), fields.end());
  redis_.Send(argv_, [this, message_id, done = std::move(done)](const absl::Status& status,
                                                               const redisReply* reply) {
    const bool forgotten = forgotten_.erase(message_id) > 0;
    if (!status.ok()) return done(status);
    StreamEntryId entry;
    if (reply->type != REDIS_REPLY_STRING || !StreamEntryId::Parse(Text(reply), &entry)) {
      return done(redis_.UnavailableError(absl::StrCat(
          "XADD ", key_, ": ",
          reply->type == REDIS_REPLY_ERROR ? std::string(Text(reply)) : "unexpected reply")));
    }
    if (forgotten) {
      Delete(entry);
      return;
    }
    done(entry);
  });
}

void MessageJournal::Delete(StreamEntryId entry) {
  const std::string text = entry.Text();
  const std::string_view argv[] = {"XDEL", key_, text};
  redis_.Send(argv, [this, entry](const absl::Status& status, const redisReply*) {
    if (!status.ok()) failed_.push_back(entry);
  });
}

void MessageJournal::Retry() {
  if (failed_.empty() || !redis_.available()) return;
  std::vector<StreamEntryId> again = std::move(failed_);
  failed_.clear();
  for (StreamEntryId entry : again) Delete(entry);
}

void MessageJournal::Recover(std::string_view payload_prefix, EntryCallback each,
                             std::function<void(const absl::Status&)> done) {
  recover_prefix_ = payload_prefix;
  recover_each_ = std::move(each);
  recover_done_ = std::move(done);
  RecoverPage("-");
}

void MessageJournal::RecoverPage(std::string from) {
  const std::string_view argv[] = {"EVAL", kRecoverScript, "1", key_, from, kPageText,
                                   recover_prefix_};
  redis_.Send(argv, [this](const absl::Status& status, const redisReply* reply) {
    auto finish = [this](const absl::Status& s) {
      auto done = std::move(recover_done_);
      recover_each_ = nullptr;
      done(s);
    };
    if (!status.ok()) return finish(status);
    if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 3 ||
        reply->element[0]->type != REDIS_REPLY_INTEGER) {
      return finish(redis_.UnavailableError(absl::StrCat(
          "reading journal ", key_, ": ",
          reply->type == REDIS_REPLY_ERROR ? std::string(Text(reply)) : "unexpected reply")));
    }
    const long long read = reply->element[0]->integer;
    const redisReply* live = reply->element[2];
    for (std::size_t i = 0; live->type == REDIS_REPLY_ARRAY && i < live->elements; ++i) {
      const redisReply* e = live->element[i];
      StreamEntryId entry;
      if (e->type != REDIS_REPLY_ARRAY || e->elements != 2 ||
          !StreamEntryId::Parse(Text(e->element[0]), &entry) ||
          e->element[1]->type != REDIS_REPLY_ARRAY) {
        continue;
      }
      fields_.clear();
      for (std::size_t k = 0; k < e->element[1]->elements; ++k) {
        fields_.push_back(Text(e->element[1]->element[k]));
      }
      recover_each_(entry, fields_);
    }
    if (read < kPage) return finish(absl::OkStatus());
    std::string after(1, '(');  // not "(" + ...: GCC 12 warns falsely (-Wrestrict, PR 105329)
    after.append(Text(reply->element[1]));
    RecoverPage(std::move(after));
  });
}

}  // namespace trestle::daemon
