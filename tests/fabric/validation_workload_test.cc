// ValidationWorkload and ModelWorkloadRun: the specs parse and name their
// errors; each kind has the shape its documentation gives (a derangement,
// incast groups, chained all-to-all ranks, a victim beside an aggressor);
// a run through a model sends chained messages as their predecessors
// arrive and stops once every sample is in.
#include "trestle/fabric/validation_workload.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>

#include "path_check.h"
#include "trestle/fabric/model_workload_run.h"
#include "trestle/fabric/network_model_factory.h"

namespace trestle::fabric {
namespace {

using ::testing::HasSubstr;

ValidationWorkload Make(const std::string& spec, std::uint32_t endpoints) {
  auto parsed = ValidationWorkload::Spec::Parse(spec);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  auto workload = ValidationWorkload::Make(*parsed, endpoints, 1);
  EXPECT_TRUE(workload.ok()) << workload.status();
  return *std::move(workload);
}

std::string ParseError(const std::string& spec) {
  return std::string(ValidationWorkload::Spec::Parse(spec).status().message());
}

TEST(ValidationWorkload, SpecsParseNameThemselvesAndSayWhatIsWrong) {
  for (const std::string spec : {"permutation:1MiB", "incast:8:256KiB", "alltoall:64KiB",
                                 "victim:8B", "victim:8B+alltoall:256KiB",
                                 "victim:64B+incast:1MiB"}) {
    EXPECT_EQ(ValidationWorkload::Spec::Parse(spec)->Name(), spec);
  }
  EXPECT_FALSE(ValidationWorkload::Spec::Parse("victim:8B")->BandwidthBound());
  EXPECT_TRUE(ValidationWorkload::Spec::Parse("alltoall:8B")->BandwidthBound());
  EXPECT_THAT(ParseError("shuffle:1MiB"), HasSubstr("workload 'shuffle:1MiB': unknown kind 'shuffle'"));
  EXPECT_THAT(ParseError("incast:1MiB"), HasSubstr("incast needs senders per receiver"));
  EXPECT_THAT(ParseError("incast:0:1MiB"), HasSubstr("incast needs senders per receiver"));
  EXPECT_THAT(ParseError("permutation"), HasSubstr("needs a size"));
  EXPECT_THAT(ParseError("permutation:0B"), HasSubstr("a size of 0 bytes"));
  EXPECT_THAT(ParseError("alltoall:12"), HasSubstr("workload 'alltoall:12'"));
  EXPECT_THAT(ParseError("victim:8B+bcast:1MiB"), HasSubstr("unknown aggressor 'bcast'"));
  EXPECT_THAT(ParseError("victim:8B+alltoall"), HasSubstr("the aggressor needs a size"));
}

TEST(ValidationWorkload, APermutationSendsOnceFromAndToEveryEndpoint) {
  const ValidationWorkload w = Make("permutation:1KiB", 16);
  std::set<NodeId> sources, destinations;
  for (const WorkloadMessage& m : w.messages()) {
    EXPECT_NE(m.src, m.dst);
    EXPECT_EQ(m.after, WorkloadMessage::kRoot);
    EXPECT_EQ(m.t_send_ns, 0u);
    sources.insert(m.src);
    destinations.insert(m.dst);
  }
  EXPECT_EQ(sources.size(), 16u);
  EXPECT_EQ(destinations.size(), 16u);
  EXPECT_EQ(w.sample_count(), 16u);
}

TEST(ValidationWorkload, IncastGroupsAsManyAsFitAndCutTheFanInToTheNetwork) {
  auto receivers = [](const ValidationWorkload& w) {
    std::map<NodeId, int> senders;
    for (const WorkloadMessage& m : w.messages()) ++senders[m.dst];
    return senders;
  };
  const auto seven = receivers(Make("incast:8:1KiB", 64));
  EXPECT_EQ(seven.size(), 7u);
  for (const auto& [receiver, count] : seven) EXPECT_EQ(count, 8) << receiver;
  const auto cut = receivers(Make("incast:32:1KiB", 16));
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_EQ(cut.begin()->second, 15);
}

TEST(ValidationWorkload, AnAllToAllChainsEachRanksMessages) {
  const ValidationWorkload w = Make("alltoall:1KiB", 4);
  ASSERT_EQ(w.messages().size(), 12u);
  std::set<std::pair<NodeId, NodeId>> pairs;
  for (std::uint32_t i = 0; i < 12; ++i) {
    const WorkloadMessage& m = w.messages()[i];
    pairs.insert({m.src, m.dst});
    EXPECT_EQ(m.after, i % 3 == 0 ? WorkloadMessage::kRoot : i - 1) << i;
    EXPECT_EQ(m.dst, (m.src + i % 3 + 1) % 4) << i;
  }
  EXPECT_EQ(pairs.size(), 12u);
  EXPECT_EQ(w.Pairs().size(), 12u);
}

TEST(ValidationWorkload, AVictimIsAFifthOfTheEndpointsAloneOrBesideItsAggressor) {
  const ValidationWorkload alone = Make("victim:8B", 20);
  const ValidationWorkload beside = Make("victim:8B+alltoall:1KiB", 20);
  EXPECT_EQ(alone.sample_count(), 4u * ValidationWorkload::kVictimMessages);
  EXPECT_EQ(beside.sample_count(), alone.sample_count());
  std::vector<WorkloadMessage> victim;
  std::set<NodeId> victims, aggressors;
  for (const WorkloadMessage& m : beside.messages()) {
    if (m.sample) {
      victim.push_back(m);
      victims.insert(m.src);
    } else {
      aggressors.insert(m.src);
      EXPECT_EQ(m.bytes, 1024u);
    }
  }
  EXPECT_EQ(victims.size(), 4u);
  EXPECT_EQ(aggressors.size(), 16u);
  ASSERT_EQ(victim.size(), alone.messages().size());
  for (std::size_t i = 0; i < victim.size(); ++i) {
    EXPECT_EQ(victim[i].src, alone.messages()[i].src);
    EXPECT_EQ(victim[i].dst, alone.messages()[i].dst);
    EXPECT_EQ(victim[i].t_send_ns, alone.messages()[i].t_send_ns);
    EXPECT_GE(victim[i].t_send_ns, ValidationWorkload::kVictimStartNs);
  }
  EXPECT_THAT(std::string(ValidationWorkload::Make(*ValidationWorkload::Spec::Parse(
                                                        "victim:8B+incast:1KiB"),
                                                    3, 1)
                              .status()
                              .message()),
              HasSubstr("needs at least 4 endpoints"));
}

TEST(ModelWorkloadRun, ChainedMessagesLeaveWhenTheirPredecessorsArrive) {
  // On one switch each step of a 3-rank all-to-all is a permutation: sent
  // one after another no two messages share a link, so each takes its time
  // alone (sent at once, two would share each uplink).
  TopologyPtr t = MustBuild("switch:3");
  const ValidationWorkload w = Make("alltoall:64KiB", 3);
  NetworkModelPtr unaware = MakeNetworkModel(NetworkModelKind::kUnaware, *t, {});
  NetworkModelPtr flow = MakeNetworkModel(NetworkModelKind::kFlow, *t, {});
  const auto alone = ModelWorkloadRun::Run(*unaware, 3, w);
  const auto shared = ModelWorkloadRun::Run(*flow, 3, w);
  ASSERT_TRUE(alone.ok() && shared.ok());
  for (std::size_t i = 0; i < w.messages().size(); ++i) {
    EXPECT_DOUBLE_EQ(shared->latency_ns[i], alone->latency_ns[i]) << i;
  }
}

TEST(ModelWorkloadRun, ItStopsOnceEverySampleIsIn) {
  TopologyPtr t = MustBuild("fattree:k=4");
  const ValidationWorkload w = Make("victim:8B+incast:1MiB", 16);
  NetworkModelPtr flow = MakeNetworkModel(NetworkModelKind::kFlow, *t, {});
  const auto times = ModelWorkloadRun::Run(*flow, 16, w);
  ASSERT_TRUE(times.ok()) << times.status();
  for (double latency : times->Samples(w)) EXPECT_FALSE(std::isnan(latency));
  int never_sent = 0;
  for (std::size_t i = 0; i < w.messages().size(); ++i) never_sent += std::isnan(times->latency_ns[i]);
  EXPECT_GT(never_sent, 0) << "the incast's later messages are not waited for";
  EXPECT_THAT(std::string(ModelWorkloadRun::Run(*flow, 8, w).status().message()),
              HasSubstr("of a topology with 8"));
}

}  // namespace
}  // namespace trestle::fabric
