// TrestleLink: a rank's lockstep app on trestled. It mirrors messages
// (32-byte MirrorHeaders sent with model_size = the real size), keeps the
// rank's virtual clock (the AppClient's Now()), and takes delivered mirrors
// into the MirrorInbox, only ever as a blocked app or up to its own clock,
// so that the clock moves exactly as the model says:
//  - WaitStep: the rank waits for a message (blocked, no wake time): takes
//    the next delivered mirror, whose t_deliver the clock moves to. Safe
//    while the rank waits for a receive: what is handed over first is never
//    later than what it waits for.
//  - SyncToNow: takes every mirror delivered at or before Now(), without
//    moving the clock (a test's deterministic answer).
//  - ReportBlocked: says the rank waits, taking nothing more than what is
//    already here (before a BlockedWindow).
// Client id of world rank K: options.id_prefix + K. A mirror the network
// model drops is reported back (notify_drop) and ends the run.
//
// Threading: one thread at a time (the rank's main thread, or a
// BlockedWindow's helper while the main thread is in a real MPI call).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "layer_options.h"
#include "mirror_header.h"
#include "mirror_inbox.h"
#include "trestle/app_client.h"

namespace trestle::mpi {

class Timeline;

class TrestleLink {
 public:
  enum class Step : std::uint8_t {
    kTook,       // a mirror was taken into the inbox
    kNothing,    // the slice passed
    kQuiescent,  // every app of the run waits and nothing is in flight
  };

  // `inbox` must outlive the link.
  TrestleLink(const LayerOptions& options, int world_rank, int world_size, MirrorInbox& inbox);
  ~TrestleLink();

  absl::Status Connect();
  // After Connect: the run's simulators, as the daemon's Welcome named them.
  const google::protobuf::RepeatedPtrField<wire::SimulatorInfo>& simulators() const {
    return client_->simulators();
  }
  // Ends the session (Bye): the rank no longer holds the run's time back.
  absl::Status Close();

  std::uint64_t Now() const { return client_->Now(); }
  void Advance(std::uint64_t ns) {
    if (ns != 0) client_->Advance(ns);
  }

  // Mirrors a message of `header.bytes` real bytes to world rank `dst_world`
  // at Now().
  absl::Status Send(int dst_world, const MirrorHeader& header);
  // Sends `collectives` (a serialized wire::CollectiveBatch, batch number
  // `number`) to the rank itself at Now(): delivered when the simulator has
  // replayed them, at the end of the last (docs/protocol.md, "Collectives").
  absl::Status SendCollectives(std::uint32_t number, std::string_view collectives);

  // As described above. Errors: the session lost, a drop report, a
  // delivery that is not a mirror.
  absl::StatusOr<Step> WaitStep(std::chrono::milliseconds slice);
  // `poll` runs between slices (real MPI progress).
  absl::Status SyncToNow(const std::function<void()>& poll);
  absl::Status ReportBlocked();

  // Every mirror sent and taken in is also noted in `timeline` (null: none;
  // it must outlive the link).
  void set_timeline(Timeline* timeline) { timeline_ = timeline; }

  const std::string& id_of(int world_rank) const { return ids_[world_rank]; }
  const std::vector<std::string>& ids() const { return ids_; }
  int world_rank() const { return world_rank_; }

 private:
  // Takes `m` into the inbox; errors for a drop report or a non-mirror.
  absl::Status TakeIn(const Message& m);

  MirrorInbox& inbox_;
  Timeline* timeline_ = nullptr;
  const int world_rank_;
  std::vector<std::string> ids_;
  std::unique_ptr<AppClient> client_;
  std::string header_bytes_;  // reused for every Send
  absl::flat_hash_set<std::uint64_t> batch_ids_;  // batches of collectives not ended yet
  absl::Status error_;  // the first asynchronous error (OnError)
};

}  // namespace trestle::mpi
