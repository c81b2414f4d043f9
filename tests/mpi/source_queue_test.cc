// SourceQueue: mirrors from one sender are promoted in the sender's order
// (a later one waits for an earlier one the model delivered after it), and
// go, per tag, to receives in the order they claimed.
#include "source_queue.h"

#include <gtest/gtest.h>

namespace trestle::mpi {
namespace {

MirrorArrival At(std::uint64_t t, std::int32_t tag, std::uint64_t bytes = 8) {
  return MirrorArrival{t, bytes, tag};
}

TEST(SourceQueue, AClaimTakesTheFirstUnassignedMirrorOfItsTag) {
  SourceQueue q;
  q.Arrive(0, At(100, 5));
  q.Arrive(1, At(200, 6));
  q.Arrive(2, At(300, 5));
  EXPECT_EQ(q.Unassigned(5), 2u);
  EXPECT_EQ(q.Unassigned(ReceiveOp::kAny), 3u);
  ReceiveOp a, b;
  q.Claim(5, &a);
  q.Claim(5, &b);
  EXPECT_EQ(a.state, ReceiveOp::State::kReady);
  EXPECT_EQ(a.mirror.t_deliver, 100u);
  EXPECT_EQ(b.mirror.t_deliver, 300u);
  EXPECT_EQ(q.Unassigned(5), 0u);
  EXPECT_EQ(q.Unassigned(6), 1u);
  ASSERT_NE(q.FirstUnassigned(6), nullptr);
  EXPECT_EQ(q.FirstUnassigned(6)->t_deliver, 200u);
}

TEST(SourceQueue, AReceiveOwedAMirrorGetsItWhenItArrives) {
  SourceQueue q;
  ReceiveOp first, second;
  q.Claim(7, &first);
  q.Claim(7, &second);
  EXPECT_EQ(first.state, ReceiveOp::State::kOwed);
  q.Arrive(0, At(500, 9));  // another tag: waits unassigned
  EXPECT_EQ(first.state, ReceiveOp::State::kOwed);
  q.Arrive(1, At(600, 7, 64));
  EXPECT_EQ(first.state, ReceiveOp::State::kReady);
  EXPECT_EQ(first.mirror.t_deliver, 600u);
  EXPECT_EQ(first.mirror.bytes, 64u);
  EXPECT_EQ(second.state, ReceiveOp::State::kOwed);
  EXPECT_EQ(q.Unassigned(7), 0u);
  EXPECT_EQ(q.Unassigned(9), 1u);
}

TEST(SourceQueue, AMirrorDeliveredBeforeAnEarlierOneWaitsForIt) {
  SourceQueue q;
  ReceiveOp r;
  q.Claim(1, &r);
  q.Arrive(1, At(150, 1));  // the sender's second message came first
  EXPECT_EQ(r.state, ReceiveOp::State::kOwed) << "message 0 may be of tag 1 too";
  EXPECT_EQ(q.early(), 1u);
  q.Arrive(0, At(900, 1));
  EXPECT_EQ(r.state, ReceiveOp::State::kReady);
  EXPECT_EQ(r.mirror.t_deliver, 900u) << "the first message sent is the first taken";
  EXPECT_EQ(q.early(), 0u);
  EXPECT_EQ(q.Unassigned(1), 1u);
  EXPECT_EQ(q.FirstUnassigned(1)->t_deliver, 150u);
}

TEST(SourceQueue, AForgottenReceiveIsOwedNothing) {
  SourceQueue q;
  ReceiveOp gone, kept;
  q.Claim(2, &gone);
  q.Claim(2, &kept);
  q.Forget(&gone);
  q.Arrive(0, At(10, 2));
  EXPECT_EQ(kept.state, ReceiveOp::State::kReady);
  EXPECT_EQ(gone.state, ReceiveOp::State::kOwed);
}

}  // namespace
}  // namespace trestle::mpi
