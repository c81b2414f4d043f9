// PayloadStore: where the daemon keeps payload bytes while their metadata
// travels through the simulator. Only the daemon talks to it; transits carry
// no payload.
//
// The interface is asynchronous so that a networked store (Redis) fits behind
// it without blocking the event loop. Contract for every call:
//   - `done` runs exactly once, on the loop thread. An implementation may run
//     it before the call returns (the in-memory store always does).
//   - Callers must not assume either order; they must not destroy the store
//     while calls are outstanding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace trestle::daemon {

class PayloadStore {
 public:
  using PutCallback = std::function<void(const absl::Status&)>;
  // `payloads[i]` belongs to `ids[i]`; the callee may move out of them.
  // A missing id is an error status for the whole batch.
  using TakeCallback =
      std::function<void(const absl::Status&, std::span<std::string> payloads)>;

  virtual ~PayloadStore() = default;

  // Connects (for a networked store) before the loop runs; may block
  // briefly. Errors name the store. Called once, before any other call.
  virtual absl::Status Open() { return absl::OkStatus(); }
  // Disconnects at shutdown, on the loop thread: callbacks still pending run
  // (with an error) before it returns. No call may follow.
  virtual void Close() {}

  // Keeps `payload` under `id` until taken or erased.
  virtual void Put(std::uint64_t id, std::string&& payload, PutCallback done) = 0;
  // Removes the payloads of `ids` and hands them to `done`, in order. `ids`
  // need only live for the duration of the call.
  virtual void TakeBatch(std::span<const std::uint64_t> ids, TakeCallback done) = 0;
  // Forgets `id` (a dropped or expired message). Unknown ids are ignored.
  virtual void Erase(std::uint64_t id) = 0;

  // Payloads currently held (for stats and tests).
  virtual std::size_t size() const = 0;
  // "memory", "redis://...": what Status and logs show.
  virtual std::string_view name() const = 0;
};

using PayloadStorePtr = std::unique_ptr<PayloadStore>;

}  // namespace trestle::daemon
