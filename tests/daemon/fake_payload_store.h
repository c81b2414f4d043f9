// FakePayloadStore: a PayloadStore (trestle/daemon/payload_store.h) whose
// answers a test decides. By default it behaves like the in-memory store
// (every call answers before it returns). A test can
//   - refuse every Put with a given status (RefusePuts),
//   - hold Puts or TakeBatches until it answers them (HoldPuts, HoldTakes:
//     the asynchronous answer of a networked store),
//   - make the store unreachable (set_available(false)): TakeBatch then
//     answers kUnavailable at once, with empty spans, as the contract says.
// Missing payloads (TakeResult::kMissing) come from Erase() before a take.
// Payloads by key: WriteAsClient keeps a payload as an SDK would have
// written it; Adopt then finds it (or answers NotFound / InvalidArgument
// naming the key "fake:<id>", as the Redis store does).
// It records the ids of every TakeBatch call.
//
// Single-threaded. Held callbacks must be answered (or dropped by the
// test) before the store is destroyed.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "trestle/daemon/payload_store.h"

namespace trestle::daemon {

class FakePayloadStore final : public PayloadStore {
 public:
  void Put(std::uint64_t id, std::string&& payload, PutCallback done) override {
    if (!put_status_.ok()) {
      done(put_status_);
      return;
    }
    payloads_[id] = std::move(payload);
    if (hold_puts_) {
      held_puts_.push_back({id, std::move(done)});
    } else {
      done(absl::OkStatus());
    }
  }

  void TakeBatch(std::span<const std::uint64_t> ids, TakeCallback done) override {
    take_calls_.emplace_back(ids.begin(), ids.end());
    if (!available_) {
      done(absl::UnavailableError("fake://store is unreachable"), {}, {});
      return;
    }
    if (hold_takes_) {
      held_takes_.push_back({std::vector<std::uint64_t>(ids.begin(), ids.end()), std::move(done)});
      return;
    }
    Answer(ids, done);
  }

  void Adopt(std::uint64_t id, std::uint64_t size, PutCallback done) override {
    const std::string key = "fake:" + std::to_string(id);
    auto it = payloads_.find(id);
    if (!available_) {
      done(absl::UnavailableError("fake://store is unreachable"));
    } else if (it == payloads_.end()) {
      done(absl::NotFoundError("payload key '" + key + "' is not in fake://store"));
    } else if (it->second.size() != size) {
      done(absl::InvalidArgumentError("payload key '" + key + "' holds " +
                                      std::to_string(it->second.size()) + " bytes"));
    } else {
      done(absl::OkStatus());
    }
  }
  void WriteAsClient(std::uint64_t id, std::string payload) { payloads_[id] = std::move(payload); }

  void Erase(std::uint64_t id) override { payloads_.erase(id); }
  bool available() const override { return available_; }
  std::size_t size() const override { return payloads_.size(); }
  std::string_view name() const override { return "fake://store"; }

  // Test controls.
  void RefusePuts(absl::Status status) { put_status_ = std::move(status); }
  void HoldPuts(bool hold) { hold_puts_ = hold; }
  void HoldTakes(bool hold) { hold_takes_ = hold; }
  void set_available(bool available) { available_ = available; }

  // Answers the held Puts, oldest first, with `status` (an error forgets
  // their payloads).
  void AnswerPuts(const absl::Status& status) {
    std::vector<HeldPut> held;
    held.swap(held_puts_);
    for (HeldPut& put : held) {
      if (!status.ok()) payloads_.erase(put.id);
      put.done(status);
    }
  }
  // Answers the held TakeBatches, oldest first, from what the store holds now.
  void AnswerTakes() {
    std::vector<HeldTake> held;
    held.swap(held_takes_);
    for (HeldTake& take : held) Answer(take.ids, take.done);
  }
  std::size_t held_puts() const { return held_puts_.size(); }
  std::size_t held_takes() const { return held_takes_.size(); }
  const std::vector<std::vector<std::uint64_t>>& take_calls() const { return take_calls_; }
  bool holds(std::uint64_t id) const { return payloads_.contains(id); }

 private:
  struct HeldPut {
    std::uint64_t id;
    PutCallback done;
  };
  struct HeldTake {
    std::vector<std::uint64_t> ids;
    TakeCallback done;
  };

  void Answer(std::span<const std::uint64_t> ids, const TakeCallback& done) {
    std::vector<std::string> taken;
    std::vector<TakeResult> results;
    for (std::uint64_t id : ids) {
      auto it = payloads_.find(id);
      if (it == payloads_.end()) {
        taken.emplace_back();
        results.push_back(TakeResult::kMissing);
        continue;
      }
      taken.push_back(std::move(it->second));
      results.push_back(TakeResult::kTaken);
      payloads_.erase(it);
    }
    done(absl::OkStatus(), std::span<std::string>(taken), std::span<const TakeResult>(results));
  }

  absl::flat_hash_map<std::uint64_t, std::string> payloads_;
  absl::Status put_status_;
  bool hold_puts_ = false;
  bool hold_takes_ = false;
  bool available_ = true;
  std::vector<HeldPut> held_puts_;
  std::vector<HeldTake> held_takes_;
  std::vector<std::vector<std::uint64_t>> take_calls_;
};

}  // namespace trestle::daemon
