#include "all_reduce_steps.h"

namespace trestle::examples {
namespace {

using fabric::CollectiveAlgorithm;

void AddRing(std::uint32_t n, std::uint32_t i, std::vector<RankStep>* steps) {
  const std::uint32_t next = (i + 1) % n;
  const std::uint32_t previous = (i + n - 1) % n;
  // Reduce-scatter step s: send chunk i-s, take chunk i-s-1 and add it in;
  // after N-1 steps rank i holds the whole sum of chunk i+1. All-gather step
  // t: send chunk i+1-t (the one completed or taken last), take chunk i-t.
  for (std::uint32_t s = 0; s + 1 < n; ++s) {
    const std::uint32_t sent = (i + n - s) % n;
    steps->push_back({next, previous, {sent, 1}, {(sent + n - 1) % n, 1}, true});
  }
  for (std::uint32_t t = 0; t + 1 < n; ++t) {
    const std::uint32_t sent = (i + 1 + n - t) % n;
    steps->push_back({next, previous, {sent, 1}, {(sent + n - 1) % n, 1}, false});
  }
}

void AddHalvingDoubling(std::uint32_t n, std::uint32_t i, std::vector<RankStep>* steps) {
  // Reduce-scatter: the segment of 2m chunks the rank still reduces is split
  // at its middle; the half on the rank's side of its partner stays.
  for (std::uint32_t m = n / 2; m >= 1; m /= 2) {
    const std::uint32_t partner = i ^ m;
    const std::uint32_t low = i & ~(2 * m - 1);
    const bool keeps_low = (i & m) == 0;
    const ChunkRange kept{keeps_low ? low : low + m, m};
    const ChunkRange given{keeps_low ? low + m : low, m};
    steps->push_back({partner, partner, given, kept, true});
  }
  // All-gather: the rank holds the m-chunk segment it belongs to, and swaps
  // it for its partner's.
  for (std::uint32_t m = 1; m < n; m *= 2) {
    const std::uint32_t partner = i ^ m;
    steps->push_back(
        {partner, partner, {i & ~(m - 1), m}, {partner & ~(m - 1), m}, false});
  }
}

void AddDirect(std::uint32_t n, std::uint32_t i, std::vector<RankStep>* steps) {
  for (std::uint32_t d = 1; d < n; ++d) {
    const std::uint32_t to = (i + d) % n;
    steps->push_back({to, (i + n - d) % n, {to, 1}, {i, 1}, true});
  }
  for (std::uint32_t d = 1; d < n; ++d) {
    const std::uint32_t from = (i + n - d) % n;
    steps->push_back({(i + d) % n, from, {i, 1}, {from, 1}, false});
  }
}

}  // namespace

std::vector<RankStep> AllReduceSteps(CollectiveAlgorithm algorithm, std::uint32_t ranks,
                                     std::uint32_t rank) {
  std::vector<RankStep> steps;
  switch (algorithm) {
    case CollectiveAlgorithm::kRing: AddRing(ranks, rank, &steps); break;
    case CollectiveAlgorithm::kHalvingDoubling: AddHalvingDoubling(ranks, rank, &steps); break;
    case CollectiveAlgorithm::kDirect: AddDirect(ranks, rank, &steps); break;
  }
  return steps;
}

}  // namespace trestle::examples
