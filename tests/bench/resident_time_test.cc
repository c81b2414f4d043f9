// wire::ResidentNanos, the definition `trestle bench` and the daemon's
// histogram share: which stamps count, and no figure from stamps that cannot
// be compared. (Here rather than in tests/wire: the bench's suite owns it.)
#include "trestle/wire/resident_time.h"

#include <gtest/gtest.h>

namespace trestle::wire {
namespace {

TEST(ResidentNanos, CountsTheDaemonsTwoLegsAndNotTheSimulator) {
  // accepted 1000, handed 1040, the simulator holds it until 5000, the
  // daemon delivers at 5100: 40 + 100.
  EXPECT_EQ(ResidentNanos(1000, 1040, 5000, 5100), 140u);
  // Nothing waited anywhere.
  EXPECT_EQ(ResidentNanos(7, 7, 7, 7), 0u);
}

TEST(ResidentNanos, MissingOrOutOfOrderStampsHaveNoResidentTime) {
  EXPECT_EQ(ResidentNanos(0, 1040, 5000, 5100), std::nullopt) << "never accepted";
  EXPECT_EQ(ResidentNanos(1000, 999, 5000, 5100), std::nullopt) << "handed before accepted";
  EXPECT_EQ(ResidentNanos(1000, 1040, 1039, 5100), std::nullopt)
      << "posted before handed: another host's clock";
  EXPECT_EQ(ResidentNanos(1000, 1040, 5000, 4999), std::nullopt) << "delivered before posted";
  EXPECT_EQ(ResidentNanos(1000, 1040, 0, 5100), std::nullopt) << "no simulator stamp";
}

}  // namespace
}  // namespace trestle::wire
