// DeliveryDispatcher with fake channels, a real libuv loop, the in-memory
// store, and a scriptable store (fake_payload_store.h) for kMissing,
// unreachable and asynchronous answers: PUSH batches bounded by count and
// frame bytes and held above the high watermark; PULL Receive; expiry of
// deliveries for an absent app; a slow app closed after its grace period
// with an Error naming its backlog and both limits; store outages retried in
// order; payloads lost in the store; the global delivery budget. The
// accounting identity is checked after every test.
#include "dispatch/delivery_dispatcher.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "dispatch/delivery_budget.h"
#include "fake_payload_store.h"
#include "fake_session_closer.h"
#include "messages/client_registry.h"
#include "messages/message_ledger.h"
#include "session/session_closer.h"
#include "store/in_memory_payload_store.h"
#include "test_loop.h"
#include "test_session.h"

namespace trestle::daemon {
namespace {

using Ids = std::vector<std::uint64_t>;

// The delivery ids of each DeliverBatch written to `c`, one list per frame.
std::vector<Ids> Batches(const FakeChannel& c) {
  std::vector<Ids> batches;
  for (const wire::Frame& f : c.frames()) {
    EXPECT_TRUE(f.has_deliveries()) << "not a DeliverBatch: " << f.ShortDebugString();
    Ids& ids = batches.emplace_back();
    for (const wire::Delivery& d : f.deliveries().deliveries()) ids.push_back(d.id());
  }
  return batches;
}

// The payloads of each DeliverBatch written to `c`, one list per frame.
std::vector<std::vector<std::string>> Payloads(const FakeChannel& c) {
  std::vector<std::vector<std::string>> batches;
  for (const wire::Frame& f : c.frames()) {
    auto& payloads = batches.emplace_back();
    for (const wire::Delivery& d : f.deliveries().deliveries()) payloads.push_back(d.payload());
  }
  return batches;
}

std::string PayloadOf(std::uint64_t id) { return "payload-" + std::to_string(id); }

DaemonConfig TestConfig() {
  DaemonConfig config;
  config.max_batch = 2;
  config.delivery_ttl_ms = 30'000;
  config.delivery_queue_limit = 3;
  config.delivery_queue_bytes = 1u << 20;
  config.slow_app_grace_ms = 1000;
  config.delivery_memory_budget = 1u << 30;
  return config;
}

template <typename Store>
class DeliveryFixture : public ::testing::Test {
 protected:
  DeliveryFixture() : a_(PinnedClient(apps_, "a")), b_(PinnedClient(apps_, "b")) {}

  ~DeliveryFixture() override {
    // Every test leaves the counts balanced, per app and in total.
    for (const ClientEntry& e : apps_) {
      const MessageCounters& c = e.counters;
      EXPECT_EQ(c.accepted, c.delivered + c.dropped + c.expired + c.lost_in_store + c.in_flight)
          << "app " << e.id;
    }
    const MessageCounters& t = ledger_.totals();
    EXPECT_EQ(t.accepted, t.delivered + t.dropped + t.expired + t.lost_in_store + t.in_flight);
  }

  // Message `id` from `src` to `dst`, accepted, its payload (`payload`, or
  // PayloadOf(id)) in the store, delivered by the simulator at `now_ms`.
  MessageRecord& Deliver(std::uint64_t id, std::uint32_t src, std::uint32_t dst,
                         std::uint64_t now_ms = 0, std::string payload = "") {
    if (payload.empty()) payload = PayloadOf(id);
    MessageRecord* r = ledger_.Open(id, src, dst);
    EXPECT_NE(r, nullptr) << "id " << id;
    r->size = payload.size();
    r->tclass = 5;
    r->t_send = 100 * id;
    r->t_deliver = 100 * id + 7;
    r->app_sent = 11;
    r->accepted = 22;
    r->handed = 33;
    r->posted = 44;
    ledger_.Accept(*r);
    store_.Put(id, std::move(payload), [](const absl::Status& s) { ASSERT_TRUE(s.ok()) << s; });
    deliveries_.EnqueueDelivery(*r, now_ms);
    return *r;
  }
  void DeliverRange(std::uint64_t first, std::uint64_t last, std::uint64_t now_ms = 0) {
    for (std::uint64_t id = first; id <= last; ++id) Deliver(id, a_, b_, now_ms);
  }
  const MessageCounters& CountersOf(std::uint32_t app) { return apps_.at(app).counters; }

