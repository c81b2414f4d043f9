// ExpectBalanced: the daemon's accounting identity, checked in tests:
// accepted == delivered + dropped + expired + lost_in_store + in_flight.
#pragma once

#include <gtest/gtest.h>

#include "trestle.pb.h"

namespace trestle::testing {

inline void ExpectBalanced(const wire::Counters& k, const std::string& who = "total") {
  EXPECT_EQ(k.accepted(),
            k.delivered() + k.dropped() + k.expired() + k.lost_in_store() + k.in_flight())
      << who << ": " << k.DebugString();
}

// In total and for every client.
inline void ExpectBalanced(const wire::StatsReply& stats) {
  ExpectBalanced(stats.total());
  for (const wire::ClientStats& c : stats.clients()) ExpectBalanced(c.counters(), c.client_id());
}

}  // namespace trestle::testing
