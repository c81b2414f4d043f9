// ReceiveMatcher: receives get the mirror of the real message MPI's rules
// give them. A specific receive resolves at posting; a wildcard waits for
// its real receive; one an earlier wildcard could pre-empt waits for that
// one; a real receive may be waited for once enough candidate mirrors are in.
#include "receive_matcher.h"

#include <gtest/gtest.h>

namespace trestle::mpi {
namespace {

constexpr std::uint64_t kComm = 42;
constexpr int kAny = ReceiveOp::kAny;

class ReceiveMatcherTest : public ::testing::Test {
 protected:
  ReceiveOp Op(int src, int tag) {
    ReceiveOp op;
    op.comm_id = kComm;
    op.src_world = src;
    op.tag = tag;
    return op;
  }
  void Arrive(int src, std::uint32_t number, std::int32_t tag, std::uint64_t t) {
    MirrorHeader h;
    h.src_world = src;
    h.comm_id = kComm;
    h.label = tag;
    h.number = number;
    h.bytes = 16;
    inbox_.TakeIn(h, t);
  }
  void Learn(ReceiveOp& op, int src, int tag) {
    op.real_known = true;
    op.real_src_world = src;
    op.real_tag = tag;
  }

  MirrorInbox inbox_;
  ReceiveMatcher matcher_{inbox_};
};

TEST_F(ReceiveMatcherTest, ASpecificReceiveResolvesAtPostingInItsKeysOrder) {
  Arrive(3, 0, 7, 100);
  ReceiveOp a = Op(3, 7), b = Op(3, 7);
  matcher_.Post(&a);
  matcher_.Post(&b);
  EXPECT_EQ(a.state, ReceiveOp::State::kReady);
  EXPECT_EQ(a.mirror.t_deliver, 100u);
  EXPECT_EQ(b.state, ReceiveOp::State::kOwed);
  Arrive(3, 1, 7, 250);
  EXPECT_EQ(b.state, ReceiveOp::State::kReady);
  EXPECT_EQ(b.mirror.t_deliver, 250u);
  EXPECT_EQ(matcher_.unresolved(kComm), 0u);
}

TEST_F(ReceiveMatcherTest, AWildcardResolvesToTheMessageItsRealReceiveTook) {
  ReceiveOp any = Op(kAny, kAny);
  matcher_.Post(&any);
  EXPECT_EQ(any.state, ReceiveOp::State::kUnresolved);
  EXPECT_FALSE(matcher_.RealReceiveIsSafe(any)) << "no mirror it could take is here yet";
  Arrive(1, 0, 4, 300);
  Arrive(2, 0, 4, 200);
  EXPECT_TRUE(matcher_.RealReceiveIsSafe(any));
  // The real MPI gave it rank 1's message (whatever virtual time says).
  Learn(any, 1, 4);
  matcher_.Resolve(kComm);
  EXPECT_EQ(any.state, ReceiveOp::State::kReady);
  EXPECT_EQ(any.mirror.t_deliver, 300u);
  // Rank 2's mirror is left for the next receive.
  ReceiveOp next = Op(2, 4);
  matcher_.Post(&next);
  EXPECT_EQ(next.mirror.t_deliver, 200u);
}

TEST_F(ReceiveMatcherTest, AReceiveAnEarlierWildcardCouldPreemptWaitsForIt) {
  ReceiveOp any = Op(kAny, 5);
  ReceiveOp specific = Op(2, 5);
  ReceiveOp other_tag = Op(2, 6);
  matcher_.Post(&any);
  matcher_.Post(&specific);
  matcher_.Post(&other_tag);
  EXPECT_EQ(specific.state, ReceiveOp::State::kUnresolved) << "the wildcard may take 2's tag 5";
  EXPECT_EQ(other_tag.state, ReceiveOp::State::kOwed) << "no earlier receive takes tag 6";
  Arrive(2, 0, 5, 100);
  Arrive(2, 1, 5, 110);
  // Two candidates for the specific one; one earlier rival: safe to wait.
  EXPECT_TRUE(matcher_.RealReceiveIsSafe(specific));
  Learn(specific, 2, 5);
  const std::vector<ReceiveOp*> earlier = matcher_.EarlierMatching(specific, 2, 5);
  ASSERT_EQ(earlier.size(), 1u);
  EXPECT_EQ(earlier[0], &any);
  matcher_.Resolve(kComm);
  EXPECT_EQ(specific.state, ReceiveOp::State::kUnresolved) << "resolved in posting order";
  Learn(any, 2, 5);
  matcher_.Resolve(kComm);
  EXPECT_EQ(any.mirror.t_deliver, 100u);
  EXPECT_EQ(specific.mirror.t_deliver, 110u);
}

TEST_F(ReceiveMatcherTest, AWildcardThatTookAnotherKeyDoesNotHoldBackALaterReceive) {
  ReceiveOp any = Op(kAny, kAny);
  ReceiveOp later = Op(4, 1);
  matcher_.Post(&any);
  matcher_.Post(&later);
  Arrive(3, 0, 9, 50);
  Arrive(4, 0, 1, 60);
  Learn(any, 3, 9);
  Learn(later, 4, 1);
  matcher_.Resolve(kComm);
  EXPECT_EQ(any.mirror.t_deliver, 50u);
  EXPECT_EQ(later.mirror.t_deliver, 60u);
}

TEST_F(ReceiveMatcherTest, AProbeIsSafeOnceAMirrorNoReceiveCanClaimIsHere) {
  ReceiveOp pending = Op(kAny, 3);
  matcher_.Post(&pending);
  ReceiveOp probe = Op(kAny, 3);
  Arrive(1, 0, 3, 10);
  EXPECT_FALSE(matcher_.RealProbeIsSafe(probe)) << "the pending receive may take it";
  Arrive(2, 0, 3, 20);
  EXPECT_TRUE(matcher_.RealProbeIsSafe(probe));
  EXPECT_EQ(matcher_.UnresolvedMatching(kComm, 2, 3).size(), 1u);
  EXPECT_TRUE(matcher_.UnresolvedMatching(kComm, 2, 4).empty());
}

TEST_F(ReceiveMatcherTest, AWildcardIsDecidedByTheFirstMirrorInTheModelsOrder) {
  ReceiveOp any = Op(kAny, kAny);
  EXPECT_TRUE(matcher_.MirrorsDecide(any));
  EXPECT_FALSE(matcher_.FirstCandidate(any).has_value());
  Arrive(2, 0, 8, 500);  // taken first, though rank 1's is due earlier
  Arrive(1, 0, 9, 400);
  EXPECT_EQ(matcher_.FirstCandidate(any), (std::pair<int, int>{2, 8}));
  EXPECT_EQ(matcher_.FirstCandidate(Op(kAny, 9)), (std::pair<int, int>{1, 9}));
  EXPECT_EQ(matcher_.FirstCandidate(Op(1, kAny)), (std::pair<int, int>{1, 9}));
  // A pending receive that could take what it matches leaves it to the real MPI.
  ReceiveOp pending = Op(kAny, 8);
  matcher_.Post(&pending);
  EXPECT_FALSE(matcher_.MirrorsDecide(any));
  EXPECT_TRUE(matcher_.MirrorsDecide(Op(kAny, 9)));
}

TEST_F(ReceiveMatcherTest, AWithdrawnReceiveLeavesEveryList) {
  ReceiveOp owed = Op(5, 5);
  ReceiveOp any = Op(kAny, kAny);
  matcher_.Post(&owed);
  matcher_.Post(&any);
  matcher_.Withdraw(&owed);
  matcher_.Withdraw(&any);
  EXPECT_EQ(matcher_.unresolved(kComm), 0u);
  Arrive(5, 0, 5, 70);
  EXPECT_EQ(owed.state, ReceiveOp::State::kOwed);
  EXPECT_EQ(inbox_.FindQueue(kComm, 5)->Unassigned(5), 1u);
}

// MPI_Cancel of a receive whose mirror had not come: the mirror it was owed
// goes to the next receive of its key, not to the cancelled one.
TEST_F(ReceiveMatcherTest, AWithdrawnOwedReceivesMirrorGoesToTheNextReceive) {
  ReceiveOp cancelled = Op(4, 2);
  ReceiveOp later = Op(4, 2);
  matcher_.Post(&cancelled);
  matcher_.Post(&later);
  matcher_.Withdraw(&cancelled);
  Arrive(4, 0, 2, 900);
  EXPECT_EQ(cancelled.state, ReceiveOp::State::kOwed);
  EXPECT_EQ(later.state, ReceiveOp::State::kReady);
  EXPECT_EQ(later.mirror.t_deliver, 900u);
}

// A cancelled wildcard no longer holds back the receives posted after it.
TEST_F(ReceiveMatcherTest, AWithdrawnWildcardLetsTheReceivesItHeldBackResolve) {
  Arrive(2, 0, 5, 300);
  ReceiveOp any = Op(kAny, kAny);
  ReceiveOp specific = Op(2, 5);
  matcher_.Post(&any);
  matcher_.Post(&specific);
  EXPECT_EQ(specific.state, ReceiveOp::State::kUnresolved) << "the wildcard might take it";
  matcher_.Withdraw(&any);
  EXPECT_EQ(specific.state, ReceiveOp::State::kReady);
  EXPECT_EQ(specific.mirror.t_deliver, 300u);
  EXPECT_EQ(matcher_.unresolved(kComm), 0u);
}

}  // namespace
}  // namespace trestle::mpi