  TestLoop loop_;
  DaemonConfig config_ = TestConfig();
  ClientRegistry apps_;
  MessageLedger ledger_{apps_};
  Store store_;
  std::vector<bool> budget_calls_;
  DeliveryBudget budget_{config_.delivery_memory_budget,
                         [this](bool paused) { budget_calls_.push_back(paused); }};
  FakeSessionCloser closer_;
  DeliveryDispatcher deliveries_{loop_.get(), config_, ledger_, apps_, store_, budget_, closer_};
  const std::uint32_t a_, b_;
};

using DeliveryDispatcherTest = DeliveryFixture<InMemoryPayloadStore>;
using DeliveryDispatcherStoreTest = DeliveryFixture<FakePayloadStore>;

wire::Receive MakeReceive(std::uint32_t max_count, std::uint32_t timeout_ms) {
  wire::Receive r;
  r.set_max_count(max_count);
  r.set_timeout_ms(timeout_ms);
  return r;
}

// --- PUSH ---------------------------------------------------------------

TEST_F(DeliveryDispatcherTest, PushDeliversInOrderInBatchesOfMaxBatchAndCountsThem) {
  config_.max_batch = 3;
  TestSession b(loop_.get(), apps_, "b");
  deliveries_.OnAppReady(*b);
  DeliverRange(1, 7);
  EXPECT_EQ(deliveries_.queued(b_), 7u);
  EXPECT_EQ(deliveries_.queued_bytes(b_), 7u * PayloadOf(1).size());
  EXPECT_TRUE(b.recv().frames().empty()) << "nothing is written before the pump";
  deliveries_.Pump();
  ASSERT_EQ(Batches(b.recv()), (std::vector<Ids>{{1, 2, 3}, {4, 5, 6}, {7}}));

  const wire::Delivery& d = b.recv().frames()[0].deliveries().deliveries(1);
  EXPECT_EQ(d.status(), wire::DELIVERED);
  EXPECT_EQ(d.payload(), PayloadOf(2));
  EXPECT_EQ(d.src(), "a");
  EXPECT_EQ(d.dst(), "b");
  EXPECT_EQ(d.t_send(), 200u);
  EXPECT_EQ(d.t_deliver(), 207u);
  EXPECT_EQ(d.tclass(), 5u);
  EXPECT_EQ(d.stamps().app_sent(), 11u);
  EXPECT_EQ(d.stamps().daemon_accepted(), 22u);
  EXPECT_EQ(d.stamps().sim_handed(), 33u);
  EXPECT_EQ(d.stamps().sim_posted(), 44u);
  EXPECT_NE(d.stamps().daemon_delivered(), 0u);

  EXPECT_EQ(CountersOf(a_).delivered, 7u);
  EXPECT_EQ(CountersOf(a_).in_flight, 0u);
  EXPECT_EQ(CountersOf(b_).received, 7u);
  EXPECT_EQ(ledger_.size(), 0u) << "delivered records are erased";
  EXPECT_EQ(store_.size(), 0u);
  EXPECT_EQ(deliveries_.queued(b_), 0u);
  EXPECT_EQ(deliveries_.queued_bytes(b_), 0u);
  EXPECT_EQ(budget_.held(), 0u);
}

TEST_F(DeliveryDispatcherTest, PushBatchesStayWithinTheAppsFrameLimit) {
  config_.max_batch = 256;
  // 1024 bytes of room per delivery besides its 1000-byte payload: two fit
  // in 5000 bytes, three do not.
  TestSession b(loop_.get(), apps_, "b", {.max_frame_bytes = 5000});
  deliveries_.OnAppReady(*b);
  for (std::uint64_t id = 1; id <= 5; ++id) Deliver(id, a_, b_, 0, std::string(1000, 'x'));
  deliveries_.Pump();
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{1, 2}, {3, 4}, {5}}));
  for (const wire::Frame& f : b.recv().frames()) {
    EXPECT_LE(f.ByteSizeLong(), 5000u) << "a frame above the app's limit";
  }
}

TEST_F(DeliveryDispatcherTest, PushStopsAboveTheHighWatermarkUntilWritable) {
  TestSession b(loop_.get(), apps_, "b");
  b.recv().set_high_watermark(1);  // above once one frame is out
  deliveries_.OnAppReady(*b);
  DeliverRange(1, 6);
  deliveries_.Pump();
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{1, 2}}));
  EXPECT_EQ(deliveries_.queued(b_), 4u);
  deliveries_.Pump();
  EXPECT_EQ(Batches(b.recv()).size(), 1u) << "pumping again changes nothing";

  b.recv().Drain();
  deliveries_.OnWritable(*b);
  deliveries_.Pump();
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{1, 2}, {3, 4}}));
  b.recv().set_high_watermark(1u << 30);
  deliveries_.OnWritable(*b);
  deliveries_.Pump();
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{1, 2}, {3, 4}, {5, 6}}));
  EXPECT_EQ(CountersOf(b_).received, 6u);
}

TEST_F(DeliveryDispatcherTest, AnAppScheduledThenGivenBackBeforeThePumpIsSkipped) {
  // The daemon's order within one loop pass: an app becomes ready (its queue
  // is scheduled), its session leaves, housekeeping compacts the registry and
  // shrinks the queues, then the pump runs. The pump once wrote past the
  // shrunk queues (a SEGV in CI's sanitized build, which this test reproduces).
  {
    TestSession c(loop_.get(), apps_, "c");
    deliveries_.OnAppReady(*c);
    ASSERT_TRUE(deliveries_.pump_pending());
  }
  ASSERT_TRUE(apps_.Compact());
  ASSERT_EQ(apps_.capacity(), 2u) << "only a and b hold a slot";
  deliveries_.Shrink(apps_.capacity());
  deliveries_.Pump();
  EXPECT_FALSE(deliveries_.pump_pending());

  TestSession b(loop_.get(), apps_, "b");
  deliveries_.OnAppReady(*b);
  DeliverRange(1, 2);
  deliveries_.Pump();
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{1, 2}})) << "the others are served as before";
}

// --- PULL ---------------------------------------------------------------

