// MessageLedger: accepted = delivered + dropped + expired + lost_in_store +
// in_flight per sender and in total after every step; ids are unique while
// in use; a refused send is counted rejected and never accepted; a delivery
// is counted received for its destination.
#include "messages/message_ledger.h"
#include "test_session.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "messages/client_registry.h"

namespace trestle::daemon {
namespace {

struct Counts {
  std::uint64_t accepted = 0, delivered = 0, dropped = 0, expired = 0, lost_in_store = 0,
                in_flight = 0, received = 0, rejected = 0, from_peers = 0, forwarded = 0, recovered = 0;
  bool operator==(const Counts&) const = default;
};

Counts Of(const MessageCounters& c) {
  return {c.accepted,  c.delivered, c.dropped,  c.expired,    c.lost_in_store,
          c.in_flight, c.received,  c.rejected, c.from_peers, c.forwarded, c.recovered};
}

std::string Text(const Counts& c) {
  return "accepted " + std::to_string(c.accepted) + " delivered " + std::to_string(c.delivered) +
         " dropped " + std::to_string(c.dropped) + " expired " + std::to_string(c.expired) +
         " lost_in_store " + std::to_string(c.lost_in_store) + " in_flight " +
         std::to_string(c.in_flight) + " received " + std::to_string(c.received) + " rejected " +
         std::to_string(c.rejected) + " from_peers " + std::to_string(c.from_peers) +
         " forwarded " + std::to_string(c.forwarded) + " recovered " + std::to_string(c.recovered);
}

class MessageLedgerTest : public ::testing::Test {
 protected:
  MessageLedgerTest()
      : a_(PinnedClient(apps_, "a")),
        b_(PinnedClient(apps_, "b")),
        c_(PinnedClient(apps_, "c")) {}

  // The identity, for every app and in total, and the totals are the sums.
  void ExpectBalanced(const std::string& step) {
    SCOPED_TRACE(step);
    MessageCounters sum;
    for (const ClientEntry& e : apps_) {
      const MessageCounters& c = e.counters;
      EXPECT_EQ(c.accepted + c.from_peers + c.recovered,
                c.delivered + c.dropped + c.expired + c.lost_in_store + c.forwarded + c.in_flight)
          << "app " << e.id << ": " << Text(Of(c));
      sum.accepted += c.accepted;
      sum.delivered += c.delivered;
      sum.dropped += c.dropped;
      sum.expired += c.expired;
      sum.lost_in_store += c.lost_in_store;
      sum.in_flight += c.in_flight;
      sum.received += c.received;
      sum.rejected += c.rejected;
      sum.from_peers += c.from_peers;
      sum.forwarded += c.forwarded;
      sum.recovered += c.recovered;
    }
    const MessageCounters& t = ledger_.totals();
    EXPECT_EQ(t.accepted + t.from_peers + t.recovered,
              t.delivered + t.dropped + t.expired + t.lost_in_store + t.forwarded + t.in_flight)
        << "totals: " << Text(Of(t));
    EXPECT_EQ(Of(t), Of(sum)) << "totals " << Text(Of(t)) << " vs sum " << Text(Of(sum));
  }

  // Opens and accepts message `id` from `src` to `dst`.
  MessageRecord& OpenAccepted(std::uint64_t id, std::uint32_t src, std::uint32_t dst) {
    MessageRecord* r = ledger_.Open(id, src, dst);
    EXPECT_NE(r, nullptr) << "id " << id;
    ledger_.Accept(*r);
    return *r;
  }

