// LiveCollectives: the fabric adapter's replay of collectives sent whole
// (Transit.collectives). A member runs its part as soon as it has reached
// it, as far as the others' messages let it; a rank's collectives run in order,
// each after the previous one plus its compute; a transit ends at the end
// of its rank's last collective in it; bad batches and collectives whose
// members disagree are dropped with an error that names the problem.
#include "trestle/fabric/live_collectives.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "path_check.h"
#include "trestle.pb.h"
#include "trestle/fabric/network_model_factory.h"

namespace trestle::fabric {
namespace {

// switch:4 with 400 Gbps links (50 B/ns), 500 ns links, 100 ns switch and a
// 10 ns endpoint delay: a message between ranks costs 1,110 ns + bytes / 50.
constexpr std::uint64_t kHop = 1110;

struct Msg {
  std::string peer;
  std::int32_t label;
  std::uint64_t bytes = 0;
};
struct StepSpec {
  std::vector<Msg> sends;
  std::vector<Msg> recvs;
  std::uint64_t reduce_ns = 0;
};

wire::RankCollective Collective(std::uint64_t group, std::uint64_t instance,
                                std::uint32_t members, std::vector<StepSpec> steps,
                                std::uint64_t compute_ns = 0) {
  wire::RankCollective c;
  c.set_group(group);
  c.set_instance(instance);
  c.set_members(members);
  c.set_compute_ns(compute_ns);
  for (const StepSpec& spec : steps) {
    wire::CollectiveStep* s = c.add_steps();
    for (const Msg& m : spec.sends) {
      wire::CollectiveSend* out = s->add_sends();
      out->set_peer(m.peer);
      out->set_label(m.label);
      out->set_bytes(m.bytes);
    }
    for (const Msg& m : spec.recvs) {
      wire::CollectiveRecv* out = s->add_recvs();
      out->set_peer(m.peer);
      out->set_label(m.label);
    }
    s->set_reduce_ns(spec.reduce_ns);
  }
  return c;
}

std::string Batch(std::initializer_list<wire::RankCollective> collectives) {
  wire::CollectiveBatch b;
  for (const wire::RankCollective& c : collectives) *b.add_collectives() = c;
  return b.SerializeAsString();
}

// One step: send `bytes` to `peer` and receive from it, both with label 0.
wire::RankCollective Exchange(std::uint64_t group, std::uint64_t instance, const std::string& peer,
                              std::uint64_t bytes, std::uint64_t compute_ns = 0) {
  return Collective(group, instance, 2, {{{{peer, 0, bytes}}, {{peer, 0}}}}, compute_ns);
}

class LiveCollectivesTest : public ::testing::Test {
 protected:
  LiveCollectivesTest()
      : topology_(MustBuild("switch:4,link_bw=400Gbps,link_latency=500ns,switch_latency=100ns")),
        model_(MakeNetworkModel(
            NetworkModelKind::kUnaware, *topology_,
            NetworkModelOptions{RoutingKind::kMinimal, 1, Duration::Nanoseconds(10)})),
        live_(*model_, [](const std::string& id) -> NodeId {
          static const std::map<std::string, NodeId> kIds = {
              {"r0", 0}, {"r1", 1}, {"r2", 2}, {"r3", 3}};
          auto it = kIds.find(id);
          return it == kIds.end() ? kNoNode : it->second;
        }) {}

  // Takes a transit; returns what ended, by transit id (dropped: t = -1).
  std::map<std::uint64_t, std::int64_t> Take(std::uint64_t id, const std::string& rank,
                                             std::uint64_t t_send, const std::string& batch,
                                             absl::Status* status = nullptr) {
    std::vector<LiveCollectives::Ended> ended;
    absl::Status s = live_.Take(id, rank, t_send, batch, &ended);
    // Nothing else is in the model: run the replay as far as it goes.
    std::vector<ModelCompletion> others;
    absl::Status ran = live_.Run(NetworkModel::kNoEvent, &others, &ended);
    if (s.ok()) s = ran;
    EXPECT_TRUE(others.empty());
    if (status != nullptr) {
      *status = s;
    } else {
      EXPECT_TRUE(s.ok()) << s;
    }
    std::map<std::uint64_t, std::int64_t> out;
    for (const auto& e : ended) {
      EXPECT_FALSE(out.contains(e.transit_id)) << "transit " << e.transit_id << " ended twice";
      out[e.transit_id] = e.dropped ? -1 : static_cast<std::int64_t>(e.t_ns);
    }
    return out;
  }

