// MaxMinFairSolver: shares computed by hand (one link, a flow limited
// elsewhere, a three-link chain), traffic classes (guarantees, weights, a
// class alone), congestion control off (occupancy upstream of a bottleneck),
// and long random sequences of starts and finishes checked against an
// independent progressive-filling solution and against a solve from scratch.
#include "trestle/fabric/max_min_fair_solver.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <vector>

namespace trestle::fabric {
namespace {

using Flow = MaxMinFairSolver::FlowHandle;
using Sharing = MaxMinFairSolver::Sharing;

// A solver over links 0..n-1 with the given capacities.
MaxMinFairSolver Make(std::vector<double> capacities, MaxMinFairSolver::Options options = {}) {
  const auto n = static_cast<MaxMinFairSolver::ResourceId>(capacities.size());
  return MaxMinFairSolver(
      n, [capacities](MaxMinFairSolver::ResourceId id) { return capacities[id]; },
      std::move(options));
}

void ExpectConsistent(const MaxMinFairSolver& solver) {
  EXPECT_TRUE(solver.CheckCapacity().ok()) << solver.CheckCapacity();
  EXPECT_TRUE(solver.CheckFixedPoint().ok()) << solver.CheckFixedPoint();
}

TEST(MaxMinFairSolver, TwoFlowsOnOneLinkGetHalfEach) {
  MaxMinFairSolver solver = Make({10});
  const Flow a = solver.AddFlow({0}, 0);
  solver.Solve();
  EXPECT_EQ(solver.Rate(a), 10) << "alone: the whole link";
  const Flow b = solver.AddFlow({0}, 0);
  solver.Solve();
  EXPECT_EQ(solver.Rate(a), 5);
  EXPECT_EQ(solver.Rate(b), 5);
  EXPECT_THAT(solver.Changed(), ::testing::UnorderedElementsAre(a, b));
  solver.RemoveFlow(a);
  solver.Solve();
  EXPECT_EQ(solver.Rate(b), 10);
  EXPECT_THAT(solver.Changed(), ::testing::ElementsAre(b));
  ExpectConsistent(solver);
}

TEST(MaxMinFairSolver, AFlowLimitedElsewhereLeavesItsShareToTheOther) {
  // Link 0 (10) carries a and b; b also crosses link 1 (2), which limits it.
  MaxMinFairSolver solver = Make({10, 2});
  const Flow a = solver.AddFlow({0}, 0);
  const Flow b = solver.AddFlow({0, 1}, 0);
  solver.Solve();
  EXPECT_DOUBLE_EQ(solver.Rate(b), 2);
  EXPECT_DOUBLE_EQ(solver.Rate(a), 8);
  ExpectConsistent(solver);
}

TEST(MaxMinFairSolver, ThreeLinkChainByHand) {
  // Links 0 (10), 1 (4), 2 (6). The long flow crosses all three; one short
  // flow on each link; a fifth crosses links 0 and 1.
  //   link 1 is the tightest: long, short1, two-hop share 4 -> 4/3 each;
  //   link 0: 10 - 4/3 - 4/3 = 22/3 for short0; link 2: 6 - 4/3 = 14/3 for short2.
  MaxMinFairSolver solver = Make({10, 4, 6});
  const Flow long_flow = solver.AddFlow({0, 1, 2}, 0);
  const Flow short0 = solver.AddFlow({0}, 0);
  const Flow short1 = solver.AddFlow({1}, 0);
  const Flow short2 = solver.AddFlow({2}, 0);
  const Flow two_hop = solver.AddFlow({0, 1}, 0);
  solver.Solve();
  EXPECT_NEAR(solver.Rate(long_flow), 4.0 / 3, 1e-12);
  EXPECT_NEAR(solver.Rate(short1), 4.0 / 3, 1e-12);
  EXPECT_NEAR(solver.Rate(two_hop), 4.0 / 3, 1e-12);
  EXPECT_NEAR(solver.Rate(short0), 22.0 / 3, 1e-12);
  EXPECT_NEAR(solver.Rate(short2), 14.0 / 3, 1e-12);
  ExpectConsistent(solver);
  // The two-hop flow leaves: link 1 is shared by two (2 each), link 0 gives
  // short0 10 - 2 = 8, link 2 gives short2 6 - 2 = 4.
  solver.RemoveFlow(two_hop);
  solver.Solve();
  EXPECT_NEAR(solver.Rate(long_flow), 2, 1e-12);
  EXPECT_NEAR(solver.Rate(short0), 8, 1e-12);
  EXPECT_NEAR(solver.Rate(short2), 4, 1e-12);
  ExpectConsistent(solver);
}

TEST(MaxMinFairSolver, ADemandCapLimitsAFlow) {
  MaxMinFairSolver solver = Make({10});
  const Flow capped = solver.AddFlow({0}, 0, 1.5);
  const Flow other = solver.AddFlow({0}, 0);
  solver.Solve();
  EXPECT_DOUBLE_EQ(solver.Rate(capped), 1.5);
  EXPECT_DOUBLE_EQ(solver.Rate(other), 8.5);
}

// Each flow's rate (to 1e-12), then the capacity and fixed-point checks.
void ExpectRates(const MaxMinFairSolver& solver, std::vector<std::pair<Flow, double>> rates) {
  for (const auto& [flow, rate] : rates) {
    EXPECT_NEAR(solver.Rate(flow), rate, 1e-12) << "flow " << flow;
  }
  ExpectConsistent(solver);
}

// One class end to end, a link's evaluation looks only at the flows it may
// limit (its candidates) while the others stay clearly below its level. Here
// a flow that is not one of link 0's candidates (limited on link 1) gains
// rate on link 1, first staying below link 0's level, then reaching it.
TEST(MaxMinFairSolver, AFlowGainingElsewhereTakesWhatItsOtherLinkLeavesIt) {
  // Link 0 (10): a and b. Link 1 (12): b, c, d, e.
  MaxMinFairSolver solver = Make({10, 12});
  const Flow a = solver.AddFlow({0}, 0);
  const Flow b = solver.AddFlow({0, 1}, 0);
  const Flow c = solver.AddFlow({1}, 0);
  const Flow d = solver.AddFlow({1}, 0);
  const Flow e = solver.AddFlow({1}, 0);
  solver.Solve();
  // Link 1 is the tighter: 12 / 4 = 3 each; a gets 10 - 3.
  ExpectRates(solver, {{b, 3}, {c, 3}, {a, 7}});
  solver.RemoveFlow(c);
  solver.Solve();
  // Link 1: 4 each; b stays below link 0's level (6).
  ExpectRates(solver, {{b, 4}, {d, 4}, {e, 4}, {a, 6}});
  EXPECT_THAT(solver.Changed(), ::testing::UnorderedElementsAre(a, b, d, e));
  solver.RemoveFlow(d);
  solver.Solve();
  // Link 1 would give b 6, link 0 only 5: b is now limited on link 0, and e
  // takes the rest of link 1.
  ExpectRates(solver, {{a, 5}, {b, 5}, {e, 7}});
  // A new flow on link 1 makes it the tighter again (12 / 3 = 4): b, one
  // of link 0's candidates, is limited elsewhere and leaves a the rest.
  const Flow f = solver.AddFlow({1}, 0);
  solver.Solve();
  ExpectRates(solver, {{b, 4}, {e, 4}, {f, 4}, {a, 6}});
  EXPECT_THAT(solver.Changed(), ::testing::UnorderedElementsAre(a, b, e, f));
}

// More flows limited on one link than the solver keeps as its candidates.
TEST(MaxMinFairSolver, ManyFlowsLimitedOnOneLink) {
  // Link 0 (30): twelve flows alone and two that also cross link 1 (3).
  MaxMinFairSolver solver = Make({30, 3});
  std::vector<Flow> alone;
  for (int i = 0; i < 12; ++i) alone.push_back(solver.AddFlow({0}, 0));
  const Flow both1 = solver.AddFlow({0, 1}, 0);
  const Flow both2 = solver.AddFlow({0, 1}, 0);
  auto each_alone = [&](double rate) {
    std::vector<std::pair<Flow, double>> rates;
    for (Flow flow : alone) rates.emplace_back(flow, rate);
    return rates;
  };
  solver.Solve();
  // Link 1: 1.5 each; link 0: (30 - 3) / 12 = 2.25 each.
  ExpectRates(solver, each_alone(2.25));
  ExpectRates(solver, {{both1, 1.5}, {both2, 1.5}});
  // One leaves link 1: the other could take 3 there, but link 0 gives its
  // thirteen flows 30 / 13 each.
  solver.RemoveFlow(both2);
  solver.Solve();
  ExpectRates(solver, each_alone(30.0 / 13));
  ExpectRates(solver, {{both1, 30.0 / 13}});
  // Three more: 30 / 16 each; then all but two of the lone flows leave.
  for (int i = 0; i < 3; ++i) alone.push_back(solver.AddFlow({0}, 0));
  solver.Solve();
  ExpectRates(solver, each_alone(30.0 / 16));
  while (alone.size() > 2) {
    solver.RemoveFlow(alone.back());
    alone.pop_back();
    solver.Solve();
    ExpectConsistent(solver);
  }
  // Link 1 holds both1 to 3; the two lone flows share the rest of link 0.
  ExpectRates(solver, each_alone(13.5));
  ExpectRates(solver, {{both1, 3}});
}

MaxMinFairSolver::Options Classes(std::vector<ClassShare> classes) {
  MaxMinFairSolver::Options options;
  options.classes = std::move(classes);
  return options;
}

TEST(MaxMinFairSolver, ClassesWithEightyAndTwentyPercentMinimumsSplitEightyTwenty) {
  // Class 1: min 80 %, class 2: min 20 %; both saturate the link.
  MaxMinFairSolver solver = Make({10}, Classes({{}, {1, 0.8}, {1, 0.2}}));
  const Flow first = solver.AddFlow({0}, 1);
  const Flow second = solver.AddFlow({0}, 2);
  const Flow second_too = solver.AddFlow({0}, 2);
  solver.Solve();
  EXPECT_DOUBLE_EQ(solver.Rate(first), 8);
  EXPECT_DOUBLE_EQ(solver.Rate(second) + solver.Rate(second_too), 2);
  EXPECT_DOUBLE_EQ(solver.Rate(second), 1) << "max-min inside the class";
  ExpectConsistent(solver);
  // The first finishes: the second class is alone and gets all of it.
  solver.RemoveFlow(first);
  solver.Solve();
  EXPECT_DOUBLE_EQ(solver.Rate(second) + solver.Rate(second_too), 10);
}

TEST(MaxMinFairSolver, AClassAloneGetsTheWholeLinkWhateverItsMinimum) {
  MaxMinFairSolver solver = Make({10}, Classes({{}, {1, 0.2}}));
  const Flow f = solver.AddFlow({0}, 1);
  solver.Solve();
  EXPECT_EQ(solver.Rate(f), 10);
}

TEST(MaxMinFairSolver, WeightsShareWhatIsNotGuaranteed) {
  // Weights 3 : 1, no minimums: 7.5 / 2.5.
  MaxMinFairSolver solver = Make({10}, Classes({{}, {3, 0}, {1, 0}}));
  const Flow heavy = solver.AddFlow({0}, 1);
  const Flow light = solver.AddFlow({0}, 2);
  solver.Solve();
  EXPECT_DOUBLE_EQ(solver.Rate(heavy), 7.5);
  EXPECT_DOUBLE_EQ(solver.Rate(light), 2.5);
  // Minimums 80 % and 10 %, equal weights: the spare 10 % is shared by
  // weight, 85 / 15.
  MaxMinFairSolver spare = Make({10}, Classes({{}, {1, 0.8}, {1, 0.1}}));
  const Flow a = spare.AddFlow({0}, 1);
  const Flow b = spare.AddFlow({0}, 2);
  spare.Solve();
  EXPECT_DOUBLE_EQ(spare.Rate(a), 8.5);
  EXPECT_DOUBLE_EQ(spare.Rate(b), 1.5);
}

TEST(MaxMinFairSolver, AClassThatWantsLessLeavesTheRestToTheOthers) {
  // Class 1 is guaranteed 80 % but its flow is limited to 3 by link 1:
  // work-conserving, class 2 takes the other 7.
  MaxMinFairSolver solver = Make({10, 3}, Classes({{}, {1, 0.8}, {1, 0.2}}));
  const Flow limited = solver.AddFlow({0, 1}, 1);
  const Flow greedy = solver.AddFlow({0}, 2);
  solver.Solve();
  EXPECT_DOUBLE_EQ(solver.Rate(limited), 3);
  EXPECT_DOUBLE_EQ(solver.Rate(greedy), 7);
  ExpectConsistent(solver);
}

TEST(MaxMinFairSolver, WithoutCongestionControlBackedUpTrafficKeepsItsRateUpstream) {
  // Two hot flows (injection links 0 and 1) cross the shared link 2 (20) to
  // ejection link 3 (10), which a third hot flow (injection 4) also reaches:
  // the ejection gives each 10/3. A victim (injection 5, 20) crosses link 2
  // on its way out by link 6 (20).
  for (Sharing sharing : {Sharing::kEndToEnd, Sharing::kUpstream}) {
    MaxMinFairSolver::Options options;
    options.sharing = sharing;
    MaxMinFairSolver solver = Make({10, 10, 20, 10, 10, 20, 20}, options);
    const Flow hot1 = solver.AddFlow({0, 2, 3}, 0);
    const Flow hot2 = solver.AddFlow({1, 2, 3}, 0);
    const Flow hot3 = solver.AddFlow({4, 3}, 0);
    const Flow victim = solver.AddFlow({5, 2, 6}, 0);
    solver.Solve();
    for (Flow hot : {hot1, hot2, hot3}) EXPECT_NEAR(solver.Rate(hot), 10.0 / 3, 1e-9);
    ExpectConsistent(solver);
    if (sharing == Sharing::kEndToEnd) {
      // The hot flows take 10/3 each on link 2: the victim gets 20 - 20/3.
      EXPECT_NEAR(solver.Rate(victim), 40.0 / 3, 1e-9);
      EXPECT_NEAR(solver.Occupancy(hot1, 1), 10.0 / 3, 1e-9);
    } else {
      // They arrive at link 2 with 10 each and the victim with 20: a third each.
      EXPECT_NEAR(solver.Rate(victim), 20.0 / 3, 1e-9);
      EXPECT_NEAR(solver.Occupancy(hot1, 0), 10, 1e-9);
      EXPECT_NEAR(solver.Occupancy(hot1, 1), 20.0 / 3, 1e-9);
      EXPECT_NEAR(solver.Occupancy(hot1, 2), 10.0 / 3, 1e-9);
    }
  }
}

TEST(MaxMinFairSolver, ValidateNamesTheClass) {
  MaxMinFairSolver::Options options = Classes({{}, {0, 0}});
  EXPECT_THAT(std::string(MaxMinFairSolver::Validate(options).message()),
              ::testing::HasSubstr("class 1: weight must be a positive number"));
  options = Classes({{}, {1, 0.7}, {1, 0.4}});
  EXPECT_THAT(std::string(MaxMinFairSolver::Validate(options).message()),
              ::testing::HasSubstr("add up to 110%"));
  EXPECT_TRUE(MaxMinFairSolver::Validate(Classes({{}, {1, 0.8}, {1, 0.2}})).ok());
  EXPECT_FALSE(MaxMinFairSolver::Validate(Classes({})).ok());
}

// Progressive filling, from scratch: raise every unfrozen flow together until
// a link fills, freeze its flows, repeat. One class, end to end.
std::vector<double> ProgressiveFilling(const std::vector<double>& capacity,
                                       const std::vector<std::vector<std::uint32_t>>& paths) {
  std::vector<double> rate(paths.size(), 0);
  std::vector<bool> frozen(paths.size(), false);
  std::vector<double> left = capacity;
  std::size_t unfrozen = paths.size();
  while (unfrozen > 0) {
    double best = std::numeric_limits<double>::infinity();
    std::size_t best_link = 0;
    for (std::size_t l = 0; l < capacity.size(); ++l) {
      std::size_t n = 0;
      for (std::size_t f = 0; f < paths.size(); ++f) {
        if (!frozen[f] && std::count(paths[f].begin(), paths[f].end(), l)) ++n;
      }
      if (n > 0 && left[l] / n < best) {
        best = left[l] / n;
        best_link = l;
      }
    }
    for (std::size_t f = 0; f < paths.size(); ++f) {
      if (frozen[f] || !std::count(paths[f].begin(), paths[f].end(), best_link)) continue;
      frozen[f] = true;
      --unfrozen;
      rate[f] = best;
      for (std::uint32_t l : paths[f]) left[l] -= best;
    }
  }
  return rate;
}

// 1 to 4 distinct links among `links`.
std::vector<std::uint32_t> RandomPath(std::mt19937_64& rng, std::size_t links) {
  std::vector<std::uint32_t> path;
  const std::size_t length = 1 + rng() % 4;
  while (path.size() < length) {
    const auto l = static_cast<std::uint32_t>(rng() % links);
    if (!std::count(path.begin(), path.end(), l)) path.push_back(l);
  }
  return path;
}

// Removes a random flow of `live` (a map from flow) from it and the solver.
template <typename Live>
void RemoveOne(std::mt19937_64& rng, MaxMinFairSolver& solver, Live& live) {
  auto it = live.begin();
  std::advance(it, rng() % live.size());
  solver.RemoveFlow(it->first);
  live.erase(it);
}

// Starts flows (1 to 4 distinct links, one class, end to end) when
// `start(live flows)` says so and finishes random ones otherwise, `events`
// times; after every solve the rates must be progressive filling's. Returns
// the flows left.
template <typename StartFn>
std::size_t CheckAgainstProgressiveFilling(MaxMinFairSolver& solver,
                                           const std::vector<double>& capacity, int events,
                                           std::mt19937_64& rng, StartFn start) {
  std::map<Flow, std::vector<std::uint32_t>> live;
  for (int event = 0; event < events; ++event) {
    if (live.empty() || start(live.size())) {
      const std::vector<std::uint32_t> path = RandomPath(rng, capacity.size());
      live[solver.AddFlow(path, 0)] = path;
    } else {
      RemoveOne(rng, solver, live);
    }
    solver.Solve();
    std::vector<std::vector<std::uint32_t>> paths;
    for (const auto& [flow, path] : live) paths.push_back(path);
    const std::vector<double> expected = ProgressiveFilling(capacity, paths);
    std::size_t i = 0;
    for (const auto& [flow, path] : live) {
      EXPECT_NEAR(solver.Rate(flow), expected[i], 1e-7 * expected[i]) << "event " << event;
      ++i;
    }
    EXPECT_TRUE(solver.CheckCapacity().ok()) << solver.CheckCapacity();
    if (::testing::Test::HasFailure()) break;
  }
  return live.size();
}

TEST(MaxMinFairSolver, IncrementalSolvesMatchProgressiveFillingFromScratch) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 20 && !HasFailure(); ++trial) {
    SCOPED_TRACE(::testing::Message() << "trial " << trial);
    const std::size_t links = 4 + rng() % 12;
    std::vector<double> capacity(links);
    for (double& c : capacity) c = 1 + rng() % 8;
    MaxMinFairSolver solver = Make(capacity);
    CheckAgainstProgressiveFilling(solver, capacity, 200, rng,
                                   [&](std::size_t) { return rng() % 3 != 0; });
    EXPECT_GT(solver.total_evaluations(), 0u);
  }
}