TEST_F(DeliveryDispatcherTest, ReceiveIsAnsweredAtOnceWhenDeliveriesWait) {
  TestSession b(loop_.get(), apps_, "b", {.mode = wire::PULL});
  deliveries_.OnAppReady(*b);
  DeliverRange(1, 5);
  deliveries_.Pump();
  EXPECT_TRUE(b.recv().frames().empty()) << "a PULL app gets deliveries only when it asks";
  deliveries_.OnReceive(*b, MakeReceive(1, 1000));
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{1}}));
  // max_count 0 means max_batch; above max_batch is cut to it.
  deliveries_.OnReceive(*b, MakeReceive(0, 1000));
  deliveries_.OnReceive(*b, MakeReceive(50, 1000));
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{1}, {2, 3}, {4, 5}}));
  EXPECT_FALSE(b->polls().waiting());
  EXPECT_EQ(CountersOf(b_).received, 5u);
}

TEST_F(DeliveryDispatcherTest, AParkedReceiveIsAnsweredWhenADeliveryArrives) {
  TestSession b(loop_.get(), apps_, "b", {.mode = wire::PULL});
  deliveries_.OnAppReady(*b);
  deliveries_.OnReceive(*b, MakeReceive(5, 60'000));
  EXPECT_TRUE(b.recv().frames().empty());
  EXPECT_TRUE(b->polls().waiting());
  DeliverRange(1, 1);
  deliveries_.Pump();
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{1}}));
  EXPECT_FALSE(b->polls().waiting());
}

TEST_F(DeliveryDispatcherTest, AParkedReceiveIsAnsweredEmptyAfterItsTimeout) {
  TestSession b(loop_.get(), apps_, "b", {.mode = wire::PULL});
  deliveries_.OnAppReady(*b);
  const std::uint64_t parked_at = loop_.now_ms();
  deliveries_.OnReceive(*b, MakeReceive(5, 30));
  EXPECT_TRUE(b.recv().frames().empty());
  loop_.Run();
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{}}));
  EXPECT_GE(loop_.now_ms(), parked_at + 30) << "answered before its timeout";
  // Without a timeout: at once.
  deliveries_.OnReceive(*b, MakeReceive(5, 0));
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{}, {}}));
}

