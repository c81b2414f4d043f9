// FabricAdapter's TransitHandler logic, driven directly (no daemon): arrival
// order in virtual time (a transit advances the model; what is in flight
// drains when transits stop), and lockstep grants: after ReportReached(r) no
// outcome with t_deliver <= r may follow, for the flow model and the
// congestion-unaware one.
#include "trestle/fabric/fabric_adapter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "path_check.h"
#include "trestle/event_loop.h"

namespace trestle::fabric {
namespace {

// Records what the handler posts.
class RecordingSink final : public adapter::OutcomeSink {
 public:
  struct Posted {
    std::uint64_t id;
    std::uint64_t t_deliver;
  };
  void Deliver(std::uint64_t id, std::uint64_t t_deliver_ns) override {
    // The lockstep contract: nothing at or below a reported time comes later.
    if (!reports.empty()) {
      EXPECT_GT(t_deliver_ns, reached_) << "message " << id << " after ReportReached("
                                        << reached_ << ")";
    }
    delivered.push_back({id, t_deliver_ns});
  }
  void Drop(std::uint64_t id, std::uint64_t) override { ADD_FAILURE() << "dropped " << id; }
  void ReportReached(std::uint64_t t_ns) override {
    EXPECT_GE(t_ns, reached_) << "reached went backwards";
    reached_ = t_ns;
    reports.push_back(t_ns);
  }
  std::uint64_t reached() const { return reached_; }

  std::vector<Posted> delivered;
  std::vector<std::uint64_t> reports;

 private:
  std::uint64_t reached_ = 0;
};

class FabricAdapterTest : public ::testing::Test {
 protected:
  // switch:4 with 400 Gbps links (50 B/ns), 500 ns links, 100 ns switch and
  // a 10 ns endpoint delay: a message between endpoints costs 1,110 ns plus
  // its transfer; the lookahead is 10 ns (a message to itself).
  FabricAdapterTest()
      : topology_(MustBuild("switch:4,link_bw=400Gbps,link_latency=500ns,switch_latency=100ns")) {}

  std::unique_ptr<FabricAdapter> Make(NetworkModelKind kind) {
    FabricAdapterOptions options;
    options.model = kind;
    options.pricing = NetworkModelOptions{RoutingKind::kMinimal, 1, Duration::Nanoseconds(10)};
    options.pricing.flow.check_invariants = true;
    options.drain_after = std::chrono::milliseconds(1);
    ClientOptions client;
    client.daemon = "127.0.0.1:1";  // never connected: the handler is driven directly
    return std::make_unique<FabricAdapter>(loop_, client, *topology_, adapter::EndpointMap(4),
                                           options);
  }

  static Transit MakeTransit(std::uint64_t id, std::uint64_t size, std::uint64_t t_send) {
    Transit t;
    t.id = id;
    t.size = size;
    t.t_send = t_send;
    return t;
  }

