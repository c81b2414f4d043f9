// FlowNetworkModel: a flow alone is priced exactly as by the
// congestion-unaware model; flows sharing a link, by hand; traffic classes
// (80/20, then 100 %); conservation (every message completes once, moves its
// bytes, never beats the idle network, no link over capacity after any
// event); late messages; order independence; the lockstep bound; adaptive
// routing around a loaded global link; the step pricer against simulation;
// the seed experiment through the model, unchanged by its queues.
#include "trestle/fabric/flow_network_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "path_check.h"
#include "trestle/fabric/message_time_model.h"
#include "trestle/fabric/simulated_step_pricer.h"
#include "trestle/fabric/unaware_network_model.h"

namespace trestle::fabric {
namespace {

constexpr char kLinks[] = ",link_bw=400Gbps,link_latency=500ns,switch_latency=100ns";

TopologyPtr Build(const std::string& spec) { return MustBuild(spec + kLinks); }

NetworkModelOptions Options(RoutingKind routing = RoutingKind::kMinimal, bool cc = true) {
  NetworkModelOptions options{routing, 7, Duration::Nanoseconds(10)};
  options.flow.congestion_control = cc;
  options.flow.check_invariants = true;
  return options;
}

// Runs the model until nothing is in flight; returns the completions.
std::vector<ModelCompletion> Drain(NetworkModel& model) {
  std::vector<ModelCompletion> completed;
  while (model.InFlight() > 0) model.AdvanceTo(model.NextEventNs(), &completed);
  return completed;
}

TEST(FlowNetworkModel, AFlowAloneIsPricedExactlyAsByTheUnawareModel) {
  for (const std::string spec : {"switch:8", "ring:8", "torus:3x4", "fattree:k=4",
                                 "dragonfly:p=2,a=4,h=2,g=9", "slingshot-1k"}) {
    for (RoutingKind kind :
         {RoutingKind::kMinimal, RoutingKind::kValiant, RoutingKind::kAdaptive}) {
      for (bool cc : {true, false}) {
        SCOPED_TRACE(spec + " " + std::string(RoutingKindName(kind)) + (cc ? " cc" : ""));
        TopologyPtr t = Build(spec);
        FlowNetworkModel model(*t, Options(kind, cc));
        MessageTimeModel reference(*t, {Duration::Nanoseconds(10)});
        // The model's routing: one path per connection.
        RoutingPtr routing = MakeRouting(kind, *t, 7, nullptr, PathChoice::kPerConnection);
        std::mt19937_64 rng(3);
        std::uniform_int_distribution<NodeId> endpoint(0, t->EndpointCount() - 1);
        std::uint64_t t_send = 0;
        for (std::uint64_t id = 1; id <= 60; ++id) {
          const ModelMessage m{id, endpoint(rng), endpoint(rng), rng() % 200000, 0, t_send};
          std::vector<ModelCompletion> completed;
          model.Submit(m, &completed);
          for (const ModelCompletion& c : Drain(model)) completed.push_back(c);
          ASSERT_EQ(completed.size(), 1u);
          const double ns = reference.TimeNs(m.src, m.dst, m.size_bytes, 0, *routing);
          EXPECT_EQ(completed[0].id, id);
          EXPECT_EQ(completed[0].latency_ns, ns) << "exactly";
          t_send = model.NowNs() + rng() % 1000;
        }
        EXPECT_TRUE(model.invariants().ok()) << model.invariants();
      }
    }
  }
}

// switch:4 with 400 Gbps (50 B/ns) everywhere, 500 ns links, 100 ns switch,
// 10 ns endpoint delay: fixed = 10 + 2 × 500 + 100 = 1,110 ns.
constexpr double kFixed = 1110;

TEST(FlowNetworkModel, TwoFlowsIntoOneEndpointShareItsLink) {
  TopologyPtr t = Build("switch:4");
  FlowNetworkModel model(*t, Options());
  std::vector<ModelCompletion> completed;
  // 0 -> 2 and 1 -> 2, 100,000 bytes each, together: 25 B/ns each.
  model.Submit(ModelMessage{1, 0, 2, 100000, 0, 0}, &completed);
  model.Submit(ModelMessage{2, 1, 2, 100000, 0, 0}, &completed);
  EXPECT_TRUE(completed.empty()) << "completions come as the clock advances";
  EXPECT_EQ(model.InFlight(), 2u);
  // More may start at 0 until the clock moves past it; then they share.
  EXPECT_EQ(model.NextEventNs(), 1u);
  model.AdvanceTo(1, &completed);
  EXPECT_EQ(model.ActiveFlows(), 2u);
  EXPECT_EQ(model.NextEventNs(), 4000u);
  completed = Drain(model);
  ASSERT_EQ(completed.size(), 2u);
  for (const ModelCompletion& c : completed) EXPECT_DOUBLE_EQ(c.latency_ns, kFixed + 4000);
  EXPECT_TRUE(model.invariants().ok()) << model.invariants();
}

TEST(FlowNetworkModel, ACompletionTimeFollowsTheRateHistory) {
  TopologyPtr t = Build("switch:4");
  FlowNetworkModel model(*t, Options());
  std::vector<ModelCompletion> completed;
  // A: 100,000 B at t = 0, alone at 50 B/ns for 1,000 ns (50,000 B), then
  // B starts: 25 B/ns each. A's last 50,000 B take 2,000 ns: transfer 3,000.
  // B (60,000 B): 50,000 B by t = 3,000, then alone: 200 ns more. Its
  // transfer: 2,200 ns. At endpoint 2's port B finds A's packet in
  // transmission (A alone there is paced: nothing queued behind it): half a
  // 4 KiB packet at 50 B/ns, 40.96 ns.
  model.Submit(ModelMessage{1, 0, 2, 100000, 0, 0}, &completed);
  model.AdvanceTo(1000, &completed);
  EXPECT_TRUE(completed.empty());
  model.Submit(ModelMessage{2, 1, 2, 60000, 0, 1000}, &completed);
  completed = Drain(model);
  ASSERT_EQ(completed.size(), 2u);
  EXPECT_EQ(completed[0].id, 1u);
  EXPECT_NEAR(completed[0].latency_ns, kFixed + 3000, 1e-6);
  EXPECT_EQ(completed[1].id, 2u);
  EXPECT_NEAR(completed[1].latency_ns, kFixed + 2200 + 40.96, 1e-6);
  EXPECT_EQ(completed[1].t_deliver_ns(), 1000u + 1110 + 2200 + 41);
}

TEST(FlowNetworkModel, TrafficClassesSplitEightyTwentyThenTheSecondGetsAll) {
  TopologyPtr t = Build("switch:4");
  NetworkModelOptions options = Options();
  options.flow.classes = *TrafficClassTable::Make(
      {TrafficClassSpec{1, ClassShare{1, 0.8}}, TrafficClassSpec{2, ClassShare{1, 0.2}}});
  FlowNetworkModel model(*t, options);
  std::vector<ModelCompletion> completed;
  // 100,000 B each into endpoint 2: class 1 at 40 B/ns ends at 2,500 ns;
  // class 2 has moved 25,000 B at 10 B/ns, then 75,000 B at 50 B/ns.
  model.Submit(ModelMessage{1, 0, 2, 100000, 1, 0}, &completed);
  model.Submit(ModelMessage{2, 1, 2, 100000, 2, 0}, &completed);
  completed = Drain(model);
  ASSERT_EQ(completed.size(), 2u);
  EXPECT_NEAR(completed[0].latency_ns, kFixed + 2500, 1e-6);
  EXPECT_NEAR(completed[1].latency_ns, kFixed + 2500 + 1500, 1e-6);
}

TEST(FlowNetworkModel, ALateMessageStartsAtTheClockAndCountsItsLatencyFromThere) {
  TopologyPtr t = Build("switch:4");
  FlowNetworkModel model(*t, Options());
  std::vector<ModelCompletion> completed;
  model.AdvanceTo(10000, &completed);
  model.Submit(ModelMessage{1, 0, 2, 50000, 0, 4000}, &completed);
  completed = Drain(model);
  ASSERT_EQ(completed.size(), 1u);
  EXPECT_DOUBLE_EQ(completed[0].latency_ns, kFixed + 1000);
  EXPECT_EQ(completed[0].t_deliver_ns(), 4000u + 2110);
}

TEST(FlowNetworkModel, MessagesToThemselvesAndEmptyMessagesCompleteWhenTheyStart) {
  TopologyPtr t = Build("switch:4");
  FlowNetworkModel model(*t, Options());
  std::vector<ModelCompletion> completed;
  model.Submit(ModelMessage{1, 3, 3, 5000, 0, 0}, &completed);
  model.Submit(ModelMessage{2, 0, 1, 0, 0, 0}, &completed);
  ASSERT_EQ(completed.size(), 2u);
  EXPECT_EQ(completed[0].latency_ns, 10);
  EXPECT_EQ(completed[1].latency_ns, kFixed);
  model.Submit(ModelMessage{3, 0, 1, 0, 0, 500}, &completed);
  EXPECT_EQ(completed.size(), 2u) << "a future start waits for the clock";
  EXPECT_EQ(model.NextEventNs(), 500u);
  model.AdvanceTo(500, &completed);
  ASSERT_EQ(completed.size(), 3u);
  EXPECT_EQ(completed[2].t_deliver_ns(), 500u + 1110);
}

// Random traffic with the debug checks on: every message completes once,
// moves its bytes, is never faster than alone on the idle network (same
// route: minimal routing), and the lockstep bound never overtakes a delivery
// (nor does a message submitted later move one below its t_send + the
// lookahead).
// With connections (the default), every connection's messages arrive in the
// order they were sent; on three endpoints most messages wait behind their
// connection. As datagrams, some overtake.
TEST(FlowNetworkModel, ConservationUnderRandomTraffic) {
  for (const char* spec : {"dragonfly:p=2,a=4,h=2,g=9", "switch:3"})
  for (MessageOrdering ordering : {MessageOrdering::kConnection, MessageOrdering::kMessage})
  for (bool cc : {true, false}) {
    SCOPED_TRACE(std::string(spec) + " " + std::string(MessageOrderingName(ordering)) +
                 (cc ? " cc on" : " cc off"));
    TopologyPtr t = Build(spec);
    NetworkModelOptions options = Options(RoutingKind::kMinimal, cc);
    options.ordering = ordering;
    options.flow.classes = *TrafficClassTable::Make({TrafficClassSpec{1, ClassShare{2, 0.3}}});
    FlowNetworkModel model(*t, options);
    MessageTimeModel reference(*t, {Duration::Nanoseconds(10)});
    RoutingPtr routing = MakeRouting(RoutingKind::kMinimal, *t, 7);
    std::mt19937_64 rng(11);
    std::uniform_int_distribution<NodeId> endpoint(0, t->EndpointCount() - 1);
    std::map<std::uint64_t, ModelMessage> sent;
    std::map<std::uint64_t, std::uint64_t> bound_for;  // in flight: the highest bound seen
    const auto between =
        static_cast<std::uint64_t>(std::llround(model.MinLatency().between_endpoints_ns));
    std::vector<ModelCompletion> completed;
    auto take = [&](std::size_t from) {
      for (std::size_t i = from; i < completed.size(); ++i) {
        auto it = bound_for.find(completed[i].id);
        ASSERT_NE(it, bound_for.end()) << "completed twice or never sent: " << completed[i].id;
        EXPECT_GE(completed[i].t_deliver_ns(), it->second) << "delivered before the bound";
        bound_for.erase(it);
      }
    };
    auto note_bound = [&] {
      const std::uint64_t bound = model.PendingDeliveryBoundNs();
      if (bound_for.empty()) {
        EXPECT_EQ(bound, NetworkModel::kNoEvent);
      }
      for (auto& [id, b] : bound_for) b = std::max(b, bound == NetworkModel::kNoEvent ? 0 : bound);
    };
    std::uint64_t clock = 0, id = 0;
    for (int round = 0; round < 200; ++round) {
      for (int i = 0; i < 3; ++i) {
        ModelMessage m{++id, endpoint(rng), endpoint(rng), rng() % 300000,
                       static_cast<TrafficClass>(rng() % 2), clock + rng() % 3000};
        sent[m.id] = m;
        // A later message moves the others from its t_send + the lookahead on.
        if (m.src != m.dst) {
          for (auto& [other, b] : bound_for) b = std::min(b, m.t_send_ns + between);
        }
        bound_for[m.id] = 0;
        const std::size_t before = completed.size();
        model.Submit(m, &completed);
        take(before);
      }
      note_bound();
      clock += rng() % 2000;
      const std::size_t before = completed.size();
      model.AdvanceTo(clock, &completed);
      take(before);
      note_bound();
      ASSERT_TRUE(model.invariants().ok()) << model.invariants();
    }
    const std::size_t before = completed.size();
    for (const ModelCompletion& c : Drain(model)) completed.push_back(c);
    take(before);
    EXPECT_TRUE(bound_for.empty());
    ASSERT_TRUE(model.invariants().ok()) << model.invariants();
    EXPECT_EQ(completed.size(), sent.size());
    for (const ModelCompletion& c : completed) {
      const ModelMessage& m = sent.at(c.id);
      EXPECT_EQ(c.t_send_ns, m.t_send_ns);
      const double alone = reference.TimeNs(m.src, m.dst, m.size_bytes, 0, *routing);
      EXPECT_GE(c.latency_ns, alone * (1 - 1e-9)) << c.id;
    }
    EXPECT_EQ(model.InFlight(), 0u);
    EXPECT_EQ(model.ActiveFlows(), 0u);
    EXPECT_EQ(model.WaitingMessages(), 0u);
    // Per connection, in sending order (t_send, then id): is any delivery
    // earlier than one sent before it?
    std::map<std::tuple<NodeId, NodeId, TrafficClass>, std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t>> by_connection;
    for (const ModelCompletion& c : completed) {
      const ModelMessage& m = sent.at(c.id);
      if (m.src == m.dst) continue;
      by_connection[{m.src, m.dst, m.tclass}][{m.t_send_ns, m.id}] = c.t_deliver_ns();
    }
    int overtaken = 0;
    for (const auto& [connection, deliveries] : by_connection) {
      std::uint64_t latest = 0;
      for (const auto& [sent_at, t_deliver] : deliveries) {
        if (t_deliver < latest) ++overtaken;
        latest = std::max(latest, t_deliver);
      }
    }
    if (ordering == MessageOrdering::kConnection) {
      EXPECT_EQ(overtaken, 0);
    } else if (std::string(spec) == "switch:3") {
      EXPECT_GT(overtaken, 0) << "datagrams on three endpoints: some overtake";
    }
  }
}

// A lockstep delta step hands over some of an instant's starts after the
// model has reached the instant: every way of splitting them gives the
// times of one batch, since the instant's starts all see the network as it
// was before it (here, the queues the earlier flows keep standing).
TEST(FlowNetworkModel, AnInstantsStartsGiveTheSameTimesHoweverTheyAreSplit) {
  TopologyPtr t = Build("fattree:k=4");
  std::vector<ModelMessage> early, at_instant;
  std::mt19937_64 rng(21);
  for (std::uint64_t id = 1; id <= 40; ++id) {
    early.push_back(ModelMessage{id, static_cast<NodeId>(rng() % 16),
                                 static_cast<NodeId>(rng() % 16), 20000 + rng() % 100000, 0,
                                 rng() % 2000});
    at_instant.push_back(ModelMessage{100 + id, static_cast<NodeId>(rng() % 16),
                                      static_cast<NodeId>(rng() % 16), rng() % 100000, 0, 3000});
  }
  std::map<std::uint64_t, std::uint64_t> first;
  for (std::size_t split = 0; split <= at_instant.size(); split += 8) {
    FlowNetworkModel model(*t, Options());
    std::vector<ModelCompletion> completed;
    for (const ModelMessage& m : early) model.Submit(m, &completed);
    // The first `split` at 3,000 come before the model reaches it, the rest
    // once it is there.
    for (std::size_t i = 0; i < split; ++i) model.Submit(at_instant[i], &completed);
    model.AdvanceTo(3000, &completed);
    for (std::size_t i = split; i < at_instant.size(); ++i) {
      model.Submit(at_instant[i], &completed);
    }
    for (const ModelCompletion& c : Drain(model)) completed.push_back(c);
    ASSERT_EQ(completed.size(), early.size() + at_instant.size());
    for (const ModelCompletion& c : completed) {
      if (split == 0) {
        first[c.id] = c.t_deliver_ns();
      } else {
        EXPECT_EQ(c.t_deliver_ns(), first[c.id]) << "message " << c.id << ", split " << split;
      }
    }
    EXPECT_TRUE(model.invariants().ok()) << model.invariants();
  }
}

// A large message, then a small one on the same connection. As datagrams
// they share the connection's bandwidth and the small one arrives first;
// on a connection the small one's bytes follow the large one's.
TEST(FlowNetworkModel, OrderedByMessageASmallMessageOvertakesOnAConnectionItWaits) {
  TopologyPtr t = Build("switch:4");
  for (MessageOrdering ordering : {MessageOrdering::kMessage, MessageOrdering::kConnection}) {
    SCOPED_TRACE(std::string(MessageOrderingName(ordering)));
    NetworkModelOptions options = Options();
    options.ordering = ordering;
    FlowNetworkModel model(*t, options);
    std::vector<ModelCompletion> completed;
    model.Submit(ModelMessage{1, 0, 1, 100000, 0, 0}, &completed);
    model.Submit(ModelMessage{2, 0, 1, 1000, 0, 500}, &completed);
    completed = Drain(model);
    ASSERT_EQ(completed.size(), 2u);
    std::map<std::uint64_t, std::uint64_t> t_deliver;
    for (const ModelCompletion& c : completed) t_deliver[c.id] = c.t_deliver_ns();
    if (ordering == MessageOrdering::kMessage) {
      // 25 B/ns each from 500: the small one moves its 1,000 B by 540. At
      // endpoint 1's port it finds the large one's packet in transmission:
      // half a 4 KiB packet at 50 B/ns, 41 ns.
      EXPECT_EQ(t_deliver[2], 540u + 1110 + 41);
      EXPECT_EQ(t_deliver[1], 2020u + 1110);
      EXPECT_LT(t_deliver[2], t_deliver[1]) << "overtaken";
    } else {
      // The large one alone: 2,000 ns; then the small one: 20 ns.
      EXPECT_EQ(t_deliver[1], 2000u + 1110);
      EXPECT_EQ(t_deliver[2], 2020u + 1110);
    }
    EXPECT_TRUE(model.invariants().ok()) << model.invariants();
  }
}

// A connection's messages back to back, alone on the network, cost what the
// congestion-unaware model's connection says: its bytes at the path's
// bottleneck, one message after the other.
TEST(FlowNetworkModel, AConnectionAloneCostsWhatTheUnawareModelSays) {
  for (const std::string spec : {"switch:4", "torus:4x4", "slingshot-1k"}) {
    SCOPED_TRACE(spec);
    TopologyPtr t = Build(spec);
    FlowNetworkModel flow(*t, Options());
    UnawareNetworkModel unaware(*t, Options());
    std::mt19937_64 rng(9);
    std::vector<ModelCompletion> by_flow, by_unaware;
    std::uint64_t t_send = 0;
    for (std::uint64_t id = 1; id <= 40; ++id) {
      const ModelMessage m{id, 1, 6, rng() % 50000, 0, t_send};
      flow.Submit(m, &by_flow);
      unaware.Submit(m, &by_unaware);
      t_send += rng() % 1500;
    }
    for (const ModelCompletion& c : Drain(flow)) by_flow.push_back(c);
    ASSERT_EQ(by_flow.size(), by_unaware.size());
    EXPECT_GT(flow.events(), 0u);
    for (std::size_t i = 0; i < by_flow.size(); ++i) {
      EXPECT_EQ(by_flow[i].id, by_unaware[i].id);
      EXPECT_NEAR(by_flow[i].latency_ns, by_unaware[i].latency_ns, 1e-6) << by_flow[i].id;
    }
  }
}

TEST(FlowNetworkModel, TheOrderOfSubmissionDoesNotMatter) {
  TopologyPtr t = Build("fattree:k=4");
  std::vector<ModelMessage> messages;
  std::mt19937_64 rng(5);
  for (std::uint64_t id = 1; id <= 80; ++id) {
    messages.push_back(ModelMessage{id, static_cast<NodeId>(rng() % 16),
                                    static_cast<NodeId>(rng() % 16), rng() % 100000, 0,
                                    1000 + (rng() % 4) * 700});
  }
  std::map<std::uint64_t, double> first;
  for (int order = 0; order < 3; ++order) {
    FlowNetworkModel model(*t, Options(RoutingKind::kAdaptive));
    std::vector<ModelCompletion> completed;
    for (const ModelMessage& m : messages) model.Submit(m, &completed);
    for (const ModelCompletion& c : Drain(model)) completed.push_back(c);
    ASSERT_EQ(completed.size(), messages.size());
    for (const ModelCompletion& c : completed) {
      if (order == 0) {
        first[c.id] = c.latency_ns;
      } else {
        EXPECT_EQ(c.latency_ns, first[c.id]) << "message " << c.id << ", order " << order;
      }
    }
    std::shuffle(messages.begin(), messages.end(), rng);
  }
}

// Two groups joined by one global link (dragonfly, 1 global port per router):
// minimal routing sends every flow over it; adaptive routing, seeing the
// queue there, sends later flows through the third group, as long as the
// queues it would meet there cost less (× 1.25): at least a quarter of them.
TEST(FlowNetworkModel, AdaptiveRoutingSteersAroundALoadedGlobalLink) {
  TopologyPtr t = MustBuild("dragonfly:p=4,a=2,h=1,g=3,link_latency=10ns");
  std::map<RoutingKind, double> makespan;
  for (RoutingKind kind : {RoutingKind::kMinimal, RoutingKind::kAdaptive}) {
    NetworkModelOptions options{kind, 1, Duration::Nanoseconds(0)};
    FlowNetworkModel model(*t, options);
    std::vector<ModelCompletion> completed;
    // Endpoints 0..7 are group 0, 8..15 group 1.
    for (NodeId i = 0; i < 8; ++i) {
      model.Submit(ModelMessage{i, i, static_cast<NodeId>(8 + i), 1000000, 0, 100}, &completed);
    }
    for (const ModelCompletion& c : Drain(model)) completed.push_back(c);
    ASSERT_EQ(completed.size(), 8u);
    double slowest = 0;
    for (const ModelCompletion& c : completed) slowest = std::max(slowest, c.latency_ns);
    makespan[kind] = slowest;
  }
  // Minimal: 8 MB over one 25 B/ns link.
  EXPECT_NEAR(makespan[RoutingKind::kMinimal], 8e6 / 25, 2000);
  // At most 6 MB over the loaded link (and its 40 ns of latency).
  EXPECT_LE(makespan[RoutingKind::kAdaptive], 6e6 / 25 + 40);
}

std::vector<StepFlow> Shift(std::uint32_t ranks, std::uint32_t by) {
  std::vector<StepFlow> flows;
  for (std::uint32_t r = 0; r < ranks; ++r) flows.push_back(StepFlow{r, (r + by) % ranks, 0});
  return flows;
}

TEST(FlowNetworkModel, ItsStepPricerGivesTheSimulatedTimes) {
  for (const std::string spec : {"switch:8", "torus:4x4", "fattree:k=4,oversub=2",
                                 "dragonfly:p=2,a=4,h=2,g=9"}) {
    SCOPED_TRACE(spec);
    TopologyPtr t = Build(spec);
    FlowNetworkModel fast_model(*t, Options());
    FlowNetworkModel simulated_model(*t, Options());
    std::unique_ptr<StepPricer> fast = fast_model.NewStepPricer();
    SimulatedStepPricer simulated(simulated_model);
    const std::uint32_t n = t->EndpointCount();
    for (std::uint32_t by : {1u, 3u, n / 2}) {
      ASSERT_EQ(fast->AddStep(Shift(n, by)), simulated.AddStep(Shift(n, by)));
    }
    for (std::size_t step = 0; step < 3; ++step) {
      for (std::uint64_t bytes : {0ull, 1ull, 4096ull, 1ull << 24}) {
        const double time = fast->StepTimeNs(step, bytes);
        EXPECT_NEAR(time, simulated.StepTimeNs(step, bytes), 1e-6 * time) << step << " " << bytes;
      }
    }
    EXPECT_EQ(fast_model.ActiveFlows(), 0u);
    EXPECT_TRUE(simulated_model.invariants().ok()) << simulated_model.invariants();
  }
}

TEST(FlowNetworkModel, WhereNoLinkIsSharedItsStepsCostWhatTheUnawareModelSays) {
  // A shift by one on a ring: each flow has its own link.
  TopologyPtr t = Build("ring:8");
  FlowNetworkModel flow(*t, Options());
  UnawareNetworkModel unaware(*t, Options());
  std::unique_ptr<StepPricer> a = flow.NewStepPricer();
  std::unique_ptr<StepPricer> b = unaware.NewStepPricer();
  a->AddStep(Shift(8, 1));
  b->AddStep(Shift(8, 1));
  for (std::uint64_t bytes : {0ull, 100ull, 1ull << 20}) {
    EXPECT_EQ(a->StepTimeNs(0, bytes), b->StepTimeNs(0, bytes)) << bytes;
  }
}

// The seed experiment (docs/validation.md): ring all-reduce on switch:8 and
// ring:8, 400 Gbit/s and 500 ns links, 14 steps of S/8 to the next rank,
// through the flow model's Submit and AdvanceTo as live apps would run it:
// no link is shared and a step's messages start together, so no queue and
// no packet in transmission: the congestion-unaware model's times, 14.573
// and 7.573 µs at 16 KiB, 601.203 and 594.203 µs at 16 MiB.
TEST(FlowNetworkModel, TheSeedExperimentGivesItsNumbersThroughTheFlowModel) {
  for (const auto& [spec, hop_ns] : {std::pair<std::string, double>{"switch:8", 1000},
                                     std::pair<std::string, double>{"ring:8", 500}}) {
    SCOPED_TRACE(spec);
    TopologyPtr t = MustBuild(spec + ",link_bw=400Gbps,link_latency=500ns");
    FlowNetworkModel model(*t, NetworkModelOptions{});
    SimulatedStepPricer pricer(model);
    const std::size_t step = pricer.AddStep(Shift(8, 1));
    for (std::uint64_t size : {16ull << 10, 16ull << 20}) {
      EXPECT_DOUBLE_EQ(14 * pricer.StepTimeNs(step, size / 8), 14 * (hop_ns + size / 8 / 50.0))
          << size;
    }
  }
}

TEST(FlowNetworkModel, LatencyBoundsAreTheIdleNetworks) {
  TopologyPtr t = Build("fattree:k=4");
  EXPECT_EQ(FlowNetworkModel(*t, Options()).MinLatency().between_endpoints_ns,
            UnawareNetworkModel(*t, Options()).MinLatency().between_endpoints_ns);
  FlowNetworkModel model(*t, Options());
  EXPECT_EQ(model.PendingDeliveryBoundNs(), NetworkModel::kNoEvent);
  std::vector<ModelCompletion> completed;
  const auto between =
      static_cast<std::uint64_t>(std::llround(model.MinLatency().between_endpoints_ns));
  model.Submit(ModelMessage{1, 0, 5, 1000, 0, 300}, &completed);
  EXPECT_EQ(model.PendingDeliveryBoundNs(), 300u + between) << "its start + the lowest latency";
  model.Submit(ModelMessage{2, 3, 3, 1000, 0, 400}, &completed);
  EXPECT_EQ(model.PendingDeliveryBoundNs(), 300u + 10) << "while one to itself waits: its delay";
}

}  // namespace
}  // namespace trestle::fabric
