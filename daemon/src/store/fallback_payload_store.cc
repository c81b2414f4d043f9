#include "store/fallback_payload_store.h"

#include <algorithm>
#include <memory>
#include <utility>

namespace trestle::daemon {

void FallbackPayloadStore::Put(std::uint64_t id, std::string&& payload, PutCallback done) {
  if (mode_ == Mode::kSharedFirst && shared_->available()) {
    return shared_->Put(id, std::move(payload), std::move(done));
  }
  local_.Put(id, std::move(payload), std::move(done));
}

void FallbackPayloadStore::TakeBatch(std::span<const std::uint64_t> ids, TakeCallback done) {
  // A batch of one tier goes straight to it (the usual case).
  if (local_.size() == 0) return shared_->TakeBatch(ids, std::move(done));
  if (std::all_of(ids.begin(), ids.end(), [this](std::uint64_t id) { return local_.Holds(id); })) {
    return local_.TakeBatch(ids, std::move(done));
  }
  // Positions of the local and the shared ids in the batch.
  struct Mixed {
    std::vector<std::uint64_t> local_ids, shared_ids;
    std::vector<std::size_t> local_at, shared_at;
    std::vector<std::string> payloads;
    std::vector<TakeResult> results;
  };
  auto m = std::make_shared<Mixed>();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const bool local = local_.Holds(ids[i]);
    (local ? m->local_ids : m->shared_ids).push_back(ids[i]);
    (local ? m->local_at : m->shared_at).push_back(i);
  }
  if (m->local_ids.empty()) return shared_->TakeBatch(ids, std::move(done));
  m->payloads.resize(ids.size());
  m->results.assign(ids.size(), TakeResult::kMissing);
  // The memory store answers before it returns.
  local_.TakeBatch(m->local_ids, [&m](const absl::Status&, std::span<std::string> payloads,
                                      std::span<const TakeResult> results) {
    for (std::size_t k = 0; k < payloads.size(); ++k) {
      m->payloads[m->local_at[k]] = std::move(payloads[k]);
      m->results[m->local_at[k]] = results[k];
    }
  });
  if (m->shared_ids.empty()) return done(absl::OkStatus(), m->payloads, m->results);
  shared_->TakeBatch(m->shared_ids, [this, m, done = std::move(done)](
                                        const absl::Status& status,
                                        std::span<std::string> payloads,
                                        std::span<const TakeResult> results) {
    if (!status.ok()) {
      // The batch keeps its state: the local payloads go back.
      for (std::size_t k = 0; k < m->local_ids.size(); ++k) {
        if (m->results[m->local_at[k]] != TakeResult::kTaken) continue;
        local_.Put(m->local_ids[k], std::move(m->payloads[m->local_at[k]]),
                   [](const absl::Status&) {});
      }
      return done(status, {}, {});
    }
    for (std::size_t k = 0; k < payloads.size(); ++k) {
      m->payloads[m->shared_at[k]] = std::move(payloads[k]);
      m->results[m->shared_at[k]] = results[k];
    }
    done(status, m->payloads, m->results);
  });
}

void FallbackPayloadStore::Erase(std::uint64_t id) {
  if (local_.Holds(id)) return local_.Erase(id);
  shared_->Erase(id);
}

void FallbackPayloadStore::HandOver(std::uint64_t id) {
  // A local payload went to the shared store with its message's hand-on
  // (LocalPayload): the copy here goes.
  if (local_.Holds(id)) return local_.Erase(id);
  shared_->HandOver(id);
}

bool FallbackPayloadStore::Compact() {
  const bool shared = shared_->Compact();
  return local_.Compact() || shared;
}

}  // namespace trestle::daemon