  EventLoop loop_;
  TopologyPtr topology_;
  RecordingSink sink_;
};

TEST_F(FabricAdapterTest, VirtualTimeTakesTransitsInArrivalOrderAndDrainsWhenTheyStop) {
  std::unique_ptr<FabricAdapter> fabric = Make(NetworkModelKind::kFlow);
  fabric->Begin(adapter::TimeMode::kVirtual, sink_);
  EXPECT_TRUE(fabric->arrival_order());
  // 0 -> 2, 100,000 B at t = 0: in flight (2,000 ns of transfer).
  fabric->HandleTransit(MakeTransit(1, 100000, 0), {0, 2});
  EXPECT_TRUE(sink_.delivered.empty());
  // A transit at t = 5,000 moves the model past the first one's end.
  fabric->HandleTransit(MakeTransit(2, 100000, 5000), {1, 2});
  ASSERT_EQ(sink_.delivered.size(), 1u);
  EXPECT_EQ(sink_.delivered[0].id, 1u);
  EXPECT_EQ(sink_.delivered[0].t_deliver, 0u + 1110 + 2000);
  // Nothing else comes: after the drain delay the second completes.
  loop_.RunUntil([&] { return sink_.delivered.size() == 2; }, std::chrono::seconds(5));
  ASSERT_EQ(sink_.delivered.size(), 2u);
  EXPECT_EQ(sink_.delivered[1].t_deliver, 5000u + 1110 + 2000);
  EXPECT_TRUE(sink_.reports.empty()) << "no lockstep reports outside lockstep";
  // A transit behind the clock enters at the clock, alone: its own time.
  fabric->HandleTransit(MakeTransit(3, 50000, 100), {2, 3});
  loop_.RunUntil([&] { return sink_.delivered.size() == 3; }, std::chrono::seconds(5));
  ASSERT_EQ(sink_.delivered.size(), 3u);
  EXPECT_EQ(sink_.delivered[2].t_deliver, 100u + 1110 + 1000);
}

TEST_F(FabricAdapterTest, TheUnawareModelStillAnswersEveryTransitAtOnce) {
  std::unique_ptr<FabricAdapter> fabric = Make(NetworkModelKind::kUnaware);
  fabric->Begin(adapter::TimeMode::kVirtual, sink_);
  fabric->HandleTransit(MakeTransit(1, 100000, 0), {0, 2});
  fabric->HandleTransit(MakeTransit(2, 100000, 0), {1, 2});
  ASSERT_EQ(sink_.delivered.size(), 2u);
  EXPECT_EQ(sink_.delivered[1].t_deliver, 0u + 1110 + 2000) << "no contention";
}

TEST_F(FabricAdapterTest, AGrantAdvancesTheFlowModelAndReportsHowFarOutcomesAreFinal) {
  std::unique_ptr<FabricAdapter> fabric = Make(NetworkModelKind::kFlow);
  fabric->Begin(adapter::TimeMode::kVirtual, sink_);
  EXPECT_EQ(fabric->LookaheadNs(), 10u);
  fabric->HandleGrant(100);
  EXPECT_FALSE(fabric->arrival_order()) << "grants make time move by grants only";
  EXPECT_EQ(sink_.reached(), 100u + 10 - 1);
  // Two transits at t_send = 1,000 into endpoint 2 (they share its link).
  fabric->HandleTransit(MakeTransit(1, 100000, 1000), {0, 2});
  fabric->HandleTransit(MakeTransit(2, 100000, 1000), {1, 2});
  EXPECT_TRUE(sink_.delivered.empty());
  // Grant 1,000: starts at 1,000 still wait (more may come at 1,000).
  fabric->HandleGrant(1000);
  EXPECT_EQ(sink_.reached(), 1000u + 10 - 1);
  // Grant 1,001: they started; each needs 1,110 ns + 4,000 ns of transfer
  // (25 B/ns each). Later transits (t_send >= 1,001) bind: 1,001 + 10 - 1.
  fabric->HandleGrant(1001);
  EXPECT_TRUE(sink_.delivered.empty());
  EXPECT_EQ(sink_.reached(), 1001u + 10 - 1);
  // Grant 5,000: the model is at 4,999, the transfers end at 5,000.
  fabric->HandleGrant(5000);
  EXPECT_TRUE(sink_.delivered.empty());
  EXPECT_EQ(sink_.reached(), 5000u + 10 - 1);
  fabric->HandleGrant(5001);
  ASSERT_EQ(sink_.delivered.size(), 2u);
  EXPECT_EQ(sink_.delivered[0].t_deliver, 1000u + 1110 + 4000);
  EXPECT_EQ(sink_.delivered[1].t_deliver, 1000u + 1110 + 4000);
  EXPECT_EQ(sink_.reached(), 5001u + 10 - 1);
}

TEST_F(FabricAdapterTest, TheUnawareModelReachesGrantPlusLookaheadMinusOne) {
  std::unique_ptr<FabricAdapter> fabric = Make(NetworkModelKind::kUnaware);
  fabric->Begin(adapter::TimeMode::kVirtual, sink_);
  fabric->HandleGrant(5000);
  EXPECT_EQ(sink_.reached(), 5000u + 10 - 1);
  fabric->HandleTransit(MakeTransit(1, 0, 5000), {3, 3});  // to itself: 10 ns
  ASSERT_EQ(sink_.delivered.size(), 1u);
  EXPECT_EQ(sink_.delivered[0].t_deliver, 5010u);
}

// A daemon's view: grants only grow, and transits never come below the last
// grant. Whatever the traffic, no outcome ever lands at or below a reached
// time reported before it (RecordingSink checks), and everything completes.
TEST_F(FabricAdapterTest, RandomLockstepTrafficNeverDeliversBelowWhatWasReported) {
  for (NetworkModelKind kind : {NetworkModelKind::kFlow, NetworkModelKind::kUnaware}) {
    RecordingSink sink;
    std::unique_ptr<FabricAdapter> fabric = Make(kind);
    fabric->Begin(adapter::TimeMode::kVirtual, sink);
    std::mt19937_64 rng(9);
    std::uint64_t grant = 0, id = 0;
    for (int round = 0; round < 300; ++round) {
      for (int i = 0, n = static_cast<int>(rng() % 4); i < n; ++i) {
        fabric->HandleTransit(MakeTransit(++id, rng() % 200000, grant + rng() % 3000),
                              {static_cast<adapter::EndpointId>(rng() % 4),
                               static_cast<adapter::EndpointId>(rng() % 4)});
      }
      grant += rng() % 700;
      fabric->HandleGrant(grant);
    }
    fabric->HandleGrant(grant + 10'000'000);
    EXPECT_EQ(sink.delivered.size(), id) << NetworkModelKindName(kind);
    EXPECT_GE(sink.reports.size(), 100u);
  }
}

}  // namespace
}  // namespace trestle::fabric
