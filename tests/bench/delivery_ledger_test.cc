// DeliveryLedger: exactly-once accounting, and messages to stalled apps
// counted apart so that sent = delivered + undelivered and lost counts only
// the apps that read.
#include "delivery_ledger.h"

#include <gtest/gtest.h>

namespace trestle::bench {
namespace {

TEST(DeliveryLedger, CountsBalanceWithStalledReceivers) {
  DeliveryLedger ledger;
  ledger.Add(/*id=*/100, /*sender=*/0, /*receiver=*/1, /*measured=*/true);
  ledger.Add(101, 0, 3, true, /*to_stalled=*/true);
  ledger.Add(102, 1, 0, true);
  ledger.Add(103, 1, 3, false, true);
  EXPECT_EQ(ledger.sent(), 4u);
  EXPECT_EQ(ledger.sent_to_stalled(), 2u);
  EXPECT_EQ(ledger.lost(), 2u) << "two messages to apps that read, not yet arrived";

  EXPECT_NE(ledger.MarkArrived(0, 100, 1), nullptr);
  EXPECT_EQ(ledger.lost(), 1u);
  EXPECT_NE(ledger.MarkArrived(2, 102, 0), nullptr);
  EXPECT_EQ(ledger.lost(), 0u) << "all that can arrive did";
  EXPECT_EQ(ledger.delivered(), 2u);
  EXPECT_EQ(ledger.undelivered(), 2u);
  EXPECT_EQ(ledger.delivered() + ledger.undelivered(), ledger.sent());
}

TEST(DeliveryLedger, DuplicatesAndStrangersAreCountedNotDelivered) {
  DeliveryLedger ledger;
  ledger.Add(7, 0, 1, true);
  EXPECT_NE(ledger.MarkArrived(0, 7, 1), nullptr);
  EXPECT_EQ(ledger.MarkArrived(0, 7, 1), nullptr);
  EXPECT_EQ(ledger.MarkArrived(0, 8, 1), nullptr) << "another id";
  EXPECT_EQ(ledger.MarkArrived(0, 7, 2), nullptr) << "the wrong app";
  EXPECT_EQ(ledger.MarkArrived(5, 7, 1), nullptr) << "no such message";
  EXPECT_EQ(ledger.delivered(), 1u);
  EXPECT_EQ(ledger.duplicated(), 1u);
  EXPECT_EQ(ledger.unknown(), 3u);
}

}  // namespace
}  // namespace trestle::bench
