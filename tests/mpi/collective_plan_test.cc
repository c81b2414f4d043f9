// CollectivePlan: every algorithm (and the vector forms, gather and
// scatter), on every communicator size from 1 to 9 (and every root), gives
// plans in which each message one rank sends is
// the one message its peer waits for under that label, and which run to
// the end when every rank sends a step's messages as soon as it received
// the steps before. Plus the shapes that matter: the binomial tree,
// ring blocks split by element, recursive doubling folding extra ranks in,
// reduce-scatter ending on each rank's own block, scan's chain.
#include "collective_plan.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <vector>

namespace trestle::mpi {
namespace {

using PlanOf = std::function<absl::StatusOr<CollectivePlan>(int rank, int size)>;

// Runs every rank's plan: returns "" when all finish and every message is
// taken exactly once, else what went wrong.
std::string RunPlans(int size, const PlanOf& plan_of) {
  std::vector<CollectivePlan> plans;
  for (int r = 0; r < size; ++r) {
    absl::StatusOr<CollectivePlan> p = plan_of(r, size);
    if (!p.ok()) return std::string(p.status().message());
    plans.push_back(*p);
  }
  // In flight: (from, to, label) -> count.
  std::map<std::tuple<int, int, int>, int> flying;
  std::vector<std::size_t> at(size, 0);
  std::vector<bool> sent(size, false);  // this step's sends are out
  bool moved = true;
  while (moved) {
    moved = false;
    for (int r = 0; r < size; ++r) {
      if (at[r] == plans[r].size()) continue;
      const PlanStep& step = plans[r][at[r]];
      if (!sent[r]) {
        for (const PlanSend& s : step.sends) {
          if (s.peer < 0 || s.peer >= size || s.peer == r) return "a send to a bad peer";
          flying[{r, s.peer, s.label}]++;
        }
        sent[r] = true;
        moved = true;
      }
      bool all_in = true;
      for (const PlanRecv& rv : step.recvs) {
        auto it = flying.find({rv.peer, r, rv.label});
        if (it == flying.end() || it->second == 0) all_in = false;
      }
      if (!all_in) continue;
      for (const PlanRecv& rv : step.recvs) flying[{rv.peer, r, rv.label}]--;
      ++at[r];
      sent[r] = false;
      moved = true;
    }
  }
  for (int r = 0; r < size; ++r) {
    if (at[r] != plans[r].size()) return "rank " + std::to_string(r) + " never finished";
  }
  for (const auto& [key, n] : flying) {
    if (n != 0) return "a message nobody took";
  }
  return "";
}

TEST(CollectivePlan, EveryAlgorithmRunsToTheEndOnEverySizeAndRoot) {
  for (int size = 1; size <= 9; ++size) {
    const bool pow2 = (size & (size - 1)) == 0;
    SCOPED_TRACE("size " + std::to_string(size));
    EXPECT_EQ(RunPlans(size, [](int r, int n) { return BarrierPlan(Algorithm::kDissemination, r, n); }), "");
    if (pow2) {
      EXPECT_EQ(RunPlans(size, [](int r, int n) { return BarrierPlan(Algorithm::kRecursiveDoubling, r, n); }), "");
      EXPECT_EQ(RunPlans(size, [](int r, int n) { return AllgatherPlan(Algorithm::kRecursiveDoubling, r, n, 8); }), "");
    }
    for (Algorithm a : {Algorithm::kRing, Algorithm::kRecursiveDoubling}) {
      EXPECT_EQ(RunPlans(size, [a](int r, int n) { return AllreducePlan(a, r, n, 1000, 8); }), "")
          << AlgorithmName(a);
    }
    EXPECT_EQ(RunPlans(size, [](int r, int n) { return AllgatherPlan(Algorithm::kRing, r, n, 8); }), "");
    for (Algorithm a : {Algorithm::kPairwise, Algorithm::kLinear}) {
      EXPECT_EQ(RunPlans(size, [a](int r, int n) { return AlltoallPlan(a, r, n, 8); }), "")
          << AlgorithmName(a);
    }
    std::vector<std::uint64_t> bytes(size);
    for (int r = 0; r < size; ++r) bytes[r] = 8 * (r + 1);
    EXPECT_EQ(RunPlans(size, [&](int r, int n) { return AllgathervPlan(r, n, bytes); }), "");
    EXPECT_EQ(RunPlans(size, [&](int r, int n) { return ReduceScatterPlan(r, n, bytes); }), "");
    for (bool exclusive : {false, true}) {
      EXPECT_EQ(RunPlans(size, [&](int r, int n) { return ScanPlan(r, n, 8, exclusive); }), "")
          << (exclusive ? "exscan" : "scan");
    }
    for (Algorithm a : {Algorithm::kPairwise, Algorithm::kLinear}) {
      EXPECT_EQ(RunPlans(size, [&](int r, int n) { return AlltoallvPlan(a, r, n, bytes); }), "");
    }
    for (int root = 0; root < size; ++root) {
      EXPECT_EQ(RunPlans(size, [&](int r, int n) { return GatherPlan(r, n, root, bytes); }), "");
      EXPECT_EQ(RunPlans(size, [&](int r, int n) { return ScatterPlan(r, n, root, bytes); }), "");
      for (Algorithm a : {Algorithm::kBinomial, Algorithm::kLinear}) {
        EXPECT_EQ(RunPlans(size, [a, root](int r, int n) { return BcastPlan(a, r, n, root, 8); }), "")
            << AlgorithmName(a) << " root " << root;
        EXPECT_EQ(RunPlans(size, [a, root](int r, int n) { return ReducePlan(a, r, n, root, 8); }), "")
            << AlgorithmName(a) << " root " << root;
      }
    }
  }
}

TEST(CollectivePlan, TheBinomialTreeIsMpichs) {
  // 6 ranks rooted at 2: virtual ranks 0..5 are ranks 2,3,4,5,0,1.
  EXPECT_EQ(BinomialParent(2, 6, 2), -1);
  EXPECT_EQ(BinomialChildren(2, 6, 2), (std::vector<int>{0, 4, 3}));  // v4, v2, v1
  EXPECT_EQ(BinomialParent(3, 6, 2), 2);                                // v1 -> v0
  EXPECT_EQ(BinomialParent(5, 6, 2), 4);                                // v3 -> v2
  EXPECT_EQ(BinomialChildren(4, 6, 2), (std::vector<int>{5}));          // v2: v3
  EXPECT_EQ(BinomialParent(1, 6, 2), 0);                                // v5 -> v4
  EXPECT_TRUE(BinomialChildren(1, 6, 2).empty());
}

TEST(CollectivePlan, RingAllreduceSendsOneBlockPerStepSplitByElement) {
  // 10 elements of 8 bytes on 4 ranks: blocks of 3, 3, 2, 2 elements.
  absl::StatusOr<CollectivePlan> plan = AllreducePlan(Algorithm::kRing, 1, 4, 10, 8);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->size(), 6u);
  std::vector<std::uint64_t> sent;
  std::uint64_t reduced = 0;
  for (const PlanStep& s : *plan) {
    ASSERT_EQ(s.sends.size(), 1u);
    EXPECT_EQ(s.sends[0].peer, 2);
    EXPECT_EQ(s.recvs[0].peer, 0);
    sent.push_back(s.sends[0].bytes);
    reduced += s.reduce_bytes;
  }
  // Rank 1 sends blocks 1, 0, 3 (reduce-scatter), then 2, 1, 0 (allgather).
  EXPECT_EQ(sent, (std::vector<std::uint64_t>{24, 24, 16, 16, 24, 24}));
  EXPECT_EQ(reduced, 24u + 16 + 16) << "it reduces blocks 0, 3 and 2";
}

TEST(CollectivePlan, ReduceScatterEndsReducingTheBlockEachRankReceives) {
  // Rank r passes on every block but its own, and reduces its own last.
  const std::vector<std::uint64_t> bytes{8, 16, 24, 32};
  for (int r = 0; r < 4; ++r) {
    absl::StatusOr<CollectivePlan> plan = ReduceScatterPlan(r, 4, bytes);
    ASSERT_TRUE(plan.ok());
    ASSERT_EQ(plan->size(), 3u);
    EXPECT_EQ(plan->back().reduce_bytes, bytes[r]) << "rank " << r;
    std::uint64_t sent = 0;
    for (const PlanStep& step : *plan) {
      ASSERT_EQ(step.sends.size(), 1u);
      EXPECT_EQ(step.sends[0].peer, (r + 1) % 4);
      EXPECT_EQ(step.recvs[0].peer, (r + 3) % 4);
      sent += step.sends[0].bytes;
    }
    EXPECT_EQ(sent, 80 - bytes[r]) << "rank " << r;
  }
}

TEST(CollectivePlan, ScanIsAChainUpTheRanks) {
  absl::StatusOr<CollectivePlan> first = ScanPlan(0, 4, 8, false);
  ASSERT_TRUE(first.ok());
  ASSERT_EQ(first->size(), 1u);
  EXPECT_TRUE(first->front().recvs.empty());
  EXPECT_EQ(first->front().sends[0].peer, 1);
  EXPECT_EQ(first->front().sends[0].bytes, 8u);

  absl::StatusOr<CollectivePlan> middle = ScanPlan(2, 4, 8, false);
  ASSERT_TRUE(middle.ok());
  ASSERT_EQ(middle->size(), 2u);
  EXPECT_EQ((*middle)[0].recvs[0].peer, 1);
  EXPECT_EQ((*middle)[0].reduce_bytes, 8u);
  EXPECT_EQ((*middle)[1].sends[0].peer, 3);

  // The last rank sends nothing; under exscan it has nothing to combine.
  absl::StatusOr<CollectivePlan> last = ScanPlan(3, 4, 8, false);
  absl::StatusOr<CollectivePlan> last_ex = ScanPlan(3, 4, 8, true);
  ASSERT_TRUE(last.ok() && last_ex.ok());
  ASSERT_EQ(last->size(), 1u);
  EXPECT_EQ(last->front().reduce_bytes, 8u);
  EXPECT_EQ(last_ex->front().reduce_bytes, 0u);
  EXPECT_TRUE(ScanPlan(0, 1, 8, false)->empty());
}

TEST(CollectivePlan, RecursiveDoublingFoldsInTheRanksBeyondAPowerOfTwo) {
  // 6 ranks: 0 and 2 fold into 1 and 3, which double with 4 and 5.
  absl::StatusOr<CollectivePlan> even = AllreducePlan(Algorithm::kRecursiveDoubling, 0, 6, 4, 8);
  ASSERT_TRUE(even.ok());
  ASSERT_EQ(even->size(), 2u) << "send in, wait for the result";
  EXPECT_EQ(even->at(0).sends[0].peer, 1);
  EXPECT_EQ(even->at(1).recvs[0].peer, 1);
  absl::StatusOr<CollectivePlan> odd = AllreducePlan(Algorithm::kRecursiveDoubling, 1, 6, 4, 8);
  ASSERT_TRUE(odd.ok());
  ASSERT_EQ(odd->size(), 4u) << "fold in, two rounds, send back";
  EXPECT_EQ(odd->at(1).sends[0].peer, 3);  // v0 ^ 1 = v1 = rank 3
  EXPECT_EQ(odd->at(2).sends[0].peer, 4);  // v0 ^ 2 = v2 = rank 4
  EXPECT_EQ(odd->at(3).sends[0].peer, 0);
  for (const PlanStep& s : *odd) {
    for (const PlanSend& m : s.sends) EXPECT_EQ(m.bytes, 32u);
  }
}

TEST(CollectivePlan, VectorFormsSendEachPeerItsOwnSize) {
  const std::vector<std::uint64_t> bytes = {10, 20, 30, 40};
  absl::StatusOr<CollectivePlan> ring = AllgathervPlan(1, 4, bytes);
  ASSERT_TRUE(ring.ok());
  std::vector<std::uint64_t> passed;
  for (const PlanStep& s : *ring) passed.push_back(s.sends[0].bytes);
  EXPECT_EQ(passed, (std::vector<std::uint64_t>{20, 10, 40})) << "blocks 1, 0, 3";
  absl::StatusOr<CollectivePlan> scatter = ScatterPlan(2, 4, 2, bytes);
  ASSERT_TRUE(scatter.ok());
  ASSERT_EQ(scatter->size(), 1u);
  std::vector<std::uint64_t> to;
  for (const PlanSend& s : scatter->at(0).sends) to.push_back(s.bytes);
  EXPECT_EQ(to, (std::vector<std::uint64_t>{10, 20, 40}));
  absl::StatusOr<CollectivePlan> pairwise = AlltoallvPlan(Algorithm::kPairwise, 3, 4, bytes);
  ASSERT_TRUE(pairwise.ok());
  EXPECT_EQ(pairwise->at(0).sends[0].peer, 0);
  EXPECT_EQ(pairwise->at(0).sends[0].bytes, 10u);
}

TEST(CollectivePlan, AnAlgorithmACollectiveLacksOrASizeItCannotTakeIsNamed) {
  EXPECT_EQ(BarrierPlan(Algorithm::kRing, 0, 4).status().message(),
            "barrier has no algorithm 'ring'");
  EXPECT_EQ(AllgatherPlan(Algorithm::kRecursiveDoubling, 0, 6, 8).status().message(),
            "allgather by recursive-doubling needs a power-of-two number of ranks, not 6");
  EXPECT_EQ(BarrierPlan(Algorithm::kRecursiveDoubling, 0, 3).status().message(),
            "barrier by recursive-doubling needs a power-of-two number of ranks, not 3");
}

}  // namespace
}  // namespace trestle::mpi
