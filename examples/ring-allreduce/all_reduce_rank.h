// AllReduceRank: one rank of an all-reduce carried by an AppClient, by ring,
// halving-doubling or direct exchange (AllReduceSteps).
//
// N ranks "rank-0" .. "rank-(N-1)" each hold a vector of N chunks of
// chunk_bytes bytes and sum them (bytes, mod 256). In each step the rank
// sends its step's chunks (one message) and then waits for the message its
// step brings; once it has it, it reduces (or copies) it and sends the next
// step's. Message sizes are those `trestle-sim sweep --collective allreduce
// --algorithm A` prices (ceil(size / N) bytes per chunk), so the live and
// offline times are comparable; the sweep's dataflow timing follows the same
// rule (CollectiveReplay).
//
// After each reduce-scatter message the rank models the reduction's compute
// with AppClient::Advance(round(bytes / reduce bandwidth)) before it sends
// again, as the sweep does. All-gather steps copy for free.
//
// A message may come before the rank has reached its step (from another
// partner, under halving-doubling and direct): the rank keeps it until then.
// Messages from one rank are taken in the order they arrive: the k-th
// message from rank j is the one of the k-th step that receives from j. So
// the data adds up only if the network delivers each rank's messages to this
// one in the order sent (a connection; `--ordering message` may not).
//
// Ownership and threading: borrows `client`, which must outlive the rank and
// be connected before Start. Every call runs on the thread of the client's
// loop (from a loop callback in callback mode). Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "all_reduce_steps.h"
#include "trestle/app_client.h"
#include "trestle/fabric/collective_schedule.h"
#include "trestle/message.h"

namespace trestle::examples {

struct AllReducePlan {
  fabric::CollectiveAlgorithm algorithm = fabric::CollectiveAlgorithm::kRing;
  std::uint32_t ranks = 2;        // >= 2; a power of two for halving-doubling
  std::uint64_t chunk_bytes = 1;  // >= 1
  double reduce_bytes_per_ns = 0; // 0: reductions take no virtual time
};

class AllReduceRank {
 public:
  AllReduceRank(AppClient& client, std::uint32_t rank, const AllReducePlan& plan);

  // The client id of rank `rank`: "rank-<rank>".
  static std::string ClientId(std::uint32_t rank);
  // The compute modelled for reducing `bytes`: round(bytes / bandwidth) ns.
  static std::uint64_t ReduceNs(const AllReducePlan& plan, std::uint64_t bytes);

  // Records the start time (client.Now()) and sends step 0's message.
  absl::Status Start();

  // Takes a message from another rank: reduces (or, all-gathering, copies)
  // it if it is the current step's, and every kept one that follows, sending
  // the next step's message after each; keeps it otherwise. Errors name the
  // problem: a message from an app that is no partner of a step left, a
  // dropped one, a payload of another size than its step's, one after the
  // last step (InvalidArgument / FailedPrecondition), or the Send's own
  // error.
  absl::Status TakeMessage(const Message& message);

  std::uint32_t rank() const { return rank_; }
  std::uint32_t steps() const { return static_cast<std::uint32_t>(steps_.size()); }
  std::uint32_t step() const { return step_; }  // steps completed
  bool done() const { return step_ == steps(); }
  // Virtual ns from Start to the end of the last step (valid once done).
  std::uint64_t completion_ns() const { return end_ns_ - start_ns_; }
  std::uint64_t start_ns() const { return start_ns_; }
  // Whether every byte is the sum over all ranks of their initial bytes.
  bool Verified() const;

 private:
  absl::Status SendStep();
  // Adds (or copies) `payload` into the current step's chunks, models the
  // reduction, and moves to the next step, sending its message.
  absl::Status Apply(const std::string& payload);
  std::uint64_t Bytes(const ChunkRange& range) const { return range.count * plan_.chunk_bytes; }

  AppClient& client_;
  const std::uint32_t rank_;
  const AllReducePlan plan_;
  const std::vector<RankStep> steps_;
  // The ranks this one receives from, by rank: the steps that receive from
  // each, in order, and how many of its messages have come. Only the ranks
  // the algorithm names (one for the ring): a table over every rank would
  // make each rank's state, and each message's look-up, N times larger.
  struct Source {
    std::uint32_t rank = 0;
    std::uint32_t received = 0;
    std::vector<std::uint32_t> steps;
  };
  // The source `rank`, or null if the algorithm has none by that number.
  Source* SourceOf(std::uint32_t rank);
  std::vector<Source> sources_;
  std::map<std::uint32_t, std::string> kept_;  // step -> payload, ahead of step_
  std::vector<unsigned char> data_;            // ranks x chunk_bytes
  std::string to_;                             // SendStep's: the destination's id
  std::uint32_t step_ = 0;
  std::uint64_t start_ns_ = 0;
  std::uint64_t end_ns_ = 0;
};

}  // namespace trestle::examples
