#include "ring_rank.h"

#include <string_view>

#include "absl/strings/str_cat.h"

namespace trestle::examples {
namespace {

// Rank r's initial byte j. Sums mod 256 have a closed form (Expected).
constexpr std::uint64_t kRankFactor = 37;
constexpr std::uint64_t kIndexFactor = 11;

unsigned char InitialByte(std::uint64_t rank, std::uint64_t j) {
  return static_cast<unsigned char>(rank * kRankFactor + j * kIndexFactor + 1);
}

unsigned char Expected(std::uint64_t ranks, std::uint64_t j) {
  return static_cast<unsigned char>(kRankFactor * (ranks * (ranks - 1) / 2) +
                                    ranks * (j * kIndexFactor + 1));
}

}  // namespace

RingRank::RingRank(AppClient& client, std::uint32_t rank, const RingPlan& plan)
    : client_(client),
      rank_(rank),
      plan_(plan),
      next_id_(ClientId((rank + 1) % plan.ranks)),
      prev_id_(ClientId((rank + plan.ranks - 1) % plan.ranks)),
      data_(plan.ranks * plan.chunk_bytes) {
  for (std::uint64_t j = 0; j < data_.size(); ++j) data_[j] = InitialByte(rank, j);
}

std::string RingRank::ClientId(std::uint32_t rank) { return absl::StrCat("rank-", rank); }

// Reduce-scatter step s: send chunk i-s, take chunk i-s-1 and add it in; after
// N-1 steps rank i holds the whole sum of chunk i+1. All-gather step t: send
// chunk i+1-t (the one completed or taken last), take chunk i-t.
std::uint32_t RingRank::SentChunk(std::uint32_t s) const {
  const std::uint32_t n = plan_.ranks;
  if (s < n - 1) return (rank_ + n - s) % n;
  const std::uint32_t t = s - (n - 1);
  return (rank_ + 1 + n - t) % n;
}

std::uint32_t RingRank::ReceivedChunk(std::uint32_t s) const {
  return (SentChunk(s) + plan_.ranks - 1) % plan_.ranks;
}

absl::Status RingRank::Start() {
  start_ns_ = client_.Now();
  end_ns_ = start_ns_;
  return steps() == 0 ? absl::OkStatus() : SendStep();
}

absl::Status RingRank::SendStep() {
  const std::string_view chunk(
      reinterpret_cast<const char*>(data_.data()) + SentChunk(step_) * plan_.chunk_bytes,
      plan_.chunk_bytes);
  absl::StatusOr<std::uint64_t> id = client_.Send(next_id_, chunk);
  if (!id.ok()) {
    return absl::Status(id.status().code(), absl::StrCat(ClientId(rank_), ": step ", step_,
                                                         ": send to ", next_id_, " failed: ",
                                                         id.status().message()));
  }
  return absl::OkStatus();
}

absl::Status RingRank::TakeChunk(const Message& message) {
  const std::string who = absl::StrCat(ClientId(rank_), " step ", step_, ": ");
  if (done()) {
    return absl::FailedPreconditionError(
        absl::StrCat(who, "a message from ", message.src, " after the last step"));
  }
  if (message.dropped) {
    return absl::FailedPreconditionError(
        absl::StrCat(who, "the network dropped message ", message.id));
  }
  if (message.src != prev_id_) {
    return absl::InvalidArgumentError(
        absl::StrCat(who, "a message from ", message.src, ", expected one from ", prev_id_));
  }
  if (message.payload.size() != plan_.chunk_bytes) {
    return absl::InvalidArgumentError(absl::StrCat(who, "a chunk of ", message.payload.size(),
                                                   " bytes, expected ", plan_.chunk_bytes));
  }
  unsigned char* into = data_.data() + ReceivedChunk(step_) * plan_.chunk_bytes;
  const auto* from = reinterpret_cast<const unsigned char*>(message.payload.data());
  const bool reduce = step_ < plan_.ranks - 1;
  if (reduce) {
    for (std::uint64_t j = 0; j < plan_.chunk_bytes; ++j) into[j] += from[j];
    if (plan_.reduce_ns > 0) client_.Advance(plan_.reduce_ns);
  } else {
    for (std::uint64_t j = 0; j < plan_.chunk_bytes; ++j) into[j] = from[j];
  }
  ++step_;
  if (done()) {
    end_ns_ = client_.Now();
    return absl::OkStatus();
  }
  return SendStep();
}

bool RingRank::Verified() const {
  if (!done()) return false;
  for (std::uint64_t j = 0; j < data_.size(); ++j) {
    if (data_[j] != Expected(plan_.ranks, j)) return false;
  }
  return true;
}

}  // namespace trestle::examples