  TopologyPtr topology_;
  NetworkModelPtr model_;
  LiveCollectives live_;
};

using Ends = std::map<std::uint64_t, std::int64_t>;

TEST_F(LiveCollectivesTest, AnExchangeRunsWhenBothEntriesHaveComeEachFromItsOwnTSend) {
  EXPECT_TRUE(Take(1, "r0", 100, Batch({Exchange(7, 0, "r1", 1000)})).empty());
  EXPECT_EQ(live_.held(), 1u);
  // r0 sends at 100 (arrives 100 + 1,110 + 20), r1 at 300 (arrives 1,430).
  EXPECT_EQ(Take(2, "r1", 300, Batch({Exchange(7, 0, "r0", 1000)})),
            (Ends{{1, 300 + kHop + 20}, {2, 100 + kHop + 20}}));
  EXPECT_EQ(live_.held(), 0u);
}

TEST_F(LiveCollectivesTest, ARanksCollectivesRunInOrderEachAfterThePreviousPlusItsCompute) {
  // Two exchanges in one batch each; the second after 50 ns of compute, and
  // a third in a later transit whose t_send is behind the rank's clock.
  EXPECT_TRUE(Take(1, "r0", 0, Batch({Exchange(7, 0, "r1", 0), Exchange(7, 1, "r1", 0, 50)}))
                  .empty());
  EXPECT_EQ(Take(2, "r1", 0, Batch({Exchange(7, 0, "r0", 0), Exchange(7, 1, "r0", 0, 50)})),
            (Ends{{1, 2 * kHop + 50}, {2, 2 * kHop + 50}}));
  EXPECT_TRUE(Take(3, "r0", 0, Batch({Exchange(7, 2, "r1", 0)})).empty());
  EXPECT_EQ(Take(4, "r1", 0, Batch({Exchange(7, 2, "r0", 0)})),
            (Ends{{3, 3 * kHop + 50}, {4, 3 * kHop + 50}}));
}

TEST_F(LiveCollectivesTest, ARankThatOnlySendsEndsAtItsStartAndItsPeerAtTheArrival) {
  // A reduce to r0 over three ranks, linear: r1 and r2 send, r0 receives both.
  const std::string root = Batch({Collective(3, 0, 3, {{{}, {{"r1", 1}, {"r2", 2}}, 40}})});
  EXPECT_TRUE(Take(1, "r0", 0, root).empty());
  EXPECT_EQ(Take(2, "r1", 500, Batch({Collective(3, 0, 3, {{{{"r0", 1, 5000}}, {}}})})),
            (Ends{{2, 500}}))
      << "r1 only sends: it ends at once, though r2 has not sent its entry";
  EXPECT_EQ(Take(3, "r2", 0, Batch({Collective(3, 0, 3, {{{{"r0", 2, 0}}, {}}})})),
            (Ends{{1, 500 + kHop + 100 + 40}, {3, 0}}))
      << "r0 waits for r1's 5,000 bytes (100 ns), then reduces for 40 ns";
}

TEST_F(LiveCollectivesTest, ACollectiveWaitsForEveryMemberToReachIt) {
  // r0 takes part in group 1 (with r1), then group 2 (with r2). r2's entry
  // for group 2 comes first: it waits until r0 has finished group 1.
  EXPECT_TRUE(Take(1, "r0", 0, Batch({Exchange(1, 0, "r1", 0), Exchange(2, 0, "r2", 0)})).empty());
  EXPECT_TRUE(Take(2, "r2", 0, Batch({Exchange(2, 0, "r0", 0)})).empty());
  EXPECT_EQ(live_.held(), 2u);
  EXPECT_EQ(Take(3, "r1", 0, Batch({Exchange(1, 0, "r0", 0)})),
            (Ends{{1, kHop}, {2, 2 * kHop}, {3, kHop}}))
      << "r2's message, sent at 0, is there when r0 reaches group 2 at 1,110; r0's reaches r2 "
         "at 2,220";
}

TEST_F(LiveCollectivesTest, ATransitWithNoCollectivesEndsAtItsTSend) {
  EXPECT_EQ(Take(1, "r0", 250, Batch({})), (Ends{{1, 250}}));
}

TEST_F(LiveCollectivesTest, BadBatchesAreDroppedNamingTheProblem) {
  absl::Status s;
  EXPECT_EQ(Take(1, "r0", 0, "\xff\xff\xff", &s), (Ends{{1, -1}}));
  EXPECT_NE(s.message().find("collectives of r0 (message 1): not a serialized "
                             "trestle.wire.CollectiveBatch"),
            std::string::npos)
      << s;
  EXPECT_EQ(Take(2, "r0", 0, Batch({Exchange(1, 0, "ghost", 0)}), &s), (Ends{{2, -1}}));
  EXPECT_NE(s.message().find("client id 'ghost' has no endpoint"), std::string::npos) << s;
  EXPECT_EQ(Take(3, "r0", 0, Batch({Collective(1, 0, 0, {})}), &s), (Ends{{3, -1}}));
  EXPECT_NE(s.message().find("has 0 members"), std::string::npos) << s;
  EXPECT_EQ(live_.held(), 0u) << "nothing of a refused batch is kept";
}

TEST_F(LiveCollectivesTest, MembersThatDisagreeDropTheCollectiveNamingIt) {
  absl::Status s;
  EXPECT_TRUE(Take(1, "r0", 0, Batch({Exchange(5, 3, "r1", 0)})).empty());
  EXPECT_EQ(Take(2, "r1", 0, Batch({Collective(5, 3, 3, {{{{"r0", 0, 0}}, {{"r0", 0}}}})}), &s),
            (Ends{{1, -1}, {2, -1}}));
  EXPECT_NE(s.message().find("collective (group 5, instance 3): r1 says it has 3 members, but r0 "
                             "says 2"),
            std::string::npos)
      << s;

  EXPECT_TRUE(Take(3, "r0", 0, Batch({Collective(6, 0, 2, {{{{"r1", 0, 0}}, {{"r1", 7}}}})}))
                  .empty());
  EXPECT_EQ(Take(4, "r1", 0, Batch({Exchange(6, 0, "r0", 0)}), &s), (Ends{{3, -1}, {4, kHop}}))
      << "r1 got what it waits for; r0 never will";
  EXPECT_NE(s.message().find("collective (group 6, instance 0): r0 waits in step 0 for a message "
                             "from r1 (label 7) that no member sends"),
            std::string::npos)
      << s;
  EXPECT_EQ(live_.held(), 0u);
}

}  // namespace
}  // namespace trestle::fabric
