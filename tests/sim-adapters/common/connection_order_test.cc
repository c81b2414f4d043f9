// ConnectionOrder: outcomes come out in each connection's send order, held
// behind an earlier message still out; deliveries never earlier than the
// connection's last; a drop releases what waits behind it; connections and
// unknown ids do not wait for each other.
#include "trestle/adapter/connection_order.h"

#include <gtest/gtest.h>

#include <vector>

namespace trestle::adapter {
namespace {

using Outcome = ConnectionOrder::Outcome;

std::vector<std::uint64_t> Ids(const std::vector<Outcome>& outcomes) {
  std::vector<std::uint64_t> ids;
  for (const Outcome& o : outcomes) ids.push_back(o.id);
  return ids;
}

TEST(ConnectionOrder, AnOutcomeWaitsForTheEarlierMessagesOfItsConnection) {
  ConnectionOrder order;
  order.Sent(0, 1, 0, 10);
  order.Sent(0, 1, 0, 11);
  order.Sent(0, 1, 0, 12);
  std::vector<Outcome> released;
  // 12 and 11 finish first (at 500 and 700): held behind 10.
  order.Finished(Outcome{12, true, 500}, &released);
  order.Finished(Outcome{11, true, 700}, &released);
  EXPECT_TRUE(released.empty());
  EXPECT_EQ(order.held(), 2u);
  // 10 at 900: all three, in order, none delivered before 900.
  order.Finished(Outcome{10, true, 900}, &released);
  EXPECT_EQ(Ids(released), (std::vector<std::uint64_t>{10, 11, 12}));
  for (const Outcome& o : released) EXPECT_EQ(o.t_ns, 900u) << o.id;
  EXPECT_EQ(order.held(), 0u);
  // The next one, alone, is not held; its time stays if it is later.
  released.clear();
  order.Sent(0, 1, 0, 13);
  order.Finished(Outcome{13, true, 1000}, &released);
  ASSERT_EQ(released.size(), 1u);
  EXPECT_EQ(released[0].t_ns, 1000u);
}

TEST(ConnectionOrder, ADropReleasesWhatWaitsBehindItAndKeepsItsTime) {
  ConnectionOrder order;
  order.Sent(2, 3, 0, 1);
  order.Sent(2, 3, 0, 2);
  std::vector<Outcome> released;
  order.Finished(Outcome{2, true, 300}, &released);
  order.Finished(Outcome{1, false, 800}, &released);
  ASSERT_EQ(released.size(), 2u);
  EXPECT_EQ(released[0].id, 1u);
  EXPECT_FALSE(released[0].delivered);
  EXPECT_EQ(released[0].t_ns, 800u);
  EXPECT_EQ(released[1].id, 2u);
  EXPECT_EQ(released[1].t_ns, 300u) << "a drop reaches no receiver: nothing to keep after";
}

TEST(ConnectionOrder, OtherConnectionsAndUnknownIdsDoNotWait) {
  ConnectionOrder order;
  order.Sent(0, 1, 0, 1);  // holds back its connection only
  order.Sent(0, 1, 1, 2);  // another class
  order.Sent(1, 0, 0, 3);  // the other direction
  order.Sent(0, 2, 0, 4);  // another destination
  std::vector<Outcome> released;
  for (std::uint64_t id : {2, 3, 4, 99}) order.Finished(Outcome{id, true, 100}, &released);
  EXPECT_EQ(Ids(released), (std::vector<std::uint64_t>{2, 3, 4, 99}));
  EXPECT_EQ(order.held(), 0u);
}

}  // namespace
}  // namespace trestle::adapter
