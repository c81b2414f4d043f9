#include "all_reduce_rank.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string_view>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace trestle::examples {
namespace {

// Rank r's initial byte j. Sums mod 256 have a closed form (Expected).
constexpr std::uint64_t kRankFactor = 37;
constexpr std::uint64_t kIndexFactor = 11;
constexpr absl::string_view kIdPrefix = "rank-";

unsigned char InitialByte(std::uint64_t rank, std::uint64_t j) {
  return static_cast<unsigned char>(rank * kRankFactor + j * kIndexFactor + 1);
}

unsigned char Expected(std::uint64_t ranks, std::uint64_t j) {
  return static_cast<unsigned char>(kRankFactor * (ranks * (ranks - 1) / 2) +
                                    ranks * (j * kIndexFactor + 1));
}

}  // namespace

AllReduceRank::AllReduceRank(AppClient& client, std::uint32_t rank, const AllReducePlan& plan)
    : client_(client),
      rank_(rank),
      plan_(plan),
      steps_(AllReduceSteps(plan.algorithm, plan.ranks, rank)),
      data_(plan.ranks * plan.chunk_bytes) {
  unsigned char* data = data_.data();
  const std::uint64_t size = data_.size();
  for (std::uint64_t j = 0; j < size; ++j) data[j] = InitialByte(rank, j);
  for (std::uint32_t s = 0; s < steps_.size(); ++s) {
    Source* source = SourceOf(steps_[s].receive_from);
    if (source == nullptr) {
      const std::uint32_t from = steps_[s].receive_from;
      auto at = std::lower_bound(sources_.begin(), sources_.end(), from,
                                 [](const Source& x, std::uint32_t r) { return x.rank < r; });
      source = &*sources_.insert(at, Source{from, 0, {}});
    }
    source->steps.push_back(s);
  }
}

AllReduceRank::Source* AllReduceRank::SourceOf(std::uint32_t rank) {
  auto at = std::lower_bound(sources_.begin(), sources_.end(), rank,
                             [](const Source& x, std::uint32_t r) { return x.rank < r; });
  return at != sources_.end() && at->rank == rank ? &*at : nullptr;
}

std::string AllReduceRank::ClientId(std::uint32_t rank) { return absl::StrCat(kIdPrefix, rank); }

std::uint64_t AllReduceRank::ReduceNs(const AllReducePlan& plan, std::uint64_t bytes) {
  if (!(plan.reduce_bytes_per_ns > 0)) return 0;
  return static_cast<std::uint64_t>(
      std::llround(static_cast<double>(bytes) / plan.reduce_bytes_per_ns));
}

absl::Status AllReduceRank::Start() {
  start_ns_ = client_.Now();
  end_ns_ = start_ns_;
  return done() ? absl::OkStatus() : SendStep();
}

absl::Status AllReduceRank::SendStep() {
  const RankStep& step = steps_[step_];
  const std::string_view chunks(
      reinterpret_cast<const char*>(data_.data()) + step.send.first * plan_.chunk_bytes,
      Bytes(step.send));
  // The destination's id in a buffer kept for it: no allocation per message.
  to_.assign(kIdPrefix.data(), kIdPrefix.size());
  absl::StrAppend(&to_, step.send_to);
  absl::StatusOr<std::uint64_t> id = client_.Send(to_, chunks);
  if (!id.ok()) {
    return absl::Status(id.status().code(), absl::StrCat(ClientId(rank_), ": step ", step_,
                                                         ": send to ", to_, " failed: ",
                                                         id.status().message()));
  }
  return absl::OkStatus();
}

absl::Status AllReduceRank::TakeMessage(const Message& message) {
  // Only an error names the rank and step: no text per message.
  auto who = [this] { return absl::StrCat(ClientId(rank_), " step ", step_, ": "); };
  if (done()) {
    return absl::FailedPreconditionError(
        absl::StrCat(who(), "a message from ", message.src, " after the last step"));
  }
  if (message.dropped) {
    return absl::FailedPreconditionError(
        absl::StrCat(who(), "the network dropped message ", message.id));
  }
  std::uint32_t from = 0;
  const absl::string_view src(message.src);
  Source* source = nullptr;
  if (src.substr(0, kIdPrefix.size()) == kIdPrefix &&
      absl::SimpleAtoi(src.substr(kIdPrefix.size()), &from)) {
    source = SourceOf(from);
  }
  if (source == nullptr || source->received >= source->steps.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(who(), "a message from ", message.src, ", which sends this rank nothing more"));
  }
  const std::uint32_t step = source->steps[source->received++];
  if (message.payload.size() != Bytes(steps_[step].receive)) {
    return absl::InvalidArgumentError(absl::StrCat(who(), "a message of ", message.payload.size(),
                                                   " bytes from ", message.src, " for step ",
                                                   step, ", expected ",
                                                   Bytes(steps_[step].receive)));
  }
  if (step != step_) {
    kept_.emplace(step, message.payload);
    return absl::OkStatus();
  }
  if (absl::Status s = Apply(message.payload); !s.ok()) return s;
  // Messages kept for the steps that follow.
  for (auto it = kept_.find(step_); it != kept_.end(); it = kept_.find(step_)) {
    const std::string payload = std::move(it->second);
    kept_.erase(it);
    if (absl::Status s = Apply(payload); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status AllReduceRank::Apply(const std::string& payload) {
  const RankStep& step = steps_[step_];
  // The bound in a local: a store through unsigned char* may alias anything,
  // so a bound read through a member would be read again every byte.
  const std::uint64_t n = payload.size();
  unsigned char* into = data_.data() + step.receive.first * plan_.chunk_bytes;
  const auto* from = reinterpret_cast<const unsigned char*>(payload.data());
  if (step.reduce) {
    for (std::uint64_t j = 0; j < n; ++j) into[j] += from[j];
    if (const std::uint64_t ns = ReduceNs(plan_, n); ns > 0) client_.Advance(ns);
  } else {
    std::memcpy(into, from, n);
  }
  ++step_;
  if (done()) {
    end_ns_ = client_.Now();
    return absl::OkStatus();
  }
  return SendStep();
}

bool AllReduceRank::Verified() const {
  if (!done()) return false;
  const std::uint64_t ranks = plan_.ranks;
  const std::uint64_t size = data_.size();
  for (std::uint64_t j = 0; j < size; ++j) {
    if (data_[j] != Expected(ranks, j)) return false;
  }
  return true;
}

}  // namespace trestle::examples
