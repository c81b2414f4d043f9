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
#include "trestle.pb.h"
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
  // A transit of rank `rank` (client id "rN", endpoint N) carrying one
  // exchange with rank `peer`: send `bytes`, then receive from it.
  static Transit Exchange(std::uint64_t id, int rank, int peer, std::uint64_t bytes,
                          std::uint64_t t_send, std::uint64_t instance = 0) {
    wire::CollectiveBatch batch;
    wire::RankCollective* c = batch.add_collectives();
    c->set_group(1);
    c->set_instance(instance);
    c->set_members(2);
    wire::CollectiveStep* step = c->add_steps();
    wire::CollectiveSend* send = step->add_sends();
    send->set_peer("r" + std::to_string(peer));
    send->set_bytes(bytes);
    step->add_recvs()->set_peer("r" + std::to_string(peer));
    Transit t = MakeTransit(id, 8, t_send);
    t.src = t.dst = "r" + std::to_string(rank);
    t.collectives = batch.SerializeAsString();
    return t;
  }
  static adapter::EndpointPair Itself(int rank) {
    return {static_cast<adapter::EndpointId>(rank), static_cast<adapter::EndpointId>(rank)};
  }
  std::uint64_t DeliveredAt(std::uint64_t id) const {
    for (const RecordingSink::Posted& p : sink_.delivered) {
      if (p.id == id) return p.t_deliver;
    }
    ADD_FAILURE() << "message " << id << " not delivered";
    return 0;
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
  EXPECT_EQ(fabric->SelfLookaheadNs(), 0u)
      << "a rank whose collectives only send ends them at their t_send";
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

// Collectives go into the one model, under the grants: a collective's
// message queues behind an earlier message of its connection (the issue's
// 16 MiB Isend before an Allreduce), on both models.
TEST_F(FabricAdapterTest, ACollectivesMessageQueuesBehindAnEarlierMessageOfItsConnection) {
  for (NetworkModelKind kind : {NetworkModelKind::kUnaware, NetworkModelKind::kFlow}) {
    SCOPED_TRACE(NetworkModelKindName(kind));
    sink_ = RecordingSink();
    std::unique_ptr<FabricAdapter> fabric = Make(kind);
    fabric->Begin(wire::TIME_MODE_LOCKSTEP, sink_);
    fabric->HandleGrant(0);
    // 1 MB from r0 to r1 at 0: 1,110 + 20,000 ns.
    Hand(*fabric, sink_, MakeTransit(1, 1000000, 0), {0, 1});
    fabric->HandleGrant(1);
    // Then both exchange 8 bytes at 100.
    Hand(*fabric, sink_, Exchange(2, 0, 1, 8, 100), Itself(0));
    Hand(*fabric, sink_, Exchange(3, 1, 0, 8, 100), Itself(1));
    EXPECT_TRUE(sink_.delivered.size() <= 1u) << "the replay waits for a grant";
    for (std::uint64_t g = 2; g < 100000 && sink_.delivered.size() < 3; g += 997) {
      fabric->HandleGrant(g);
    }
    ASSERT_EQ(sink_.delivered.size(), 3u);
    const std::uint64_t big = DeliveredAt(1);
    EXPECT_EQ(big, 0u + 1110 + 20000);
    // r1 waits for r0's 8 bytes, which come after the megabyte on their
    // connection; r0 gets r1's at 100 + 1,110 (another connection).
    EXPECT_GE(DeliveredAt(3), big);
    EXPECT_EQ(DeliveredAt(2), 100u + 1110);
  }
}

// Without other traffic the flow model replays an exchange at the idle
// network's times, as the unaware model does; with a transfer into the
// same endpoint at the same time, the flow model's exchange is slower.
TEST_F(FabricAdapterTest, TheFlowModelReplaysCollectivesWithTheContentionOfOtherTraffic) {
  std::map<NetworkModelKind, std::uint64_t> alone, shared;
  for (NetworkModelKind kind : {NetworkModelKind::kUnaware, NetworkModelKind::kFlow}) {
    for (bool contended : {false, true}) {
      sink_ = RecordingSink();
      std::unique_ptr<FabricAdapter> fabric = Make(kind);
      fabric->Begin(wire::TIME_MODE_LOCKSTEP, sink_);
      fabric->HandleGrant(0);
      if (contended) Hand(*fabric, sink_, MakeTransit(1, 100000, 0), {2, 1});
      Hand(*fabric, sink_, Exchange(2, 0, 1, 100000, 0), Itself(0));
      Hand(*fabric, sink_, Exchange(3, 1, 0, 100000, 0), Itself(1));
      const std::size_t transits = contended ? 3 : 2;
      for (std::uint64_t g = 1; g < 100000 && sink_.delivered.size() < transits; g += 331) {
        fabric->HandleGrant(g);
      }
      (contended ? shared : alone)[kind] = DeliveredAt(3);
    }
  }
  EXPECT_EQ(alone[NetworkModelKind::kFlow], 1110u + 2000);
  EXPECT_EQ(alone[NetworkModelKind::kUnaware], 1110u + 2000);
  EXPECT_EQ(shared[NetworkModelKind::kUnaware], 1110u + 2000) << "no contention";
  EXPECT_EQ(shared[NetworkModelKind::kFlow], 1110u + 4000) << "half the link into r1";
}

// A daemon's view with collectives among the transits: whatever the
// traffic, no outcome lands at or below a reached time reported before it,
// and every transit ends.
TEST_F(FabricAdapterTest, RandomLockstepTrafficWithCollectivesNeverDeliversBelowWhatWasReported) {
  for (NetworkModelKind kind : {NetworkModelKind::kFlow, NetworkModelKind::kUnaware}) {
    SCOPED_TRACE(NetworkModelKindName(kind));
    RecordingSink sink;
    std::unique_ptr<FabricAdapter> fabric = Make(kind);
    fabric->Begin(wire::TIME_MODE_LOCKSTEP, sink);
    std::mt19937_64 rng(11);
    std::uint64_t grant = 0, id = 0, instance = 0;
    std::uint64_t clock[4] = {0, 0, 0, 0};  // each rank's sends keep its order
    for (int round = 0; round < 300; ++round) {
      if (rng() % 3 == 0) {
        // Ranks 2 and 3 exchange, each entry at or after the grant.
        ++instance;
        for (int r : {2, 3}) {
          clock[r] = std::max(clock[r], grant) + rng() % 2000;
          Hand(*fabric, sink, Exchange(++id, r, 5 - r, rng() % 100000, clock[r], instance),
               Itself(r));
        }
      }
      for (int i = 0, n = static_cast<int>(rng() % 3); i < n; ++i) {
        const int src = static_cast<int>(rng() % 2);
        clock[src] = std::max(clock[src], grant) + rng() % 3000;
        Hand(*fabric, sink, MakeTransit(++id, rng() % 200000, clock[src]),
             {static_cast<adapter::EndpointId>(src),
              static_cast<adapter::EndpointId>(rng() % 4)});
      }
      grant += rng() % 700;
      fabric->HandleGrant(grant);
    }
    for (int i = 0; i < 1000 && sink.delivered.size() < id; ++i) {
      grant += 5000;
      fabric->HandleGrant(grant);
    }
    EXPECT_EQ(sink.delivered.size(), id);
  }
}

}  // namespace
}  // namespace trestle::fabric
