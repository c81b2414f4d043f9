// StandingQueues, the flow model's queueing delay, against its formulas on
// one switch (25 B/ns links, 4 KiB packets): a port that congestion control
// holds saturated keeps cc_queue_bytes per flow, found exponentially
// distributed about that; below saturation Kingman's waiting room; with
// congestion control off a backed-up port is full, always; another class
// waits only for the packet in transmission; flows that start with the
// message delay nothing; adaptive routing reads the mean.
#include "trestle/fabric/standing_queues.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "path_check.h"
#include "trestle/fabric/routing.h"

namespace trestle::fabric {
namespace {

constexpr double kRate = 25;          // bytes/ns, 200 Gbit/s
constexpr double kPacket = 4096;      // QueueModelOptions' default
constexpr double kCcQueue = 4096;     // per flow, QueueModelOptions' default
constexpr double kResidual = kPacket / 2 / kRate;  // a busy port's packet in transmission

class Queues {
 public:
  explicit Queues(bool cc = true, std::vector<ClassShare> classes = {ClassShare{}},
                  QueueModelOptions sizes = {})
      : topology_(MustBuild("switch:4")),
        routing_(MakeRouting(RoutingKind::kMinimal, *topology_, 1)),
        solver_(
            topology_->LinkIdCount(), [](MaxMinFairSolver::ResourceId) { return kRate; },
            MaxMinFairSolver::Options{cc ? MaxMinFairSolver::Sharing::kEndToEnd
                                         : MaxMinFairSolver::Sharing::kUpstream,
                                      classes}),
        queues_(solver_, *topology_, start_ns_, StandingQueues::Options{cc, classes, sizes, 1}) {}

  void Flow(NodeId src, NodeId dst, std::uint64_t start_ns, std::uint32_t class_index = 0,
            double cap = MaxMinFairSolver::kUnlimited) {
    routing_->Route(src, dst, 0, &path_);
    const MaxMinFairSolver::FlowHandle flow = solver_.AddFlow(path_.Links(), class_index, cap);
    start_ns_.resize(std::max<std::size_t>(start_ns_.size(), flow + 1));
    start_ns_[flow] = start_ns;
    solver_.Solve();
  }

  // The waits of `messages` messages from src to dst at now_ns.
  std::vector<double> Waits(NodeId src, NodeId dst, std::uint64_t now_ns,
                            std::uint32_t class_index = 0, int messages = 20000) {
    routing_->Route(src, dst, 0, &path_);
    std::vector<double> waits;
    for (int m = 0; m < messages; ++m) {
      // Messages that differ in size draw differently.
      const ModelMessage message{0, src, dst, static_cast<std::uint64_t>(m + 1), 0, now_ns};
      waits.push_back(queues_.PathDelayNs(path_, class_index, now_ns, message));
    }
    return waits;
  }

  const StandingQueues& queues() const { return queues_; }
  // The link into endpoint `e`.
  LinkId LinkInto(NodeId e) {
    routing_->Route((e + 1) % 4, e, 0, &path_);
    return path_.Links().back();
  }

 private:
  TopologyPtr topology_;
  RoutingPtr routing_;
  MaxMinFairSolver solver_;
  std::vector<std::uint64_t> start_ns_;
  StandingQueues queues_;
  Path path_;
};

double MeanOf(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return sum / v.size();
}

double MedianOf(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

TEST(StandingQueues, ASaturatedPortKeepsItsCcQueuePerFlowFoundExponentiallyAboutIt) {
  Queues q;
  q.Flow(0, 3, 0);
  q.Flow(1, 3, 0);  // endpoint 3's port: two flows at 12.5 B/ns, saturated
  const std::vector<double> waits = q.Waits(2, 3, 100);
  const double queue = 2 * kCcQueue / kRate;  // drained at the flows' 25 B/ns
  EXPECT_NEAR(MeanOf(waits), queue + kResidual, 0.02 * queue);
  // Exponential: the median is ln 2 of the mean, the 99th percentile ln 100.
  EXPECT_NEAR(MedianOf(waits) - kResidual, std::log(2.0) * queue, 0.03 * queue);
  std::vector<double> sorted = waits;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_NEAR(sorted[sorted.size() * 99 / 100] - kResidual, std::log(100.0) * queue, 0.1 * queue);
  EXPECT_DOUBLE_EQ(q.queues().QueueDelayNs(q.LinkInto(3)), queue) << "adaptive routing: the mean";
}

TEST(StandingQueues, FlowsThatStartWithTheMessageDelayNothing) {
  Queues q;
  q.Flow(0, 3, 100);
  q.Flow(1, 3, 100);
  for (double wait : q.Waits(2, 3, 100, 0, 10)) EXPECT_EQ(wait, 0);
}

TEST(StandingQueues, BelowSaturationKingmansWaitingRoomScalesWithTheBurstiness) {
  for (double burstiness : {0.0, 1.0, 4.0}) {
    SCOPED_TRACE(burstiness);
    QueueModelOptions sizes;
    sizes.burstiness = burstiness;
    Queues q(true, {ClassShare{}}, sizes);
    q.Flow(0, 3, 0, 0, 5);  // two flows held to 5 B/ns elsewhere: 40 % load
    q.Flow(1, 3, 0, 0, 5);
    const double load = 0.4;
    const double kingman = burstiness * (1 - 1.0 / 2) * load * load / (1 - load) * kPacket / 2;
    EXPECT_NEAR(MeanOf(q.Waits(2, 3, 100)), kingman / kRate + load * kResidual,
                0.02 * kingman / kRate + 1e-9);
  }
}

TEST(StandingQueues, OnePacedFlowLeavesOnlyItsPacketInTransmission) {
  Queues q;
  q.Flow(0, 3, 0, 0, 10);  // 40 % of the port, alone: no queue behind it
  for (double wait : q.Waits(2, 3, 100, 0, 10)) EXPECT_DOUBLE_EQ(wait, 0.4 * kResidual);
}

TEST(StandingQueues, AnotherClassWaitsOnlyForThePacketInTransmission) {
  const std::vector<ClassShare> classes = {ClassShare{}, ClassShare{}};
  Queues q(true, classes);
  q.Flow(0, 3, 0, 1);
  q.Flow(1, 3, 0, 1);  // class 1 saturates endpoint 3's port
  for (double wait : q.Waits(2, 3, 100, 0, 10)) EXPECT_DOUBLE_EQ(wait, kResidual);
  EXPECT_GT(MeanOf(q.Waits(2, 3, 100, 1)), 4 * kResidual) << "its own class queues";
}

TEST(StandingQueues, WithCongestionControlOffABackedUpPortIsFullEveryTime) {
  Queues q(false);
  q.Flow(0, 3, 0);
  q.Flow(1, 3, 0);  // each arrives at 25 B/ns and gets 12.5: backed up
  const double full = QueueModelOptions{}.buffer_bytes / kRate;
  for (double wait : q.Waits(2, 3, 100, 0, 10)) EXPECT_DOUBLE_EQ(wait, full + kResidual);
}

}  // namespace
}  // namespace trestle::fabric
