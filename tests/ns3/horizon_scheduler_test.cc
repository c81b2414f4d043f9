// HorizonScheduler through Simulation: a slice runs every event before its
// horizon and none at it, whatever order they were scheduled in; a budget
// bounds a slice; EndSlice stops one after the current event.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "adapter/simulation.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

namespace trestle::ns3_adapter {
namespace {

void At(std::uint64_t ps, std::vector<std::uint64_t>* ran, std::uint64_t tag) {
  ns3::Simulator::Schedule(ns3::PicoSeconds(static_cast<std::int64_t>(ps)),
                           [ran, tag] { ran->push_back(tag); });
}

TEST(HorizonScheduler, ASliceRunsEveryEventBeforeItsHorizonAndNoneAtIt) {
  Simulation simulation(1);
  std::vector<std::uint64_t> ran;
  At(100, &ran, 1);  // scheduled first, at the horizon
  At(99, &ran, 2);
  At(101, &ran, 3);
  At(50, &ran, 4);
  EXPECT_TRUE(simulation.RunSlice(100, Simulation::kNoHorizon));
  EXPECT_EQ(ran, (std::vector<std::uint64_t>{4, 2}));
  EXPECT_EQ(simulation.NowPs(), 99u);
  EXPECT_EQ(simulation.NextEventPs(), 100u);
  EXPECT_TRUE(simulation.RunSlice(101, Simulation::kNoHorizon));
  EXPECT_EQ(ran, (std::vector<std::uint64_t>{4, 2, 1}));
  EXPECT_TRUE(simulation.RunSlice(Simulation::kNoHorizon, Simulation::kNoHorizon));
  EXPECT_EQ(ran, (std::vector<std::uint64_t>{4, 2, 1, 3}));
  EXPECT_EQ(simulation.NextEventPs(), Simulation::kNoEvent);
  EXPECT_EQ(simulation.events_run(), 4u);
}

TEST(HorizonScheduler, ABudgetBoundsASliceAndTheNextOneGoesOn) {
  Simulation simulation(1);
  std::vector<std::uint64_t> ran;
  for (std::uint64_t i = 0; i < 10; ++i) At(10 * i, &ran, i);
  EXPECT_FALSE(simulation.RunSlice(Simulation::kNoHorizon, 3));
  EXPECT_EQ(ran.size(), 3u);
  EXPECT_FALSE(simulation.RunSlice(Simulation::kNoHorizon, 3));
  EXPECT_EQ(ran.size(), 6u);
  EXPECT_TRUE(simulation.RunSlice(Simulation::kNoHorizon, 100));
  EXPECT_EQ(ran.size(), 10u);
  for (std::uint64_t i = 0; i < 10; ++i) EXPECT_EQ(ran[i], i);
}

TEST(HorizonScheduler, EndSliceStopsAfterTheCurrentEvent) {
  Simulation simulation(1);
  std::vector<std::uint64_t> ran;
  At(10, &ran, 1);
  ns3::Simulator::Schedule(ns3::PicoSeconds(20), [&simulation, &ran] {
    ran.push_back(2);
    simulation.EndSlice();
  });
  At(30, &ran, 3);
  EXPECT_FALSE(simulation.RunSlice(Simulation::kNoHorizon, 100));
  EXPECT_EQ(ran, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_TRUE(simulation.RunSlice(Simulation::kNoHorizon, 100));
  EXPECT_EQ(ran, (std::vector<std::uint64_t>{1, 2, 3}));
}

TEST(HorizonScheduler, EventsLeftAtTheEndAreFreedWithTheSimulation) {
  std::vector<std::uint64_t> ran;
  {
    Simulation simulation(1);
    At(10, &ran, 1);
    At(1'000'000, &ran, 2);
    EXPECT_TRUE(simulation.RunSlice(100, 100));
  }
  EXPECT_EQ(ran, (std::vector<std::uint64_t>{1}));
  EXPECT_FALSE(Simulation::Active());
  Simulation again(1);  // a fresh simulator, at time 0
  EXPECT_EQ(again.NowPs(), 0u);
  EXPECT_EQ(again.NextEventPs(), Simulation::kNoEvent);
}

}  // namespace
}  // namespace trestle::ns3_adapter
