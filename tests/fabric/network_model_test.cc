// NetworkModel: the congestion-unaware model completes every message during
// Submit with exactly MessageTimeModel's time (datagrams), a connection's
// messages in order, each one's bytes behind the previous one's, on one
// path; its latency bounds, by hand and
// against every pair; step pricers, the fast one against the simulated one;
// and a model whose completions come late and out of order, through the
// simulated pricer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "path_check.h"
#include "trestle/fabric/message_time_model.h"
#include "trestle/fabric/min_endpoint_path.h"
#include "trestle/fabric/network_model_factory.h"
#include "trestle/fabric/simulated_step_pricer.h"
#include "trestle/fabric/unaware_network_model.h"

namespace trestle::fabric {
namespace {

// Links 400Gbps / 500 ns, 100 ns per switch passed through, 10 ns endpoint delay.
constexpr char kLinks[] = ",link_bw=400Gbps,link_latency=500ns,switch_latency=100ns";
const NetworkModelOptions kTenNs{RoutingKind::kMinimal, 1, Duration::Nanoseconds(10)};

TopologyPtr Build(const std::string& spec) { return MustBuild(spec + kLinks); }

TEST(UnawareNetworkModel, CompletesEachSubmitAtOnceWithMessageTimeModelsTime) {
  for (const char* spec : {"switch:8", "ring:8", "fattree:k=4", "slingshot-1k"}) {
    for (RoutingKind kind :
         {RoutingKind::kMinimal, RoutingKind::kValiant, RoutingKind::kAdaptive}) {
      SCOPED_TRACE(std::string(spec) + " " + std::string(RoutingKindName(kind)));
      TopologyPtr t = Build(spec);
      // Datagrams: every message alone, whatever its connection sent before.
      NetworkModelOptions options{kind, 7, Duration::Nanoseconds(10)};
      options.ordering = MessageOrdering::kMessage;
      NetworkModelPtr model = MakeNetworkModel(NetworkModelKind::kUnaware, *t, options);
      // The reference: the same routing policy and seed, called in the same order.
      MessageTimeModel reference(*t, {options.endpoint_delay});
      RoutingPtr routing = MakeRouting(kind, *t, 7);
      std::mt19937_64 rng(3);
      std::uniform_int_distribution<NodeId> endpoint(0, t->EndpointCount() - 1);
      std::vector<ModelCompletion> completed;
      for (std::uint64_t id = 1; id <= 300; ++id) {
        const ModelMessage m{id, endpoint(rng),     endpoint(rng), rng() % 100000,
                             0,  rng() % (1u << 30)};
        model->Submit(m, &completed);
        ASSERT_EQ(completed.size(), id) << "one completion per submit, during the submit";
        const ModelCompletion& c = completed.back();
        const double ns = reference.TimeNs(m.src, m.dst, m.size_bytes, 0, *routing);
        EXPECT_EQ(c.id, id);
        EXPECT_EQ(c.t_send_ns, m.t_send_ns);
        EXPECT_EQ(c.latency_ns, ns);  // exactly: the same arithmetic
        EXPECT_FALSE(c.dropped);
        EXPECT_EQ(c.t_deliver_ns(), m.t_send_ns + static_cast<std::uint64_t>(std::llround(ns)));
      }
      EXPECT_EQ(model->InFlight(), 0u);
      EXPECT_EQ(model->NextEventNs(), NetworkModel::kNoEvent);
    }
  }
}

TEST(UnawareNetworkModel, AConnectionsMessagesQueueBehindEachOtherAndArriveInOrder) {
  // switch:4: fixed = 10 + 2 x 500 + 100 = 1,110 ns; 50 B/ns.
  TopologyPtr t = Build("switch:4");
  UnawareNetworkModel model(*t, kTenNs);
  std::vector<ModelCompletion> completed;
  // 0 -> 1: 100,000 B at 0 (transfer 2,000 ns), then 1,000 B at 500: its
  // bytes leave once the first's have, at 2,000, and take 20 ns: delivered
  // at 2,020 + 1,110, after the first (2,000 + 1,110), not at 500 + 1,130.
  model.Submit(ModelMessage{1, 0, 1, 100000, 0, 0}, &completed);
  model.Submit(ModelMessage{2, 0, 1, 1000, 0, 500}, &completed);
  // Another class, another destination, another source: other connections.
  model.Submit(ModelMessage{3, 0, 1, 1000, 1, 500}, &completed);
  model.Submit(ModelMessage{4, 0, 2, 1000, 0, 500}, &completed);
  model.Submit(ModelMessage{5, 2, 1, 1000, 0, 500}, &completed);
  // Sent after the second has left: no wait.
  model.Submit(ModelMessage{6, 0, 1, 1000, 0, 5000}, &completed);
  ASSERT_EQ(completed.size(), 6u);
  EXPECT_EQ(completed[0].t_deliver_ns(), 3110u);
  EXPECT_EQ(completed[1].t_deliver_ns(), 3130u);
  EXPECT_DOUBLE_EQ(completed[1].latency_ns, 1500 + 20 + 1110);
  for (int i : {2, 3, 4}) EXPECT_EQ(completed[i].t_deliver_ns(), 500u + 1130) << i;
  EXPECT_EQ(completed[5].t_deliver_ns(), 5000u + 1130);

  // The same messages as datagrams: the small one overtakes the large one.
  NetworkModelOptions datagrams = kTenNs;
  datagrams.ordering = MessageOrdering::kMessage;
  UnawareNetworkModel apart(*t, datagrams);
  completed.clear();
  apart.Submit(ModelMessage{1, 0, 1, 100000, 0, 0}, &completed);
  apart.Submit(ModelMessage{2, 0, 1, 1000, 0, 500}, &completed);
  EXPECT_EQ(completed[0].t_deliver_ns(), 3110u);
  EXPECT_EQ(completed[1].t_deliver_ns(), 1630u);
}

TEST(UnawareNetworkModel, ValiantRoutesAConnectionOnOnePathUnlessOrderedByMessage) {
  // Through a random node of the torus, latencies differ from path to path.
  TopologyPtr t = Build("torus:8x8");
  for (MessageOrdering ordering : {MessageOrdering::kConnection, MessageOrdering::kMessage}) {
    NetworkModelOptions options{RoutingKind::kValiant, 3, Duration::Nanoseconds(0)};
    options.ordering = ordering;
    UnawareNetworkModel model(*t, options);
    std::vector<ModelCompletion> completed;
    std::set<double> latencies;
    for (std::uint64_t i = 0; i < 50; ++i) {
      model.Submit(ModelMessage{i, 0, 1, 0, 0, i * 100000}, &completed);
      latencies.insert(completed.back().latency_ns);
    }
    if (ordering == MessageOrdering::kConnection) {
      EXPECT_EQ(latencies.size(), 1u);
    } else {
      EXPECT_GT(latencies.size(), 1u);
    }
  }
}

TEST(UnawareNetworkModel, AdvanceMovesTheClockForwardOnlyAndCompletesNothing) {
  TopologyPtr t = Build("ring:4");
  UnawareNetworkModel model(*t, kTenNs);
  std::vector<ModelCompletion> completed;
  EXPECT_EQ(model.NowNs(), 0u);
  model.AdvanceTo(5000, &completed);
  model.AdvanceTo(3000, &completed);
  EXPECT_EQ(model.NowNs(), 5000u);
  EXPECT_TRUE(completed.empty());
  // A late message (t_send below the clock) is priced at its own t_send.
  model.Submit(ModelMessage{1, 0, 1, 0, 0, 1000}, &completed);
  ASSERT_EQ(completed.size(), 1u);
  EXPECT_EQ(completed[0].t_deliver_ns(), 1000u + 510u);
}

TEST(ModelCompletion, DeliveryTimeRoundsTheLatencyToTheNearestNanosecond) {
  EXPECT_EQ((ModelCompletion{1, 1000, 501.28, false}.t_deliver_ns()), 1501u);
  EXPECT_EQ((ModelCompletion{1, 1000, 500.5, false}.t_deliver_ns()), 1501u);
  EXPECT_EQ((ModelCompletion{1, 1000, 0.49, false}.t_deliver_ns()), 1000u);
}

// Bounds computed by hand: endpoint delay 10 + L links × 500 + (L - 1) × 100.
TEST(UnawareNetworkModel, LatencyBoundsByHand) {
  struct Case {
    std::string spec;
    double between_ns;
  };
  const Case cases[] = {
      {"ring:8", 10 + 500},                                   // neighbours: one link
      {"fullmesh:4", 10 + 500},                               // one link
      {"switch:8", 10 + 2 * 500 + 100},                       // up, down, one switch
      {"fattree:k=4", 10 + 2 * 500 + 100},                    // two hosts on an edge switch
      {"dragonfly:p=1,a=2,h=1,g=3", 10 + 3 * 500 + 2 * 100},  // router to router
      {"fattree:k=2", 10 + 6 * 500 + 5 * 100},                // one host per pod: up to the core
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.spec);
    TopologyPtr t = Build(c.spec);
    const LatencyBounds bounds = UnawareNetworkModel(*t, kTenNs).MinLatency();
    EXPECT_EQ(bounds.between_endpoints_ns, c.between_ns);
    EXPECT_EQ(bounds.to_itself_ns, 10);
    EXPECT_EQ(bounds.AnyMessageNs(), 10) << "a message to itself costs the endpoint delay only";
  }
  TopologyPtr alone = Build("switch:1");
  const LatencyBounds bounds = UnawareNetworkModel(*alone, kTenNs).MinLatency();
  EXPECT_EQ(bounds.between_endpoints_ns, std::numeric_limits<double>::infinity());
  EXPECT_EQ(bounds.AnyMessageNs(), 10);
  EXPECT_EQ(MinEndpointPathLinks(*alone), 0u);
}

// The bound is the true one: it is the lowest 0-byte latency over every pair
// of distinct endpoints under minimal routing.
TEST(UnawareNetworkModel, TheBoundBetweenEndpointsIsReachedByTheClosestPair) {
  for (const std::string& spec : SmallTopologySpecs()) {
    if (spec == "slingshot-1k") continue;  // a million pairs; the others cover dragonflies
    SCOPED_TRACE(spec);
    TopologyPtr t = Build(spec);
    UnawareNetworkModel model(*t, kTenNs);
    std::vector<ModelCompletion> completed;
    double lowest = std::numeric_limits<double>::infinity();
    for (NodeId src = 0; src < t->EndpointCount(); ++src) {
      for (NodeId dst = 0; dst < t->EndpointCount(); ++dst) {
        if (src == dst) continue;
        completed.clear();
        model.Submit(ModelMessage{0, src, dst, 0, 0, 0}, &completed);
        lowest = std::min(lowest, completed[0].latency_ns);
      }
    }
    EXPECT_EQ(model.MinLatency().between_endpoints_ns, lowest);
  }
}

std::vector<StepFlow> Shift(std::uint32_t ranks, std::uint32_t by) {
  std::vector<StepFlow> flows;
  for (std::uint32_t r = 0; r < ranks; ++r) flows.push_back(StepFlow{r, (r + by) % ranks, 0});
  return flows;
}

TEST(StepPricer, TheUnawareModelsPricerGivesTheSimulatedPricersTimes) {
  for (const char* spec : {"switch:8", "torus:4x4", "fattree:k=4", "slingshot-1k"}) {
    SCOPED_TRACE(spec);
    TopologyPtr t = Build(spec);
    UnawareNetworkModel fast_model(*t, kTenNs);
    UnawareNetworkModel simulated_model(*t, kTenNs);
    std::unique_ptr<StepPricer> fast = fast_model.NewStepPricer();
    SimulatedStepPricer simulated(simulated_model);
    const std::uint32_t n = t->EndpointCount();
    for (std::uint32_t by : {1u, 2u, n / 2}) {
      ASSERT_EQ(fast->AddStep(Shift(n, by)), simulated.AddStep(Shift(n, by)));
    }
    for (std::size_t step = 0; step < 3; ++step) {
      for (std::uint64_t bytes : {0ull, 1ull, 4096ull, 1ull << 24}) {
        const double time = fast->StepTimeNs(step, bytes);
        EXPECT_EQ(time, simulated.StepTimeNs(step, bytes)) << step << " " << bytes;
        EXPECT_GT(time, 0);
      }
    }
    EXPECT_EQ(simulated_model.InFlight(), 0u);
  }
}

// A model whose messages complete only when the clock reaches them, latest
// submitted first: what a contention model looks like to its callers.
class DelayedModel final : public NetworkModel {
 public:
  std::string_view Name() const override { return "delayed"; }
  void Submit(const ModelMessage& m, std::vector<ModelCompletion>*) override {
    // 1,000 ns plus 10 ns per byte, plus 100 ns per destination index.
    pending_.push_back(
        ModelCompletion{m.id, m.t_send_ns, 1000.0 + 10.0 * m.size_bytes + 100.0 * m.dst, false});
  }
  void AdvanceTo(std::uint64_t t, std::vector<ModelCompletion>* completed) override {
    now_ = std::max(now_, t);
    for (auto it = pending_.rbegin(); it != pending_.rend(); ++it) {
      if (it->t_deliver_ns() <= now_) completed->push_back(*it);
    }
    pending_.erase(
        std::remove_if(pending_.begin(), pending_.end(),
                       [&](const ModelCompletion& c) { return c.t_deliver_ns() <= now_; }),
        pending_.end());
  }
  std::uint64_t NextEventNs() const override {
    std::uint64_t next = kNoEvent;
    for (const ModelCompletion& c : pending_) next = std::min(next, c.t_deliver_ns());
    return next;
  }
  std::uint64_t NowNs() const override { return now_; }
  std::size_t InFlight() const override { return pending_.size(); }
  LatencyBounds MinLatency() const override { return LatencyBounds{1000, 1000}; }

 private:
  std::vector<ModelCompletion> pending_;
  std::uint64_t now_ = 0;
};

TEST(StepPricer, ByDefaultAModelIsPricedBySimulationEvenWhenCompletionsComeLate) {
  DelayedModel model;
  std::unique_ptr<StepPricer> pricer = model.NewStepPricer();  // the default
  const std::size_t step = pricer->AddStep(Shift(4, 1));       // destinations 1, 2, 3, 0
  EXPECT_EQ(pricer->StepTimeNs(step, 0), 1300);                // the flow to 3
  EXPECT_EQ(model.InFlight(), 0u);
  const std::uint64_t after_first = model.NowNs();
  EXPECT_GE(after_first, 1300u);
  EXPECT_EQ(pricer->StepTimeNs(step, 50), 1800);  // + 10 ns per byte, from the new start
  EXPECT_GE(model.NowNs(), after_first + 1800);
  EXPECT_EQ(pricer->StepTimeNs(pricer->AddStep({}), 50), 0) << "a step without messages";
}

}  // namespace
}  // namespace trestle::fabric