// Crowded links (tens of flows each, many limited on the same link, more
// than the solver keeps as candidates on some), fractional capacities, and
// long runs: every solve must still be progressive filling's answer.
TEST(MaxMinFairSolver, OnCrowdedLinksIncrementalSolvesMatchProgressiveFilling) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 4 && !HasFailure(); ++trial) {
    SCOPED_TRACE(::testing::Message() << "trial " << trial);
    const std::size_t links = 6 + rng() % 6;
    std::vector<double> capacity(links);
    for (double& c : capacity) c = 0.5 + static_cast<double>(rng() % 1000) / 100;
    MaxMinFairSolver solver = Make(capacity);
    // Grow to about 120 flows, then come and go.
    const std::size_t left =
        CheckAgainstProgressiveFilling(solver, capacity, 400, rng, [&](std::size_t live) {
          return rng() % 4 < (live < 120 ? 3u : 2u);
        });
    EXPECT_GE(left, 60u) << "the links were not crowded";
  }
}

// With classes and with congestion control off there is no simple reference:
// after every solve the rates must respect capacity and be the fixed point
// (with several classes, an approximate solve guarantees it only for the
// class allocations it froze, and must stay rare); at the end, a fresh solver
// given the same flows must agree.
TEST(MaxMinFairSolver, WithClassesAndWithoutCongestionControlIncrementalEqualsFromScratch) {
  std::mt19937_64 rng(7);
  for (Sharing sharing : {Sharing::kEndToEnd, Sharing::kUpstream}) {
    std::uint64_t solves = 0, approximate = 0;
    for (int trial = 0; trial < 10; ++trial) {
      const std::size_t links = 4 + rng() % 10;
      std::vector<double> capacity(links);
      for (double& c : capacity) c = 1 + rng() % 8;
      MaxMinFairSolver::Options options = Classes({{1, 0}, {2, 0.5}, {1, 0.25}});
      options.sharing = sharing;
      MaxMinFairSolver solver = Make(capacity, options);
      struct Live {
        std::vector<std::uint32_t> path;
        std::uint32_t class_index;
      };
      std::map<Flow, Live> live;
      for (int event = 0; event < 150; ++event) {
        if (live.empty() || rng() % 3 != 0) {
          const std::vector<std::uint32_t> path = RandomPath(rng, links);
          const auto class_index = static_cast<std::uint32_t>(rng() % 3);
          live[solver.AddFlow(path, class_index)] = Live{path, class_index};
        } else {
          RemoveOne(rng, solver, live);
        }
        solver.Solve();
        ++solves;
        ASSERT_TRUE(solver.CheckCapacity().ok()) << solver.CheckCapacity();
        ASSERT_TRUE(solver.CheckFixedPoint(/*given_allocations=*/true).ok())
            << solver.CheckFixedPoint(true);
        if (solver.last_solve_approximate()) {
          ++approximate;
        } else {
          ASSERT_TRUE(solver.CheckFixedPoint().ok()) << solver.CheckFixedPoint();
        }
      }
      if (solver.last_solve_approximate()) continue;
      MaxMinFairSolver fresh = Make(capacity, options);
      std::map<Flow, Flow> fresh_of;
      for (const auto& [flow, l] : live) fresh_of[flow] = fresh.AddFlow(l.path, l.class_index);
      fresh.Solve();
      if (fresh.last_solve_approximate()) continue;
      for (const auto& [flow, l] : live) {
        EXPECT_NEAR(solver.Rate(flow), fresh.Rate(fresh_of[flow]), 1e-6 * solver.Rate(flow))
            << "trial " << trial;
      }
    }
    EXPECT_LE(approximate * 100, solves) << "more than 1 % of solves approximate";
    if (sharing == Sharing::kUpstream) {
      EXPECT_EQ(approximate, 0u);
    }
  }
}

}  // namespace
}  // namespace trestle::fabric
