// MirrorInbox: every mirror this rank has taken from Trestle and not yet
// consumed. Point-to-point mirrors go to the SourceQueue of their
// (communicator, sender); a collective step's mirror waits, keyed by
// (communicator, instance, label, sender), for the step that consumes it;
// the end of a batch of collectives is counted.
// Mirrors may arrive for a communicator this rank has not registered yet
// (a member that finished creating it first): they are kept by id alike.
//
// Single-threaded (the thread that pumps the rank's Trestle client).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "mirror_header.h"
#include "source_queue.h"

namespace trestle::mpi {

class MirrorInbox {
 public:
  // Takes in one delivered mirror.
  void TakeIn(const MirrorHeader& header, std::uint64_t t_deliver);

  // The queue of mirrors from `src_world` on `comm_id` (made on first use).
  SourceQueue& Queue(std::uint64_t comm_id, int src_world);
  // The queue, or null if nothing from that sender on it was ever asked for.
  const SourceQueue* FindQueue(std::uint64_t comm_id, int src_world) const;
  // Every queue of `comm_id` (for receives from MPI_ANY_SOURCE).
  const std::vector<SourceQueue*>& QueuesOf(std::uint64_t comm_id) const;

  // A collective step's mirror: whether it is here; taking it returns its
  // t_deliver and forgets it.
  bool HasStep(std::uint64_t comm_id, std::uint32_t instance, std::int32_t label,
               int src_world) const;
  std::optional<std::uint64_t> TakeStep(std::uint64_t comm_id, std::uint32_t instance,
                                        std::int32_t label, int src_world);
  std::size_t steps_waiting() const { return steps_.size(); }

  // Batches of collectives (CollectiveBatch) whose end has come.
  std::uint64_t batches_ended() const { return batches_ended_; }

 private:
  using QueueKey = std::pair<std::uint64_t, int>;
  using StepKey = std::tuple<std::uint64_t, std::uint32_t, std::int32_t, int>;

  absl::flat_hash_map<QueueKey, std::unique_ptr<SourceQueue>> queues_;
  absl::flat_hash_map<std::uint64_t, std::vector<SourceQueue*>> by_comm_;
  absl::flat_hash_map<StepKey, std::uint64_t> steps_;
  std::uint64_t taken_ = 0;  // point-to-point mirrors taken in so far
  std::uint64_t batches_ended_ = 0;
};

}  // namespace trestle::mpi
