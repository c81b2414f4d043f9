// FallbackPayloadStore: a federated daemon's payload store, in two tiers:
// this daemon's memory and the bridge's shared store (Redis).
//   - Memory first (Mode::kMemoryFirst, the default: no journal): every new
//     payload stays in memory until its message leaves the daemon, so
//     traffic between apps of this daemon never touches Redis.
//   - Shared first (Mode::kSharedFirst, a journaled daemon): payloads go to
//     the shared store as long as it can be reached, and stay in memory
//     only while it cannot (docs/federation.md, "Faults").
// Either way, traffic between apps of this daemon keeps flowing while Redis
// is away.
//
// A payload kept in memory is local: no other daemon can take it, and it is
// in no journal (the journal is in Redis too), so it does not survive a kill
// of this daemon. Before its message is handed on to another daemon it must
// be written to the shared store under its usual key: the caller writes
// LocalPayload() with the hand-on itself, then calls HandOver().
//
// Payloads by key (Adopt) need the shared store and fail fast without it.
// TakeBatch serves local and shared ids in one call, in order: the shared
// part is one call to the shared store, as without a fallback.
//
// Loop thread only. `shared` must outlive the store.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "store/in_memory_payload_store.h"
#include "trestle/daemon/payload_store.h"

namespace trestle::daemon {

class FallbackPayloadStore final : public PayloadStore {
 public:
  enum class Mode { kMemoryFirst, kSharedFirst };
  FallbackPayloadStore(PayloadStorePtr shared, Mode mode)
      : shared_(std::move(shared)), mode_(mode) {}

  absl::Status Open() override { return shared_->Open(); }
  void Close() override { shared_->Close(); }
  void Put(std::uint64_t id, std::string&& payload, PutCallback done) override;
  void Adopt(std::uint64_t id, std::uint64_t size, PutCallback done) override {
    shared_->Adopt(id, size, std::move(done));
  }
  void TakeBatch(std::span<const std::uint64_t> ids, TakeCallback done) override;
  void Erase(std::uint64_t id) override;
  void Flush() override { shared_->Flush(); }
  void HandOver(std::uint64_t id) override;
  bool Compact() override;
  // Always: memory takes what the shared store cannot.
  bool available() const override { return true; }
  std::size_t size() const override { return shared_->size() + local_.size(); }
  std::string_view name() const override { return shared_->name(); }

  // Whether the payload of `id` is kept in this daemon's memory only.
  bool IsLocal(std::uint64_t id) const { return local_.Holds(id); }
  // The local payload of `id` (null if it is not local), valid until the
  // next call that changes the store.
  const std::string* LocalPayload(std::uint64_t id) const { return local_.Find(id); }
  // Whether the shared store can be reached now.
  bool shared_available() const { return shared_->available(); }

 private:
  PayloadStorePtr shared_;
  const Mode mode_;
  InMemoryPayloadStore local_;  // the local payloads; its keys are the local ids
};

}  // namespace trestle::daemon
