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
//
// Failures are per message wherever the store can tell them apart: a take
// whose payload is missing fails that message only (TakeResult::kMissing),
// never the batch. A batch-level error (the store is unreachable) means the
// store could not answer; the caller keeps the messages and tries again once
// available() is true.
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
  // What became of one id of a TakeBatch answered with an OK status.
  enum class TakeResult : std::uint8_t {
    kTaken,    // payloads[i] holds it; the store no longer does
    // payloads[i] holds it, and the store keeps it too until Erase(id): the
    // durable copy of a message of a federated bridge, which must outlive
    // the delivery until the app has acknowledged it (docs/federation.md,
    // "Durable delivery").
    kKept,
    kMissing,  // the store had no payload under this id (lost in the store)
  };

  using PutCallback = std::function<void(const absl::Status&)>;
  // On OK, `payloads[i]` and `results[i]` belong to `ids[i]`; the callee may
  // move out of `payloads`. On an error status (kUnavailable: the store could
  // not be reached) both spans are empty and the ids keep whatever state they
  // had in the store.
  using TakeCallback = std::function<void(const absl::Status&, std::span<std::string> payloads,
                                          std::span<const TakeResult> results)>;

  virtual ~PayloadStore() = default;

  // Connects (for a networked store) before the loop runs; may block
  // briefly. Errors name the store. Called once, before any other call.
  virtual absl::Status Open() { return absl::OkStatus(); }
  // Disconnects at shutdown, on the loop thread: callbacks still pending run
  // (with an error) before it returns. No call may follow.
  virtual void Close() {}

  // Keeps `payload` under `id` until taken or erased. An error (the store is
  // unreachable, or refused it) means the payload was not kept.
  virtual void Put(std::uint64_t id, std::string&& payload, PutCallback done) = 0;
  // Payloads by key (docs/protocol.md): a client wrote the payload of `id`,
  // `size` bytes, to the store itself, under the key of `id`. Checks that
  // it is there with that size without reading it, and from then on holds
  // it as if Put had kept it. Errors name the key: NotFound (no such key),
  // InvalidArgument (another size), Unavailable (as Put). A store clients
  // cannot reach (memory) refuses with FailedPrecondition.
  virtual void Adopt(std::uint64_t /*id*/, std::uint64_t /*size*/, PutCallback done) {
    done(absl::FailedPreconditionError(
        "this payload store cannot hold payloads written by clients"));
  }
  // Hands the payloads of `ids` to `done`, in order, and removes them
  // (kTaken) or keeps them until Erase (kKept). `ids` need only live for
  // the duration of the call.
  virtual void TakeBatch(std::span<const std::uint64_t> ids, TakeCallback done) = 0;
  // Forgets `id` (a dropped, expired or delivered message). Unknown ids are
  // ignored. A store may gather erases and send them at the next Flush.
  virtual void Erase(std::uint64_t id) = 0;
  // Sends what the store gathered during this loop pass (once per pass,
  // before the loop sleeps).
  virtual void Flush() {}
  // Another daemon of a federated bridge will take the payload of `id` from
  // the shared store: this store stops answering for it, and keeps it. A
  // store no other daemon can reach (memory) erases it.
  virtual void HandOver(std::uint64_t id) { Erase(id); }

  // After a burst: gives back memory held beyond what the store needs now.
  // Returns whether it did.
  virtual bool Compact() { return false; }
  // False while a networked store is unreachable (calls then fail at once).
  virtual bool available() const { return true; }
  // Payloads currently held (for stats and tests).
  virtual std::size_t size() const = 0;
  // "memory", "redis://...": what Status and logs show.
  virtual std::string_view name() const = 0;
};

using PayloadStorePtr = std::unique_ptr<PayloadStore>;

}  // namespace trestle::daemon
