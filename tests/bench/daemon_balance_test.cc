// DaemonBalanceProblem: the daemons' own counts must agree with what the
// benchmark's apps sent and received, obey each daemon's accounting
// identity, and hand on no more than they take over; what does not is named.
#include "daemon_balance.h"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

namespace trestle::bench {
namespace {

// Two daemons; 100 messages each way, each crossing once: daemon 1 has the
// simulator, so daemon 2's sends are handed on to it for transit and its
// apps' deliveries handed back.
struct Bridge {
  std::vector<DaemonResult> daemons;
  std::vector<std::optional<wire::Counters>> after;

  Bridge() : daemons(2), after(2) {
    for (std::size_t d = 0; d < 2; ++d) {
      DaemonResult& r = daemons[d];
      r.address = d == 0 ? "127.0.0.1:7001" : "127.0.0.1:7002";
      r.counters_known = true;
      r.sent = r.received = r.accepted = r.delivered = 100;
    }
    daemons[0].from_peers = 100;  // daemon 2's transits
    daemons[0].forwarded = 100;   // deliveries to daemon 2's apps
    daemons[1].forwarded = 100;
    daemons[1].from_peers = 100;
    for (std::size_t d = 0; d < 2; ++d) {
      wire::Counters c;
      c.set_accepted(daemons[d].accepted);
      c.set_delivered(daemons[d].delivered);
      c.set_forwarded(daemons[d].forwarded);
      c.set_from_peers(daemons[d].from_peers);
      after[d] = c;
    }
  }
};

TEST(DaemonBalance, CountsThatBalanceAreNoProblem) {
  const Bridge b;
  EXPECT_EQ(DaemonBalanceProblem(b.daemons, b.after), "");
}

TEST(DaemonBalance, ADaemonThatAcceptedOrDeliveredOtherThanItsAppsIsNamed) {
  Bridge b;
  b.daemons[1].accepted = 99;
  b.daemons[0].delivered = 101;
  EXPECT_EQ(DaemonBalanceProblem(b.daemons, b.after),
            "the daemons' counts do not balance: daemon 1 (127.0.0.1:7001) delivered 101 "
            "messages, its apps received 100; daemon 2 (127.0.0.1:7002) accepted 99 messages, "
            "its apps sent 100");
}

TEST(DaemonBalance, AnIdentityThatDoesNotHoldIsShownWithBothSides) {
  Bridge b;
  b.after[1]->set_in_flight(3);
  EXPECT_EQ(DaemonBalanceProblem(b.daemons, b.after),
            "the daemons' counts do not balance: daemon 2 (127.0.0.1:7002): accepted + "
            "from_peers + recovered = 200, but delivered + dropped + expired + lost_in_store + "
            "forwarded + in_flight = 203");
  // Messages recovered from the journal join the left side.
  b.after[1]->set_recovered(3);
  EXPECT_EQ(DaemonBalanceProblem(b.daemons, b.after), "");
}

TEST(DaemonBalance, HandedOnMoreThanTakenOverIsNamed) {
  Bridge b;
  b.daemons[1].forwarded = 101;
  b.after[1]->set_forwarded(101);
  b.after[1]->set_delivered(99);  // keeps daemon 2's identity
  b.daemons[1].delivered = 99;
  b.daemons[1].received = 99;
  EXPECT_EQ(DaemonBalanceProblem(b.daemons, b.after),
            "the daemons' counts do not balance: the daemons handed on 201 messages and took "
            "over 200");
}

TEST(DaemonBalance, ADaemonThatDidNotAnswerIsNamed) {
  Bridge b;
  b.after[0].reset();
  b.daemons[0].counters_known = false;
  const std::string problem = DaemonBalanceProblem(b.daemons, b.after);
  EXPECT_NE(problem.find("daemon 1 (127.0.0.1:7001) did not report its counters"),
            std::string::npos)
      << problem;
}

}  // namespace
}  // namespace trestle::bench
