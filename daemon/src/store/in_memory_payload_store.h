// InMemoryPayloadStore: the embedded default PayloadStore, a hash map in the
// daemon's memory. Every callback runs before the call returns.
#pragma once

#include <string>

#include "absl/container/flat_hash_map.h"
#include "trestle/daemon/payload_store.h"

namespace trestle::daemon {

class InMemoryPayloadStore final : public PayloadStore {
 public:
  void Put(std::uint64_t id, std::string&& payload, PutCallback done) override;
  void TakeBatch(std::span<const std::uint64_t> ids, TakeCallback done) override;
  void Erase(std::uint64_t id) override { payloads_.erase(id); }
  std::size_t size() const override { return payloads_.size(); }
  // Whether the payload of `id` is stored here.
  bool Holds(std::uint64_t id) const { return payloads_.contains(id); }
  // The payload of `id` (null if none), valid until the next Put or take.
  const std::string* Find(std::uint64_t id) const {
    auto it = payloads_.find(id);
    return it == payloads_.end() ? nullptr : &it->second;
  }
  bool Compact() override {
    if (payloads_.capacity() < 4 * payloads_.size() + 4096) return false;
    payloads_.rehash(0);
    return true;
  }
  std::string_view name() const override { return "memory"; }

 private:
  absl::flat_hash_map<std::uint64_t, std::string> payloads_;
  std::vector<std::string> taken_;  // reused for every TakeBatch
  std::vector<TakeResult> results_;
};

}  // namespace trestle::daemon
