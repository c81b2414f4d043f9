#include "store/in_memory_payload_store.h"

#include <utility>

namespace trestle::daemon {

void InMemoryPayloadStore::Put(std::uint64_t id, std::string&& payload, PutCallback done) {
  auto [it, inserted] = payloads_.try_emplace(id, std::move(payload));
  done(inserted ? absl::OkStatus()
                : absl::AlreadyExistsError("payload " + std::to_string(id) + " already stored"));
}

void InMemoryPayloadStore::TakeBatch(std::span<const std::uint64_t> ids, TakeCallback done) {
  taken_.clear();
  results_.clear();
  for (std::uint64_t id : ids) {
    auto it = payloads_.find(id);
    if (it == payloads_.end()) {
      taken_.emplace_back();
      results_.push_back(TakeResult::kMissing);
      continue;
    }
    taken_.push_back(std::move(it->second));
    results_.push_back(TakeResult::kTaken);
    payloads_.erase(it);
  }
  done(absl::OkStatus(), std::span<std::string>(taken_), std::span<const TakeResult>(results_));
}

}  // namespace trestle::daemon