  ClientRegistry apps_;
  MessageLedger ledger_{apps_};
  const std::uint32_t a_, b_, c_;
};

TEST_F(MessageLedgerTest, OpenCreatesARecordInStoringThatIsNotYetAccepted) {
  MessageRecord* r = ledger_.Open(41, a_, b_);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->id, 41u);
  EXPECT_EQ(r->src, a_);
  EXPECT_EQ(r->state, MessageRecord::State::kStoring);
  EXPECT_EQ(ledger_.size(), 1u);
  EXPECT_EQ(ledger_.Find(41), r);
  EXPECT_EQ(ledger_.Find(42), nullptr);
  EXPECT_EQ(Of(ledger_.totals()), Counts{});
  EXPECT_EQ(Of(apps_.at(a_).counters), Counts{});
  ExpectBalanced("opened");
}

TEST_F(MessageLedgerTest, OpenOfAnIdInUseReturnsNullAndLeavesTheRecord) {
  MessageRecord& first = OpenAccepted(7, a_, b_);
  first.size = 123;
  EXPECT_EQ(ledger_.Open(7, b_, a_), nullptr);
  EXPECT_EQ(ledger_.Open(7, a_, c_), nullptr);
  ASSERT_NE(ledger_.Find(7), nullptr);
  EXPECT_EQ(ledger_.Find(7)->src, a_);
  EXPECT_EQ(ledger_.Find(7)->size, 123u);
  EXPECT_EQ(ledger_.size(), 1u);
  EXPECT_EQ(ledger_.totals().accepted, 1u);
  ExpectBalanced("duplicate open");

  // Once erased, the id may be used again.
  ledger_.Delivered(*ledger_.Find(7));
  ledger_.Erase(7);
  EXPECT_NE(ledger_.Open(7, c_, a_), nullptr);
}

TEST_F(MessageLedgerTest, AcceptCountsAcceptedAndInFlightForTheSender) {
  OpenAccepted(1, a_, b_);
  EXPECT_EQ(Of(apps_.at(a_).counters), (Counts{.accepted = 1, .in_flight = 1}));
  EXPECT_EQ(Of(apps_.at(b_).counters), Counts{});
  EXPECT_EQ(Of(ledger_.totals()), (Counts{.accepted = 1, .in_flight = 1}));
  ExpectBalanced("accepted");
}

TEST_F(MessageLedgerTest, EveryTerminalTransitionKeepsTheIdentity) {
  // a sends 5, b sends 2; each ends differently.
  for (std::uint64_t id = 1; id <= 5; ++id) {
    OpenAccepted(id, a_, b_);
    ExpectBalanced("a accepted " + std::to_string(id));
  }
  OpenAccepted(11, b_, a_);
  OpenAccepted(12, b_, c_);
  ExpectBalanced("b accepted");
  EXPECT_EQ(Of(ledger_.totals()), (Counts{.accepted = 7, .in_flight = 7}));

  ledger_.Delivered(*ledger_.Find(1));
  ExpectBalanced("delivered 1");
  EXPECT_EQ(Of(apps_.at(a_).counters), (Counts{.accepted = 5, .delivered = 1, .in_flight = 4}));
  EXPECT_EQ(Of(apps_.at(b_).counters), (Counts{.accepted = 2, .in_flight = 2, .received = 1}));

  ledger_.Dropped(*ledger_.Find(2));
  ExpectBalanced("dropped 2");
  ledger_.Expired(*ledger_.Find(3));
  ExpectBalanced("expired 3");
  ledger_.LostInStore(*ledger_.Find(4));
  ExpectBalanced("lost 4");
  EXPECT_EQ(Of(apps_.at(a_).counters),
            (Counts{.accepted = 5, .delivered = 1, .dropped = 1, .expired = 1, .lost_in_store = 1,
                    .in_flight = 1}));

  ledger_.Delivered(*ledger_.Find(11));
  ExpectBalanced("delivered 11");
  ledger_.Delivered(*ledger_.Find(12));
  ExpectBalanced("delivered 12");
  ledger_.Delivered(*ledger_.Find(5));
  ExpectBalanced("delivered 5");

  EXPECT_EQ(Of(apps_.at(a_).counters),
            (Counts{.accepted = 5, .delivered = 2, .dropped = 1, .expired = 1, .lost_in_store = 1,
                    .in_flight = 0, .received = 1}));
  EXPECT_EQ(Of(apps_.at(b_).counters),
            (Counts{.accepted = 2, .delivered = 2, .in_flight = 0, .received = 2}));
  EXPECT_EQ(Of(apps_.at(c_).counters), (Counts{.received = 1}));
  EXPECT_EQ(Of(ledger_.totals()),
            (Counts{.accepted = 7, .delivered = 4, .dropped = 1, .expired = 1, .lost_in_store = 1,
                    .in_flight = 0, .received = 4}));
  // Terminal transitions keep the records: erasing is the caller's.
  EXPECT_EQ(ledger_.size(), 7u);
}

// Federation: a message taken over from a peer daemon is in flight here
// (from_peers) until it ends here or is handed on (forwarded); the peer
// durable-message observer hears of each such message once it is finished, and of no
// other.
TEST_F(MessageLedgerTest, MessagesFromAndToPeersKeepTheIdentity) {
  struct Entries final : DurableMessageObserver {
    void OnDurableDone(const MessageRecord& r) override { done.push_back(r.id); }
    std::vector<std::uint64_t> done;
  } entries;
  ledger_.SetDurableObserver(&entries);
  OpenAccepted(1, a_, b_);
  // Records live inline in a flat table: look each up again after an Open.
  MessageRecord* theirs = ledger_.Open(2, c_, a_);
  ASSERT_NE(theirs, nullptr);
  theirs->entry_ms = 1700;
  theirs->entry_seq = 3;
  ledger_.FromPeer(*theirs);
  MessageRecord* relayed = ledger_.Open(3, c_, b_);
  ASSERT_NE(relayed, nullptr);
  relayed->entry_ms = 1701;
  ledger_.FromPeer(*relayed);
  ExpectBalanced("one accepted, two from peers");
  EXPECT_EQ(Of(ledger_.totals()), (Counts{.accepted = 1, .in_flight = 3, .from_peers = 2}));

  ledger_.Forwarded(*ledger_.Find(1));  // handed to the simulator's daemon
  ExpectBalanced("forwarded 1");
  EXPECT_TRUE(entries.done.empty()) << "message 1 came from an app here, not from a peer";
  ledger_.Delivered(*ledger_.Find(2));
  ExpectBalanced("delivered 2");
  ledger_.Forwarded(*ledger_.Find(3));  // on to the app's daemon
  ExpectBalanced("forwarded 3");
  EXPECT_EQ(entries.done, (std::vector<std::uint64_t>{2, 3}));
  EXPECT_EQ(Of(apps_.at(a_).counters), (Counts{.accepted = 1, .received = 1, .forwarded = 1}));
  EXPECT_EQ(Of(apps_.at(c_).counters),
            (Counts{.delivered = 1, .from_peers = 2, .forwarded = 1}));
  EXPECT_EQ(Of(ledger_.totals()), (Counts{.accepted = 1, .delivered = 1, .received = 1,
                                          .from_peers = 2, .forwarded = 2}));
}

// Federation: a message taken up from the journal after a restart counts as
// recovered; it and a journaled message whose entry id has not come yet are
// durable, so the observer hears of both when they finish; a message of an
// app here that is not journaled is not.
TEST_F(MessageLedgerTest, RecoveredAndJournaledMessagesKeepTheIdentity) {
  struct Entries final : DurableMessageObserver {
    void OnDurableDone(const MessageRecord& r) override { done.push_back(r.id); }
    std::vector<std::uint64_t> done;
  } entries;
  ledger_.SetDurableObserver(&entries);
  MessageRecord* recovered = ledger_.Open(7, a_, b_);
  ASSERT_NE(recovered, nullptr);
  recovered->journaled = true;
  recovered->entry_ms = 1800;
  ledger_.Recovered(*recovered);
  OpenAccepted(8, a_, c_).journaled = true;  // its append not answered yet
  OpenAccepted(9, b_, a_);
  ExpectBalanced("one recovered, two accepted");
  EXPECT_EQ(Of(ledger_.totals()), (Counts{.accepted = 2, .in_flight = 3, .recovered = 1}));
  ledger_.Delivered(*ledger_.Find(7));
  ledger_.Forwarded(*ledger_.Find(8));
  ledger_.Dropped(*ledger_.Find(9));
  ExpectBalanced("all finished");
  EXPECT_EQ(entries.done, (std::vector<std::uint64_t>{7, 8}));
  EXPECT_EQ(Of(apps_.at(a_).counters),
            (Counts{.accepted = 1, .delivered = 1, .forwarded = 1, .recovered = 1}));
}

TEST_F(MessageLedgerTest, WrittenRecordsTheStageLatenciesAndDeliveredCounts) {
  MessageRecord& r = OpenAccepted(1, a_, b_);
  r.accepted = 1'000;
  r.handed = 3'000;
  r.posted = 5'000;
  r.outcome_at = 6'000;
  ledger_.Written(r, 10'000);
  EXPECT_EQ(ledger_.latencies().resident().count(), 1u);
  EXPECT_EQ(ledger_.totals().delivered, 0u) << "delivered only when the app has it";
  // Resident: queue (accepted -> handed) + delivery (the simulator posted -> delivered).
  EXPECT_EQ(ledger_.latencies().resident().sum_ns(), 2'000u + 5'000u);
  ledger_.Delivered(r);
  EXPECT_EQ(ledger_.totals().delivered, 1u);
  ExpectBalanced("delivered");
  ledger_.Dropped(OpenAccepted(2, a_, b_));
  EXPECT_EQ(ledger_.latencies().resident().count(), 1u) << "only deliveries are timed";
}

TEST_F(MessageLedgerTest, RejectCountsRejectedNeverAcceptedAndErasesTheRecord) {
  ASSERT_NE(ledger_.Open(5, a_, b_), nullptr);
  ledger_.Reject(a_);
  ledger_.Erase(5);
  EXPECT_EQ(ledger_.Find(5), nullptr);
  EXPECT_EQ(ledger_.size(), 0u);
  EXPECT_EQ(Of(apps_.at(a_).counters), (Counts{.rejected = 1}));
  EXPECT_EQ(Of(ledger_.totals()), (Counts{.rejected = 1}));
  ExpectBalanced("rejected after open");

  // Refused before it was opened (bad destination, draining...).
  ledger_.Reject(b_);
  EXPECT_EQ(Of(apps_.at(b_).counters), (Counts{.rejected = 1}));
  EXPECT_EQ(Of(ledger_.totals()), (Counts{.rejected = 2}));
  ExpectBalanced("rejected unopened");

  // Rejections do not disturb accepted messages of the same sender.
  OpenAccepted(7, a_, b_);
  ledger_.Reject(a_);
  EXPECT_EQ(Of(apps_.at(a_).counters), (Counts{.accepted = 1, .in_flight = 1, .rejected = 2}));
  ASSERT_NE(ledger_.Find(7), nullptr);
  ExpectBalanced("rejected beside an accepted one");
}

}  // namespace
}  // namespace trestle::daemon