TEST_F(DeliveryDispatcherTest, AThirdWaitingReceiveIsRefusedNamingTheLimit) {
  TestSession b(loop_.get(), apps_, "b", {.mode = wire::PULL});
  deliveries_.OnAppReady(*b);
  deliveries_.OnReceive(*b, MakeReceive(1, 60'000));
  deliveries_.OnReceive(*b, MakeReceive(1, 60'000));
  EXPECT_TRUE(b.recv().errors().empty());
  deliveries_.OnReceive(*b, MakeReceive(1, 60'000));
  ASSERT_EQ(b.recv().errors().size(), 1u);
  EXPECT_EQ(b.recv().errors()[0].code, wire::BAD_REQUEST);
  EXPECT_EQ(b.recv().errors()[0].text,
            "2 Receive requests are already waiting on this session (the most allowed)");
  DeliverRange(1, 3);
  deliveries_.Pump();
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{1}, {2}}));
}

TEST_F(DeliveryDispatcherTest, ReceiveOnAPushSessionIsRefused) {
  TestSession b(loop_.get(), apps_, "b");
  deliveries_.OnAppReady(*b);
  deliveries_.OnReceive(*b, MakeReceive(1, 10));
  ASSERT_EQ(b.recv().errors().size(), 1u);
  EXPECT_EQ(b.recv().errors()[0].code, wire::BAD_REQUEST);
  EXPECT_EQ(b.recv().errors()[0].text, "Receive needs PULL mode; this session is PUSH");
}

// --- Absent apps: waiting, then expiry -------------------------------------

TEST_F(DeliveryDispatcherTest, DeliveriesForAnAbsentAppExpireAfterTheTtl) {
  config_.delivery_ttl_ms = 1000;
  DeliverRange(1, 2, 5000);
  DeliverRange(3, 3, 5500);
  const std::uint64_t each = PayloadOf(1).size();
  deliveries_.Pump();
  EXPECT_EQ(deliveries_.queued(b_), 3u) << "nobody to deliver to";

  deliveries_.Housekeeping(5999);
  EXPECT_EQ(deliveries_.queued(b_), 3u);
  EXPECT_EQ(CountersOf(a_).expired, 0u);

  deliveries_.Housekeeping(6000);
  EXPECT_EQ(CountersOf(a_).expired, 2u);
  EXPECT_EQ(CountersOf(a_).in_flight, 1u);
  EXPECT_EQ(ledger_.totals().expired, 2u);
  EXPECT_EQ(deliveries_.queued(b_), 1u);
  EXPECT_EQ(deliveries_.queued_bytes(b_), each);
  EXPECT_EQ(budget_.held(), each);
  EXPECT_EQ(store_.size(), 1u) << "expired payloads are erased from the store";
  EXPECT_EQ(ledger_.Find(1), nullptr);

  deliveries_.Housekeeping(6500);
  EXPECT_EQ(CountersOf(a_).expired, 3u);
  EXPECT_EQ(CountersOf(a_).in_flight, 0u);
  EXPECT_EQ(CountersOf(b_).received, 0u);
  EXPECT_EQ(store_.size(), 0u);
  EXPECT_EQ(ledger_.size(), 0u);
  EXPECT_EQ(budget_.held(), 0u);
  EXPECT_EQ(deliveries_.queued_bytes(b_), 0u);
}

TEST_F(DeliveryDispatcherTest, ALingeringSessionIsAbsentItsDeliveriesWaitThenExpire) {
  config_.delivery_ttl_ms = 1000;
  TestSession b(loop_.get(), apps_, "b");
  deliveries_.OnAppReady(*b);
  b.Detach();  // lost its connections; lingers in the registry
  deliveries_.OnAppDetached(*b);
  DeliverRange(1, 1, 100);
  deliveries_.Pump();
  deliveries_.Housekeeping(1099);
  EXPECT_EQ(deliveries_.queued(b_), 1u);
  EXPECT_TRUE(closer_.calls.empty()) << "an absent app is not slow";
  deliveries_.Housekeeping(1100);
  EXPECT_EQ(CountersOf(a_).expired, 1u);
  EXPECT_EQ(deliveries_.queued(b_), 0u);
}

TEST_F(DeliveryDispatcherTest, DeliveriesWaitForAnAppThatConnectsWithinTheTtl) {
  DeliverRange(1, 3, 100);
  deliveries_.Pump();
  deliveries_.Housekeeping(20'000);
  TestSession b(loop_.get(), apps_, "b");
  deliveries_.OnAppReady(*b);
  deliveries_.Pump();
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{1, 2}, {3}}));
  EXPECT_EQ(CountersOf(a_).delivered, 3u);
  EXPECT_EQ(CountersOf(a_).expired, 0u);
}

TEST_F(DeliveryDispatcherTest, DropReportsForAnAbsentSenderExpireWithoutRecounting) {
  config_.delivery_ttl_ms = 1000;
  MessageRecord* r = ledger_.Open(9, a_, b_);
  r->notify_drop = true;
  ledger_.Accept(*r);
  ledger_.Dropped(*r);  // as the data plane does for a DROPPED outcome
  deliveries_.EnqueueDropReport(*r, 0);
  EXPECT_EQ(deliveries_.queued(a_), 1u);
  EXPECT_EQ(deliveries_.queued_bytes(a_), 0u) << "a drop report carries no payload";
  deliveries_.Housekeeping(1000);
  EXPECT_EQ(deliveries_.queued(a_), 0u);
  EXPECT_EQ(ledger_.size(), 0u);
  EXPECT_EQ(CountersOf(a_).dropped, 1u);
  EXPECT_EQ(CountersOf(a_).expired, 0u) << "already counted dropped";
}

// --- Slow apps -------------------------------------------------------------

TEST_F(DeliveryDispatcherTest, AnAppOverItsCountLimitPastTheGraceIsClosedOnceNamingBoth) {
  TestSession b(loop_.get(), apps_, "b");
  TestSession c(loop_.get(), apps_, "c");
  closer_.on_close = [&](Session& s) {
    ASSERT_EQ(&s, &*b);
    b.Detach();
    deliveries_.OnAppDetached(*b);
  };
  b.recv().set_high_watermark(0);
  b.recv().AddPending(1);  // b reads nothing
  deliveries_.OnAppReady(*b);
  deliveries_.OnAppReady(*c);
  DeliverRange(1, 3, 10'000);  // at the limit (3): not over it
  deliveries_.Pump();
  deliveries_.Housekeeping(10'000);
  deliveries_.Housekeeping(20'000);
  EXPECT_TRUE(closer_.calls.empty()) << "at the limit is not over it";

  DeliverRange(4, 4, 20'000);
  deliveries_.Housekeeping(20'000);  // over since now
  deliveries_.Housekeeping(20'999);
  EXPECT_TRUE(closer_.calls.empty()) << "within the grace period";
  // Other apps are served meanwhile.
  Deliver(50, a_, c.client(), 20'999);
  deliveries_.Pump();
  EXPECT_EQ(Batches(c.recv()), (std::vector<Ids>{{50}}));

  deliveries_.Housekeeping(21'000);
  ASSERT_EQ(closer_.calls.size(), 1u);
  EXPECT_EQ(closer_.calls[0].session, &*b);
  EXPECT_EQ(closer_.calls[0].code, wire::RESOURCE_EXHAUSTED);
  const std::uint64_t bytes = 4 * PayloadOf(1).size();
  EXPECT_EQ(closer_.calls[0].text,
            "delivery backlog of 4 messages (" + std::to_string(bytes) +
                " bytes) for app 'b' stayed over the limit of 3 messages (delivery_queue_limit) "
                "or 1048576 bytes (delivery_queue_bytes) for longer than 1000 ms "
                "(slow_app_grace_ms): closing the session; its deliveries wait for a resume, or "
                "expire after 30000 ms");
  deliveries_.Housekeeping(22'500);
  deliveries_.Housekeeping(30'000);
  EXPECT_EQ(closer_.calls.size(), 1u) << "closed once";
  EXPECT_TRUE(c.recv().errors().empty());

  // Its deliveries wait for a resume, then expire as counted.
  EXPECT_EQ(deliveries_.queued(b_), 4u);
  EXPECT_EQ(CountersOf(a_).in_flight, 4u);
  deliveries_.Housekeeping(40'000);
  EXPECT_EQ(CountersOf(a_).expired, 3u) << "those ready at 10 000 ms";
  deliveries_.Housekeeping(50'000);
  EXPECT_EQ(CountersOf(a_).expired, 4u);
  EXPECT_EQ(CountersOf(a_).delivered, 1u) << "c's";
}

TEST_F(DeliveryDispatcherTest, AnAppOverItsByteLimitPastTheGraceIsClosed) {
  config_.delivery_queue_limit = 100;
  config_.delivery_queue_bytes = 2500;
  TestSession b(loop_.get(), apps_, "b");
  b.recv().set_high_watermark(0);
  b.recv().AddPending(1);
  deliveries_.OnAppReady(*b);
  for (std::uint64_t id = 1; id <= 3; ++id) Deliver(id, a_, b_, 0, std::string(1000, 'x'));
  deliveries_.Pump();
  deliveries_.Housekeeping(5000);
  deliveries_.Housekeeping(6000);
  ASSERT_EQ(closer_.calls.size(), 1u);
  EXPECT_EQ(closer_.calls[0].code, wire::RESOURCE_EXHAUSTED);
  EXPECT_EQ(closer_.calls[0].text,
            "delivery backlog of 3 messages (3000 bytes) for app 'b' stayed over the limit of 100 "
            "messages (delivery_queue_limit) or 2500 bytes (delivery_queue_bytes) for longer than "
            "1000 ms (slow_app_grace_ms): closing the session; its deliveries wait for a resume, "
            "or expire after 30000 ms");
}

TEST_F(DeliveryDispatcherTest, FallingBackUnderTheBoundRestartsTheGracePeriod) {
  TestSession b(loop_.get(), apps_, "b");
  b.recv().set_high_watermark(0);
  b.recv().AddPending(1);
  deliveries_.OnAppReady(*b);
  DeliverRange(1, 4, 10'000);
  deliveries_.Pump();
  deliveries_.Housekeeping(10'000);  // over since 10 000

  // b reads one batch: 2 left, under the bound.
  b.recv().Drain();
  deliveries_.OnWritable(*b);
  deliveries_.Pump();
  ASSERT_EQ(deliveries_.queued(b_), 2u);
  deliveries_.Housekeeping(10'600);

  DeliverRange(5, 6, 10'700);  // 4 again: over since 10 700
  deliveries_.Housekeeping(10'700);
  deliveries_.Housekeeping(11'000);
  deliveries_.Housekeeping(11'699);
  EXPECT_TRUE(closer_.calls.empty()) << "the grace period restarted at 10 700";
  deliveries_.Housekeeping(11'700);
  EXPECT_EQ(closer_.calls.size(), 1u);
}

// An app whose queue drained to empty starts a later burst's grace period
// afresh. (Housekeeping used to skip empty queues before resetting the
// timer, and closed such an app without any grace.)
TEST_F(DeliveryDispatcherTest, DrainingToEmptyRestartsTheGracePeriod) {
  TestSession b(loop_.get(), apps_, "b");
  b.recv().set_high_watermark(0);
  b.recv().AddPending(1);
  deliveries_.OnAppReady(*b);
  DeliverRange(1, 4, 10'000);
  deliveries_.Pump();
  deliveries_.Housekeeping(10'000);  // over since 10 000

  // b reads everything.
  b.recv().set_high_watermark(1u << 30);
  deliveries_.OnWritable(*b);
  deliveries_.Pump();
  ASSERT_EQ(deliveries_.queued(b_), 0u);
  deliveries_.Housekeeping(10'500);

  // A new burst, over the bound since 10 900; b stops reading again.
  b.recv().set_high_watermark(0);
  DeliverRange(5, 8, 10'900);
  deliveries_.Housekeeping(10'900);
  deliveries_.Housekeeping(11'000);
  EXPECT_TRUE(closer_.calls.empty()) << "closed 100 ms into a new backlog";
}

// --- Payloads lost in the store -------------------------------------------

TEST_F(DeliveryDispatcherTest, AMissingPayloadIsLostInStoreAndTheRestDelivered) {
  TestSession a(loop_.get(), apps_, "a");
  TestSession b(loop_.get(), apps_, "b");
  deliveries_.OnAppReady(*a);
  deliveries_.OnAppReady(*b);
  DeliverRange(1, 3);
  store_.Erase(2);
  deliveries_.Pump();
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{1}, {3}}));
  EXPECT_EQ(Payloads(b.recv()),
            (std::vector<std::vector<std::string>>{{PayloadOf(1)}, {PayloadOf(3)}}));
  EXPECT_EQ(CountersOf(a_).lost_in_store, 1u);
  EXPECT_EQ(CountersOf(a_).delivered, 2u);
  EXPECT_EQ(CountersOf(a_).in_flight, 0u);
  EXPECT_EQ(ledger_.totals().lost_in_store, 1u);
  EXPECT_TRUE(a.recv().frames().empty()) << "no drop report unless asked for";
  EXPECT_EQ(ledger_.size(), 0u);
}

TEST_F(DeliveryDispatcherTest, AMissingPayloadGivesALostInStoreReportWhenAskedFor) {
  TestSession a(loop_.get(), apps_, "a");
  TestSession b(loop_.get(), apps_, "b");
  deliveries_.OnAppReady(*a);
  deliveries_.OnAppReady(*b);
  DeliverRange(1, 2);
  ledger_.Find(2)->notify_drop = true;
  store_.Erase(2);
  deliveries_.Pump();
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{1}}));
  ASSERT_EQ(Batches(a.recv()), (std::vector<Ids>{{2}}));
  const wire::Delivery& report = a.recv().frames()[0].deliveries().deliveries(0);
  EXPECT_EQ(report.status(), wire::LOST_IN_STORE);
  EXPECT_EQ(report.src(), "a");
  EXPECT_EQ(report.dst(), "b");
  EXPECT_TRUE(report.payload().empty());
  EXPECT_EQ(CountersOf(a_).lost_in_store, 1u);
  EXPECT_EQ(CountersOf(a_).delivered, 1u);
  EXPECT_EQ(CountersOf(b_).received, 1u);
  EXPECT_EQ(ledger_.size(), 0u);
}

TEST_F(DeliveryDispatcherTest, ADroppedMessagesReportReachesItsSender) {
  TestSession a(loop_.get(), apps_, "a");
  deliveries_.OnAppReady(*a);
  MessageRecord* r = ledger_.Open(9, a_, b_);
  r->notify_drop = true;
  ledger_.Accept(*r);
  ledger_.Dropped(*r);
  deliveries_.EnqueueDropReport(*r, 0);
  deliveries_.Pump();
  ASSERT_EQ(Batches(a.recv()), (std::vector<Ids>{{9}}));
  EXPECT_EQ(a.recv().frames()[0].deliveries().deliveries(0).status(), wire::DROPPED);
  EXPECT_EQ(CountersOf(a_).dropped, 1u);
  EXPECT_EQ(CountersOf(a_).delivered, 0u);
  EXPECT_EQ(CountersOf(b_).received, 0u);
  EXPECT_EQ(ledger_.size(), 0u);
}

// --- The global budget -------------------------------------------------------

TEST_F(DeliveryDispatcherTest, TheBudgetPausesAboveItAndResumesAtThreeQuarters) {
  config_.delivery_memory_budget = 4000;
  DeliveryBudget budget(4000, [this](bool paused) { budget_calls_.push_back(paused); });
  DeliveryDispatcher deliveries(loop_.get(), config_, ledger_, apps_, store_, budget, closer_);
  auto deliver = [&](std::uint64_t id) {
    MessageRecord* r = ledger_.Open(id, a_, b_);
    r->size = 1000;
    ledger_.Accept(*r);
    store_.Put(id, std::string(1000, 'x'), [](const absl::Status&) {});
    deliveries.EnqueueDelivery(*r, 0);
  };
  for (std::uint64_t id = 1; id <= 4; ++id) deliver(id);
  EXPECT_EQ(budget.held(), 4000u);
  EXPECT_TRUE(budget_calls_.empty()) << "at the budget is not over it";
  deliver(5);
  EXPECT_EQ(budget_calls_, std::vector<bool>{true});

  // b comes and takes them two at a time: 5000 -> 3000 resumes.
  TestSession b(loop_.get(), apps_, "b");
  b.recv().set_high_watermark(1);
  deliveries.OnAppReady(*b);
  deliveries.Pump();
  EXPECT_EQ(budget.held(), 3000u);
  EXPECT_EQ(budget_calls_, (std::vector<bool>{true, false}));
  b.recv().set_high_watermark(1u << 30);
  deliveries.OnWritable(*b);
  deliveries.Pump();
  EXPECT_EQ(budget.held(), 0u);
  EXPECT_EQ(CountersOf(b_).received, 5u);
}

// --- Store outages and asynchronous answers (scriptable store) ---------------

TEST_F(DeliveryDispatcherStoreTest, AnUnreachableStoreKeepsTheBatchInOrderAndIsRetriedWhenBack) {
  TestSession b(loop_.get(), apps_, "b");
  deliveries_.OnAppReady(*b);
  DeliverRange(1, 3);
  const std::uint64_t bytes = 3 * PayloadOf(1).size();
  store_.set_available(false);
  deliveries_.Pump();
  EXPECT_EQ(store_.take_calls(), (std::vector<Ids>{{1, 2}}));
  EXPECT_TRUE(b.recv().frames().empty());
  EXPECT_EQ(deliveries_.queued(b_), 3u);
  EXPECT_EQ(deliveries_.queued_bytes(b_), bytes);
  EXPECT_EQ(budget_.held(), bytes);

  // Not retried while the store is still down.
  deliveries_.OnWritable(*b);
  deliveries_.Pump();
  deliveries_.Housekeeping(1000);
  deliveries_.Pump();
  EXPECT_EQ(store_.take_calls().size(), 1u) << "retried while the store is unreachable";

  store_.set_available(true);
  deliveries_.Housekeeping(2000);
  deliveries_.Pump();
  EXPECT_EQ(store_.take_calls(), (std::vector<Ids>{{1, 2}, {1, 2}, {3}}));
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{1, 2}, {3}}));
  EXPECT_EQ(Payloads(b.recv()), (std::vector<std::vector<std::string>>{
                                    {PayloadOf(1), PayloadOf(2)}, {PayloadOf(3)}}));
  EXPECT_EQ(CountersOf(a_).delivered, 3u);
  EXPECT_EQ(CountersOf(a_).lost_in_store, 0u);
  EXPECT_EQ(budget_.held(), 0u);
}

TEST_F(DeliveryDispatcherStoreTest, OneTakeAtATimePerAppAndEachAppHasItsOwn) {
  store_.HoldTakes(true);
  TestSession b(loop_.get(), apps_, "b");
  TestSession c(loop_.get(), apps_, "c");
  deliveries_.OnAppReady(*b);
  deliveries_.OnAppReady(*c);
  DeliverRange(1, 3);
  Deliver(10, a_, c.client());
  deliveries_.Pump();
  EXPECT_EQ(store_.take_calls(), (std::vector<Ids>{{1, 2}, {10}}));
  deliveries_.OnWritable(*b);
  deliveries_.Pump();
  EXPECT_EQ(store_.take_calls().size(), 2u) << "a second take for b while one is out";
  EXPECT_TRUE(b.recv().frames().empty());

  store_.AnswerTakes();
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{1, 2}}));
  EXPECT_EQ(Batches(c.recv()), (std::vector<Ids>{{10}}));
  deliveries_.Pump();
  EXPECT_EQ(store_.take_calls().back(), (Ids{3}));
  store_.AnswerTakes();
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{1, 2}, {3}}));
  EXPECT_EQ(CountersOf(a_).delivered, 4u);
}

TEST_F(DeliveryDispatcherStoreTest, AnAppThatLeavesWhileTheStoreAnswersKeepsItsPayloads) {
  store_.HoldTakes(true);
  TestSession b(loop_.get(), apps_, "b");
  deliveries_.OnAppReady(*b);
  DeliverRange(1, 3);
  deliveries_.Pump();
  ASSERT_EQ(store_.take_calls(), (std::vector<Ids>{{1, 2}}));
  b.Detach();
  deliveries_.OnAppDetached(*b);
  store_.AnswerTakes();
  EXPECT_TRUE(store_.holds(1) && store_.holds(2)) << "the taken payloads went back";
  EXPECT_EQ(deliveries_.queued(b_), 3u);
  EXPECT_EQ(CountersOf(a_).in_flight, 3u);

  store_.HoldTakes(false);
  b.Reattach();
  deliveries_.OnAppReady(*b);
  deliveries_.Pump();
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{1, 2}, {3}}));
  EXPECT_EQ(Payloads(b.recv()), (std::vector<std::vector<std::string>>{
                                    {PayloadOf(1), PayloadOf(2)}, {PayloadOf(3)}}))
      << "the payloads put back are the ones delivered";
  EXPECT_EQ(CountersOf(a_).delivered, 3u);
}

// A PULL app's Receive that started a take is consumed; when the store could
// not answer, the batch is put back and the Receive answered empty, so the
// SDK asks again. (It used to be left unanswered, and the app received
// nothing more.)
TEST_F(DeliveryDispatcherStoreTest, AReceiveWhoseTakeFoundTheStoreDownIsAnswered) {
  TestSession b(loop_.get(), apps_, "b", {.mode = wire::PULL});
  deliveries_.OnAppReady(*b);
  DeliverRange(1, 2);
  store_.set_available(false);
  deliveries_.OnReceive(*b, MakeReceive(5, 30));
  store_.set_available(true);
  deliveries_.Housekeeping(1000);
  deliveries_.Pump();
  loop_.Run();  // past the Receive's timeout
  EXPECT_EQ(b.recv().frames().size(), 1u) << "the Receive was never answered";
}

// The same when every payload of the batch was lost in the store (and no
// drop report was asked for): the Receive is answered empty.
TEST_F(DeliveryDispatcherStoreTest, AReceiveWhoseWholeBatchWasLostIsAnswered) {
  TestSession b(loop_.get(), apps_, "b", {.mode = wire::PULL});
  deliveries_.OnAppReady(*b);
  DeliverRange(1, 1);
  store_.Erase(1);
  deliveries_.OnReceive(*b, MakeReceive(5, 30));
  loop_.Run();
  EXPECT_EQ(CountersOf(a_).lost_in_store, 1u);
  EXPECT_EQ(b.recv().frames().size(), 1u) << "the Receive was never answered";
}

// A Receive is answered on the channels that sent it, or not at all: a take
// still out when the app loses its channels and comes back (a resume) writes
// nothing to the new ones, which asked for nothing (a PULL client counts one
// batch per request); the batch waits for their first Receive.
TEST_F(DeliveryDispatcherStoreTest, ATakeOutWhileTheAppCameBackAnswersNoneOfItsNewChannels) {
  store_.HoldTakes(true);
  TestSession b(loop_.get(), apps_, "b", {.mode = wire::PULL});
  deliveries_.OnAppReady(*b);
  DeliverRange(1, 3);
  deliveries_.OnReceive(*b, MakeReceive(2, 30'000));
  ASSERT_EQ(store_.take_calls(), (std::vector<Ids>{{1, 2}}));
  b.Detach();
  deliveries_.OnAppDetached(*b);
  b.Reattach();
  deliveries_.OnAppReady(*b);
  store_.AnswerTakes();
  deliveries_.Pump();
  EXPECT_TRUE(b.recv().frames().empty()) << "a batch that no Receive of these channels asked for";
  EXPECT_TRUE(store_.holds(1) && store_.holds(2)) << "the taken payloads went back";

  store_.HoldTakes(false);
  deliveries_.OnReceive(*b, MakeReceive(2, 30'000));
  deliveries_.Pump();
  EXPECT_EQ(Batches(b.recv()), (std::vector<Ids>{{1, 2}}));
  EXPECT_EQ(Payloads(b.recv()),
            (std::vector<std::vector<std::string>>{{PayloadOf(1), PayloadOf(2)}}));
}

// The same when every payload of that take was lost in the store: the lost
// are counted, and the new channels get no empty answer they did not ask for.
TEST_F(DeliveryDispatcherStoreTest, ALostTakeOutWhileTheAppCameBackAnswersNoneOfItsNewChannels) {
  store_.HoldTakes(true);
  TestSession b(loop_.get(), apps_, "b", {.mode = wire::PULL});
  deliveries_.OnAppReady(*b);
  DeliverRange(1, 1);
  deliveries_.OnReceive(*b, MakeReceive(2, 30'000));
  b.Detach();
  deliveries_.OnAppDetached(*b);
  b.Reattach();
  deliveries_.OnAppReady(*b);
  store_.Erase(1);
  store_.AnswerTakes();
  deliveries_.Pump();
  EXPECT_EQ(CountersOf(a_).lost_in_store, 1u);
  EXPECT_TRUE(b.recv().frames().empty()) << "an answer that no Receive of these channels asked for";
}

}  // namespace
}  // namespace trestle::daemon

namespace trestle::daemon {
namespace {

// `b` loses its channels before its Ack and comes back: what it had goes
// back to its queue and is written again.
void Reconnect(DeliveryDispatcher& deliveries, TestSession& b) {
  b.Detach();
  deliveries.OnAppDetached(*b);
  b.Reattach();
  b.recv().ClearRecorded();
  deliveries.OnAppReady(*b);
}

// Payloads by key: a message whose sender wrote its payload to the store
// reaches an app that takes payloads by key as its key (no take from the
// store, the key unlinked after the Ack); any other app gets it inline.
TEST_F(DeliveryDispatcherStoreTest, ByKeyToAnAppThatTakesByKeyReadsNothingFromTheStore) {
  config_.max_batch = 256;
  TestSession b(loop_.get(), apps_, "b", {.delivery_acks = true, .payload_by_key = true});
  deliveries_.OnAppReady(*b);
  Deliver(1, a_, b_);                                          // inline
  Deliver(2, a_, b_, 0, std::string(5000, '\0')).by_key = true;  // by key
  Deliver(3, a_, b_);                                          // inline
  deliveries_.Pump();
  ASSERT_EQ(store_.take_calls(), (std::vector<Ids>{{1, 3}})) << "the payload by key was read";
  ASSERT_EQ(b.recv().frames().size(), 1u);
  const auto& batch = b.recv().frames()[0].deliveries().deliveries();
  ASSERT_EQ(batch.size(), 3);
  EXPECT_EQ(batch[0].payload(), PayloadOf(1));
  EXPECT_FALSE(batch[0].by_key());
  EXPECT_TRUE(batch[1].by_key());
  EXPECT_EQ(batch[1].size(), 5000u);
  EXPECT_EQ(batch[1].payload(), "");
  EXPECT_EQ(batch[1].delivery_seq(), 2u);
  EXPECT_EQ(batch[2].payload(), PayloadOf(3));
  EXPECT_TRUE(store_.holds(2)) << "the key stays for the app to take";
  EXPECT_EQ(CountersOf(a_).delivered, 0u) << "delivered only at the Ack";
  wire::Ack ack;
  ack.set_delivery_seq(3);
  deliveries_.OnAck(*b, ack);
  EXPECT_EQ(CountersOf(a_).delivered, 3u);
  EXPECT_FALSE(store_.holds(2)) << "unlinked after the Ack";
  EXPECT_EQ(ledger_.size(), 0u);
}

TEST_F(DeliveryDispatcherStoreTest, ByKeyToAnAppThatDoesNotTakeByKeyIsReadAndWrittenInline) {
  TestSession b(loop_.get(), apps_, "b", {.delivery_acks = true});
  deliveries_.OnAppReady(*b);
  Deliver(1, a_, b_, 0, std::string(5000, '\0')).by_key = true;
  deliveries_.Pump();
  ASSERT_EQ(store_.take_calls(), (std::vector<Ids>{{1}}));
  ASSERT_EQ(b.recv().frames().size(), 1u);
  const wire::Delivery& d = b.recv().frames()[0].deliveries().deliveries(0);
  EXPECT_FALSE(d.by_key());
  EXPECT_EQ(d.payload(), std::string(5000, '\0'));
  // Lost before the Ack: it goes back to the store and comes again inline.
  Reconnect(deliveries_, b);
  EXPECT_TRUE(store_.holds(1));
  deliveries_.Pump();
  ASSERT_EQ(b.recv().frames().size(), 1u);
  EXPECT_EQ(b.recv().frames()[0].deliveries().deliveries(0).payload(), std::string(5000, '\0'));
  wire::Ack ack;
  ack.set_delivery_seq(1);
  deliveries_.OnAck(*b, ack);
  EXPECT_EQ(CountersOf(a_).delivered, 1u);
}

TEST_F(DeliveryDispatcherStoreTest, ByKeyUnackedWhenTheAppLeavesStaysInTheStoreUntouched) {
  TestSession b(loop_.get(), apps_, "b", {.delivery_acks = true, .payload_by_key = true});
  deliveries_.OnAppReady(*b);
  Deliver(1, a_, b_, 0, "by key").by_key = true;
  deliveries_.Pump();
  const std::size_t takes = store_.take_calls().size();
  Reconnect(deliveries_, b);
  EXPECT_TRUE(store_.holds(1)) << "the key was not put back (nor overwritten)";
  EXPECT_EQ(store_.take_calls().size(), takes);
  deliveries_.Pump();
  ASSERT_EQ(b.recv().frames().size(), 1u);
  const wire::Delivery& d = b.recv().frames()[0].deliveries().deliveries(0);
  EXPECT_TRUE(d.by_key());
  EXPECT_EQ(d.delivery_seq(), 1u) << "written again with its number";
  for (const Ids& ids : store_.take_calls()) EXPECT_TRUE(ids.empty()) << "a payload by key was read";
  wire::Ack ack;
  ack.set_delivery_seq(1);
  deliveries_.OnAck(*b, ack);
  EXPECT_EQ(CountersOf(a_).delivered, 1u);
}

}  // namespace
}  // namespace trestle::daemon
