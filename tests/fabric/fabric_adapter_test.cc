// FabricAdapter's TransitHandler logic, driven directly (no daemon): arrival
// order in virtual time (a transit advances the model; what is in flight
// drains when transits stop), and lockstep grants: after ReportReached(r) no
// outcome with t_deliver <= r of the transits handed over by then may
// follow, unless a transit handed later moved it (from its t_send +
// lookahead on), for the flow model and the congestion-unaware one.
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

// Records what the handler posts, and checks the lockstep contract: a
// report r covers the transits handed over before it; a transit between two
// endpoints handed later at t_send s may move their outcomes down to
// s + lookahead (one to itself moves nothing).
class RecordingSink final : public adapter::OutcomeSink {
 public:
  struct Posted {
    std::uint64_t id;
    std::uint64_t t_deliver;
  };
  void Handed(std::uint64_t id, std::uint64_t t_send, bool to_itself, std::uint64_t lookahead) {
    handed_at_[id] = reports_.size();
    if (to_itself) return;
    for (Report& r : reports_) r.floor = std::min(r.floor, t_send + lookahead - 1);
  }
  void Deliver(std::uint64_t id, std::uint64_t t_deliver_ns) override {
    auto it = handed_at_.find(id);
    const std::size_t from = it == handed_at_.end() ? 0 : it->second;
    for (std::size_t i = from; i < reports_.size(); ++i) {
      EXPECT_GT(t_deliver_ns, reports_[i].floor)
          << "message " << id << " at " << t_deliver_ns << " after ReportReached("
          << reports_[i].reached << ")";
    }
    delivered.push_back({id, t_deliver_ns});
  }
  void Drop(std::uint64_t id, std::uint64_t) override { ADD_FAILURE() << "dropped " << id; }
  void ReportReached(std::uint64_t t_ns) override {
    reports_.push_back({t_ns, t_ns});
    reports.push_back(t_ns);
  }
  std::uint64_t reached() const { return reports.empty() ? 0 : reports.back(); }

  std::vector<Posted> delivered;
  std::vector<std::uint64_t> reports;

 private:
  struct Report {
    std::uint64_t reached;
    std::uint64_t floor;  // no later outcome of a transit handed before it at or below this
  };
  std::vector<Report> reports_;
  std::map<std::uint64_t, std::size_t> handed_at_;  // id -> reports before it was handed
};

class FabricAdapterTest : public ::testing::Test {
 protected:
  // switch:4 with 400 Gbps links (50 B/ns), 500 ns links, 100 ns switch and
  // a 10 ns endpoint delay: a message between endpoints costs 1,110 ns plus
  // its transfer (the lookahead), a message to itself 10 ns.
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
  // Lockstep: hands a transit over as SimAdapter does, telling `sink`.
  static void Hand(FabricAdapter& fabric, RecordingSink& sink, const Transit& t,
                   adapter::EndpointPair endpoints) {
    sink.Handed(t.id, t.t_send, endpoints.src == endpoints.dst, fabric.LookaheadNs());
    fabric.HandleTransit(t, endpoints);
  }

  EventLoop loop_;
  TopologyPtr topology_;
  RecordingSink sink_;
};

TEST_F(FabricAdapterTest, VirtualTimeTakesTransitsInArrivalOrderAndDrainsWhenTheyStop) {
  std::unique_ptr<FabricAdapter> fabric = Make(NetworkModelKind::kFlow);
  fabric->Begin(wire::TIME_MODE_VIRTUAL, sink_);
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
  fabric->Begin(wire::TIME_MODE_VIRTUAL, sink_);
  fabric->HandleTransit(MakeTransit(1, 100000, 0), {0, 2});
  fabric->HandleTransit(MakeTransit(2, 100000, 0), {1, 2});
  ASSERT_EQ(sink_.delivered.size(), 2u);
  EXPECT_EQ(sink_.delivered[1].t_deliver, 0u + 1110 + 2000) << "no contention";
}

