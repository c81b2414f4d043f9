// RingRank: one rank of a ring all-reduce carried by an AppClient.
//
// N ranks "rank-0" .. "rank-(N-1)" each hold a vector of N chunks of
// chunk_bytes bytes and sum them (bytes, mod 256) in 2(N-1) steps: N-1
// reduce-scatter steps, then N-1 all-gather steps. In step s rank i sends one
// chunk to rank i+1 (mod N) and takes one chunk from rank i-1 before it sends
// in step s+1. Every message is exactly chunk_bytes long, as
// `trestle-sim sweep --collective allreduce --algorithm ring` prices them
// (ceil(size / N) bytes), so the live and offline times are comparable.
//
// After each reduce-scatter chunk the rank models the reduction's compute with
// AppClient::Advance(reduce_ns) before it sends again, as the sweep adds
// bytes / reduce-bw to every reduce step. All-gather steps copy for free.
//
// Ownership and threading: borrows `client`, which must outlive the rank and
// be connected before Start. Every call runs on the thread of the client's
// loop (from a loop callback in callback mode). Not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "trestle/app_client.h"
#include "trestle/message.h"

namespace trestle::examples {

struct RingPlan {
  std::uint32_t ranks = 2;        // >= 2
  std::uint64_t chunk_bytes = 1;  // >= 1: every message's payload
  std::uint64_t reduce_ns = 0;    // compute modelled per reduce-scatter chunk
};

class RingRank {
 public:
  RingRank(AppClient& client, std::uint32_t rank, const RingPlan& plan);

  // The client id of rank `rank`: "rank-<rank>".
  static std::string ClientId(std::uint32_t rank);

  // Records the start time (client.Now()) and sends step 0's chunk.
  absl::Status Start();

  // Takes the chunk of the current step: reduces (or, all-gathering, copies)
  // it, models the reduction time, and sends the next step's chunk if there
  // is one. Errors name the problem: a message from another app than the
  // predecessor, a dropped one, a payload of another size, one after the last
  // step (InvalidArgument / FailedPrecondition), or the Send's own error.
  absl::Status TakeChunk(const Message& message);

  std::uint32_t rank() const { return rank_; }
  std::uint32_t steps() const { return 2 * (plan_.ranks - 1); }
  std::uint32_t step() const { return step_; }  // steps completed
  bool done() const { return step_ == steps(); }
  // Virtual ns from Start to the arrival of the last chunk (valid once done).
  std::uint64_t completion_ns() const { return end_ns_ - start_ns_; }
  std::uint64_t start_ns() const { return start_ns_; }
  // Whether every byte is the sum over all ranks of their initial bytes.
  bool Verified() const;

 private:
  // The chunk sent in step s and the one received in it.
  std::uint32_t SentChunk(std::uint32_t s) const;
  std::uint32_t ReceivedChunk(std::uint32_t s) const;
  absl::Status SendStep();

  AppClient& client_;
  const std::uint32_t rank_;
  const RingPlan plan_;
  const std::string next_id_;
  const std::string prev_id_;
  std::vector<unsigned char> data_;  // ranks x chunk_bytes
  std::uint32_t step_ = 0;
  std::uint64_t start_ns_ = 0;
  std::uint64_t end_ns_ = 0;
};

}  // namespace trestle::examples
