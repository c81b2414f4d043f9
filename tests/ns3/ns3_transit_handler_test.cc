// Ns3TransitHandler's time modes: late transits in virtual time, exact
// injection and reports in lockstep (and the same outcomes however ns-3 is
// sliced and whatever order transits arrive in), paced outcomes never
// early and late paced transits started at the wall clock's time, wallclock
// transfers started at once, and the lookahead.
#include <gtest/gtest.h>
#include <uv.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "handler_run.h"
#include "trestle/fabric/topology_builder.h"
#include "trestle/ns3/ns3_network.h"
#include "trestle/ns3/ns3_transit_handler.h"

namespace trestle::ns3_adapter {
namespace {

using Kind = RecordingSink::Posted::Kind;

std::unique_ptr<Ns3Network> Ring(const Ns3NetworkOptions& options = {}) {
  auto topology =
      fabric::TopologyBuilder::FromText("ring:4,link_bw=400Gbps,link_latency=500ns");
  EXPECT_TRUE(topology.ok());
  auto network = Ns3Network::BuildWired(**topology, options);
  EXPECT_TRUE(network.ok()) << network.status();
  return std::move(*network);
}

TEST(Ns3TransitHandler, VirtualTimeStartsATransitWhoseTSendHasPassedNowAndCountsIt) {
  std::unique_ptr<Ns3Network> network = Ring();
  HandlerRun run(*network, wire::TIME_MODE_VIRTUAL);
  run.handler.HandleTransit(MakeTransit(1, 1 << 20, 0), {0, 2});
  ASSERT_TRUE(run.RunUntilIdle());
  EXPECT_EQ(run.handler.stats().now_ns, run.sink.outcomes().at(1).t_ns)
      << "ns-3 stopped at the last completion";
  EXPECT_EQ(run.handler.stats().late_transits, 0u);

  // An answer sent at the t_deliver it answers (ns, rounded down) is on time.
  run.handler.HandleTransit(MakeTransit(9, 64, run.sink.outcomes().at(1).t_ns), {2, 0});
  ASSERT_TRUE(run.RunUntilIdle());
  EXPECT_EQ(run.handler.stats().late_transits, 0u);
  const std::uint64_t clock = run.handler.stats().now_ns;

  run.handler.HandleTransit(MakeTransit(2, 1000, 10), {1, 3});  // 10 ns: long past
  ASSERT_TRUE(run.RunUntilIdle());
  EXPECT_EQ(run.handler.stats().late_transits, 1u);
  EXPECT_GT(run.sink.outcomes().at(2).t_ns, clock) << "started at ns-3's clock, not at its t_send";

  run.handler.HandleTransit(MakeTransit(3, 1000, clock + 50'000), {1, 3});  // in the future
  ASSERT_TRUE(run.RunUntilIdle());
  EXPECT_EQ(run.handler.stats().late_transits, 1u);
  EXPECT_GT(run.sink.outcomes().at(3).t_ns, clock + 50'000 + 500);
}

TEST(Ns3TransitHandler, LockstepRunsNothingBeforeAGrantAndNeverPastIt) {
  std::unique_ptr<Ns3Network> network = Ring();
  HandlerRun run(*network, wire::TIME_MODE_LOCKSTEP);
  run.handler.HandleTransit(MakeTransit(1, 100'000, 1'000), {0, 2});
  run.handler.HandleTransit(MakeTransit(2, 100'000, 9'000), {1, 3});
  ASSERT_TRUE(run.RunUntilIdle());
  EXPECT_TRUE(run.sink.log().empty()) << "no grant yet: nothing is simulated";
  EXPECT_EQ(run.handler.stats().waiting, 2u);

  // Grants in steps: after each, every outcome posted is before the grant.
  std::uint64_t posted = 0;
  for (std::uint64_t grant = 2'000; grant <= 40'000; grant += 2'000) {
    run.handler.HandleGrant(grant);
    ASSERT_TRUE(run.RunUntilIdle());
    for (; posted < run.sink.log().size(); ++posted) {
      const auto& entry = run.sink.log()[posted];
      if (entry.kind == Kind::kReached) {
        EXPECT_LT(entry.t_ns, grant + run.handler.LookaheadNs()) << "grant " << grant;
      } else {
        EXPECT_LT(entry.t_ns, grant) << "message " << entry.id << " posted past grant " << grant;
      }
    }
    EXPECT_LE(run.handler.stats().now_ns, grant);
  }
  ASSERT_EQ(run.sink.delivered(), 2u);
  EXPECT_GT(run.sink.outcomes().at(1).t_ns, 1'000u + 1'000u) << "two 500 ns links";
  EXPECT_GT(run.sink.outcomes().at(2).t_ns, 9'000u + 1'000u);

  // A report of R: every outcome with t_deliver <= R came before it.
  for (std::size_t i = 0; i < run.sink.log().size(); ++i) {
    if (run.sink.log()[i].kind != Kind::kReached) continue;
    for (const auto& [id, outcome] : run.sink.outcomes()) {
      if (outcome.t_ns > run.sink.log()[i].t_ns) continue;
      const auto at = std::find(run.sink.log().begin(), run.sink.log().end(), outcome);
      EXPECT_LT(at - run.sink.log().begin(), static_cast<std::ptrdiff_t>(i))
          << "message " << id << " at " << outcome.t_ns << " posted after reaching "
          << run.sink.log()[i].t_ns;
    }
  }
  EXPECT_EQ(run.handler.stats().late_transits, 0u);
}

TEST(Ns3TransitHandler, LockstepOnAnIdleNetworkReachesTheGrantPlusTheLookahead) {
  Ns3NetworkOptions options;
  options.endpoint_delay_ns = 100;
  std::unique_ptr<Ns3Network> network = Ring(options);
  HandlerRun run(*network, wire::TIME_MODE_LOCKSTEP);
  EXPECT_EQ(run.handler.LookaheadNs(), 600u) << "one 500 ns link + the delay";
  EXPECT_EQ(run.handler.SelfLookaheadNs(), 100u) << "a message to its own endpoint costs the delay";
  run.handler.HandleGrant(10'000);
  ASSERT_TRUE(run.RunUntilIdle());
  ASSERT_FALSE(run.sink.log().empty());
  EXPECT_EQ(run.sink.log().back().kind, Kind::kReached);
  EXPECT_EQ(run.sink.log().back().t_ns, 10'599u) << "nothing queued: grant + lookahead - 1";
  EXPECT_EQ(run.handler.stats().reached_ns, 10'599u);

  // A message to its own endpoint arrives exactly the delay later.
  run.handler.HandleTransit(MakeTransit(5, 64, 12'000), {3, 3});
  run.handler.HandleGrant(20'000);
  ASSERT_TRUE(run.RunUntilIdle());
  EXPECT_EQ(run.sink.outcomes().at(5).t_ns, 12'100u);
}

TEST(Ns3TransitHandler, MinLatencyIsTheShortestPathPlusTheEndpointDelay) {
  Ns3NetworkOptions options;
  options.endpoint_delay_ns = 100;
  std::unique_ptr<Ns3Network> network = Ring(options);
  HandlerRun run(*network, wire::TIME_MODE_VIRTUAL);
  EXPECT_EQ(run.handler.MinLatency().between_endpoints_ns, 600.0) << "one 500 ns link + 100 ns";
  EXPECT_EQ(run.handler.MinLatency().to_itself_ns, 100.0);
  EXPECT_EQ(run.handler.LookaheadNs(), 600u) << "between two distinct endpoints";
  EXPECT_EQ(run.handler.SelfLookaheadNs(), 100u);
}

// Runs the same lockstep experiment and returns every outcome: transits from
// all four endpoints at the same few times, to contend for links.
std::map<std::uint64_t, RecordingSink::Posted> LockstepOutcomes(std::uint64_t max_events,
                                                                 bool reverse_arrival,
                                                                 std::uint64_t grant_step) {
  std::unique_ptr<Ns3Network> network = Ring();
  Ns3HandlerOptions options;
  options.max_events_per_slice = max_events;
  HandlerRun run(*network, wire::TIME_MODE_LOCKSTEP, options);
  struct Planned {
    std::uint64_t id, size, t_send;
    adapter::EndpointPair ends;
  };
  std::vector<Planned> plan;
  std::uint64_t id = 1;
  for (std::uint64_t t : {0, 3'000, 3'000, 7'000}) {
    for (std::uint32_t src = 0; src < 4; ++src) {
      plan.push_back(Planned{id, 20'000 + 1'000 * id, t, {src, (src + 2) % 4}});
      ++id;
    }
  }
  if (reverse_arrival) std::reverse(plan.begin(), plan.end());
  for (const Planned& p : plan) run.handler.HandleTransit(MakeTransit(p.id, p.size, p.t_send), p.ends);
  for (std::uint64_t grant = grant_step; grant <= 200'000; grant += grant_step) {
    run.handler.HandleGrant(grant);
    EXPECT_TRUE(run.RunUntilIdle());
  }
  EXPECT_EQ(run.sink.delivered(), plan.size());
  return run.sink.outcomes();
}

TEST(Ns3TransitHandler, LockstepGivesTheSameOutcomesHoweverNs3IsSlicedAndTransitsArrive) {
  const auto reference = LockstepOutcomes(10'000, false, 200'000);
  ASSERT_EQ(reference.size(), 16u);
  EXPECT_EQ(LockstepOutcomes(1, false, 200'000), reference) << "one event per slice";
  EXPECT_EQ(LockstepOutcomes(10'000, true, 200'000), reference) << "transits in reverse";
  EXPECT_EQ(LockstepOutcomes(7, true, 1'000), reference) << "small slices, small grants";
}

TEST(Ns3TransitHandler, PacedTimeNeverPostsBeforeStartPlusTDeliverTimesDilation) {
  std::unique_ptr<Ns3Network> network = Ring();
  const double dilation = 1e5;  // 1 us of network is 100 ms of wall time
  const std::uint64_t before = uv_hrtime();
  HandlerRun run(*network, wire::TIME_MODE_PACED, Ns3HandlerOptions{dilation, 10'000});
  const std::uint64_t after_begin = uv_hrtime();
  run.handler.HandleTransit(MakeTransit(1, 64, 0), {0, 1});
  run.handler.HandleTransit(MakeTransit(2, 64, 1'000), {0, 2});
  ASSERT_TRUE(run.loop.RunUntil([&] { return run.sink.delivered() == 2; }, std::chrono::seconds(20)));
  for (const auto& [id, posted] : run.sink.outcomes()) {
    const double due = static_cast<double>(before) + static_cast<double>(posted.t_ns) * dilation;
    EXPECT_GE(static_cast<double>(posted.wall_ns), due) << "message " << id << " early";
    EXPECT_LT(static_cast<double>(posted.wall_ns), due + 2e9) << "message " << id << " late";
  }
  EXPECT_LT(run.sink.outcomes().at(1).t_ns, run.sink.outcomes().at(2).t_ns);

  // A transit whose t_send the wall clock has passed starts at the wall
  // clock's time, not at ns-3's last event, and is counted late. First let
  // the wall clock run well past ns-3's last event (10 us of network time).
  run.loop.RunFor(std::chrono::seconds(1));
  const std::uint64_t ns3_clock = run.handler.stats().now_ns;
  const std::uint64_t late_before = run.handler.stats().late_transits;
  // The handler's clock started after after_begin: this is a lower bound on
  // the time it reads when the transit comes, however busy the machine is.
  const auto elapsed_ns =
      static_cast<std::uint64_t>(static_cast<double>(uv_hrtime() - after_begin) / dilation);
  ASSERT_GT(elapsed_ns, ns3_clock + 5'000) << "the wall clock is far ahead of ns-3's last event";
  run.handler.HandleTransit(MakeTransit(3, 64, 0), {1, 0});
  ASSERT_TRUE(run.loop.RunUntil([&] { return run.sink.delivered() == 3; }, std::chrono::seconds(20)));
  const RecordingSink::Posted& late = run.sink.outcomes().at(3);
  EXPECT_GE(late.t_ns, elapsed_ns + 500) << "one 500 ns link after the wall clock's time";
  EXPECT_GE(static_cast<double>(late.wall_ns),
            static_cast<double>(before) + static_cast<double>(late.t_ns) * dilation);
  EXPECT_EQ(run.handler.stats().late_transits, late_before + 1);
}

// A large message, then small ones: the next on the same connection comes
// after it, over TCP (one stream per pair) and UDP (datagrams queue behind
// its datagrams; the handler holds an outcome behind an earlier one of its
// connection besides). Another source's is not held back.
TEST(Ns3TransitHandler, AConnectionsMessagesArriveInTheOrderTheyWereSent) {
  for (Transport transport : {Transport::kTcp, Transport::kUdp}) {
    SCOPED_TRACE(std::string(TransportName(transport)));
    Ns3NetworkOptions options;
    options.transport = transport;
    std::unique_ptr<Ns3Network> network = Ring(options);
    HandlerRun run(*network, wire::TIME_MODE_VIRTUAL);
    run.handler.HandleTransit(MakeTransit(1, 1 << 20, 0), {0, 2});
    run.handler.HandleTransit(MakeTransit(2, 64, 100), {0, 2});
    run.handler.HandleTransit(MakeTransit(3, 64, 100), {1, 2});
    ASSERT_TRUE(run.RunUntilIdle());
    ASSERT_EQ(run.sink.delivered(), 3u);
    const auto& out = run.sink.outcomes();
    EXPECT_GE(out.at(2).t_ns, out.at(1).t_ns) << "the small one after the large one";
    EXPECT_LT(out.at(3).t_ns, out.at(1).t_ns) << "another connection's is not held";
    std::vector<std::uint64_t> order;
    for (const RecordingSink::Posted& p : run.sink.log()) order.push_back(p.id);
    EXPECT_LT(std::find(order.begin(), order.end(), 1) - order.begin(),
              std::find(order.begin(), order.end(), 2) - order.begin())
        << "posted in the order sent";
  }
}

TEST(Ns3TransitHandler, WallclockStartsEveryTransferAtOnceAndAddsItsTimeToTSend) {
  std::unique_ptr<Ns3Network> network = Ring();
  HandlerRun run(*network, wire::TIME_MODE_WALLCLOCK);
  run.handler.HandleTransit(MakeTransit(1, 5000, 0), {0, 1});
  ASSERT_TRUE(run.RunUntilIdle());
  run.handler.HandleTransit(MakeTransit(2, 5000, 5'000'000'000), {2, 3});  // same path length
  ASSERT_TRUE(run.RunUntilIdle());
  ASSERT_EQ(run.sink.delivered(), 2u);
  const std::uint64_t first = run.sink.outcomes().at(1).t_ns;
  EXPECT_GT(first, 500u);
  EXPECT_EQ(run.sink.outcomes().at(2).t_ns - 5'000'000'000, first) << "the same transfer time";
  EXPECT_LT(run.handler.stats().now_ns, 1'000'000u) << "no idle time simulated up to 5 s";
  EXPECT_EQ(run.handler.stats().late_transits, 0u);
}

}  // namespace
}  // namespace trestle::ns3_adapter