TEST_F(FabricAdapterTest, AGrantAdvancesTheFlowModelAndReportsTheNextEventsBound) {
  std::unique_ptr<FabricAdapter> fabric = Make(NetworkModelKind::kFlow);
  fabric->Begin(wire::TIME_MODE_VIRTUAL, sink_);
  EXPECT_EQ(fabric->LookaheadNs(), 1110u) << "the fastest message between two endpoints";
  EXPECT_EQ(fabric->SelfLookaheadNs(), 10u) << "a message to itself: the endpoint delay";
  fabric->HandleGrant(100);
  EXPECT_FALSE(fabric->arrival_order()) << "grants make time move by grants only";
  EXPECT_EQ(sink_.reached(), NetworkModel::kNoEvent - 1) << "nothing held";
  // Two transits at t_send = 1,000 into endpoint 2 (they share its link).
  Hand(*fabric, sink_, MakeTransit(1, 100000, 1000), {0, 2});
  Hand(*fabric, sink_, MakeTransit(2, 100000, 1000), {1, 2});
  EXPECT_TRUE(sink_.delivered.empty());
  // Grant 1,000: starts at 1,000 still wait (more may come at 1,000); what
  // starts then delivers 1,110 ns later or after. Lower than the last report:
  // the latest counts.
  fabric->HandleGrant(1000);
  EXPECT_EQ(sink_.reached(), 1000u + 1110 - 1);
  // Grant 1,001: they started at 1,000, but a delta step's transits at
  // 1,000 may still join them: nothing ends before 1,000.
  fabric->HandleGrant(1001);
  EXPECT_EQ(sink_.reached(), 1000u + 1110 - 1);
  // Grant 1,002: the instant is over. Each needs 1,110 ns + 4,000 ns of
  // transfer (25 B/ns each): the bound is their end, not the grant plus the
  // lookahead.
  fabric->HandleGrant(1002);
  EXPECT_TRUE(sink_.delivered.empty());
  EXPECT_EQ(sink_.reached(), 1000u + 4000 + 1110 - 1);
  // A third at 2,000 shares the link. Until it starts, its start is the
  // next event: the rates may change there.
  Hand(*fabric, sink_, MakeTransit(3, 100000, 2000), {3, 2});
  fabric->HandleGrant(2000);
  EXPECT_EQ(sink_.reached(), 2000u + 1110 - 1);
  // Started (and its instant over): 50/3 B/ns each, the first two end at
  // 6,500, the third at 7,000 (alone from 6,500): the next delivery is
  // 6,500 + 1,110 or later.
  fabric->HandleGrant(2002);
  EXPECT_EQ(sink_.reached(), 6500u + 1110 - 1);
  fabric->HandleGrant(6110);
  EXPECT_TRUE(sink_.delivered.empty()) << "the shared link slowed them down";
  fabric->HandleGrant(7610);
  ASSERT_EQ(sink_.delivered.size(), 3u);
  EXPECT_EQ(sink_.delivered[0].t_deliver, 1000u + 1110 + 5500);
  EXPECT_EQ(sink_.delivered[1].t_deliver, 1000u + 1110 + 5500);
  EXPECT_GE(sink_.delivered[2].t_deliver, 2000u + 1110 + 5000) << "and its queueing";
  EXPECT_EQ(sink_.reached(), NetworkModel::kNoEvent - 1);
}

TEST_F(FabricAdapterTest, TheUnawareModelHoldsNothing) {
  std::unique_ptr<FabricAdapter> fabric = Make(NetworkModelKind::kUnaware);
  fabric->Begin(wire::TIME_MODE_VIRTUAL, sink_);
  fabric->HandleGrant(5000);
  EXPECT_EQ(sink_.reached(), NetworkModel::kNoEvent - 1);
  Hand(*fabric, sink_, MakeTransit(1, 0, 5000), {3, 3});  // to itself: 10 ns
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
    fabric->Begin(wire::TIME_MODE_VIRTUAL, sink);
    std::mt19937_64 rng(9);
    std::uint64_t grant = 0, id = 0;
    for (int round = 0; round < 300; ++round) {
      for (int i = 0, n = static_cast<int>(rng() % 4); i < n; ++i) {
        Hand(*fabric, sink, MakeTransit(++id, rng() % 200000, grant + rng() % 3000),
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
