// SendAdmission: a Send gets the session's next id, is checked (draining,
// destination, payload size), stored, counted accepted and queued for a
// simulator. Whatever is refused gets an Error naming the problem, with the
// message id in ref_id, and is counted rejected, never accepted.
#include "dataplane/send_admission.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "dispatch/destination_lookup.h"
#include "dispatch/local_destination_lookup.h"
#include "dispatch/simulator_assignment.h"
#include "dispatch/transit_dispatcher.h"
#include "fake_payload_store.h"
#include "messages/client_registry.h"
#include "messages/message_ledger.h"
#include "test_loop.h"
#include "test_session.h"
#include "trestle/wire/frame_format.h"

namespace trestle::daemon {
namespace {

// Where destinations are, as LocalDestinationLookup says, unless a test
// sets an error (a lookup that refuses, as a federated one may).
class ScriptedDestinationLookup final : public DestinationLookup {
 public:
  explicit ScriptedDestinationLookup(ClientRegistry& apps) : local_(apps, 10000) {}
  absl::StatusOr<Destination> Resolve(std::uint32_t sender, std::string_view dst) override {
    if (!error_.ok()) return error_;
    return local_.Resolve(sender, dst);
  }
  void set_error(absl::Status error) { error_ = std::move(error); }

 private:
  LocalDestinationLookup local_;
  absl::Status error_;
};

constexpr std::uint64_t Id(std::uint64_t prefix, std::uint64_t n) { return (prefix << 32) | n; }

DaemonConfig TestConfig() {
  DaemonConfig config;
  config.max_frame_bytes = 4096;  // payloads of at most 4096 - 1024 = 3072 bytes
  config.transit_queue_limit = 100;
  return config;
}

class SendAdmissionTest : public ::testing::Test {
 protected:
  void Send(TestSession& s, std::string dst, std::string payload) {
    wire::Send send;
    send.set_dst(std::move(dst));
    send.set_payload(std::move(payload));
    admission_.OnSend(*s, send);
  }

  const MessageCounters& CountersOf(TestSession& s) { return apps_.at(s.client()).counters; }

  // The one Error `s` got on its send channel; fails when there is not exactly one.
  FakeChannel::Error OnlyError(TestSession& s) {
    EXPECT_EQ(s.send().errors().size(), 1u);
    return s.send().errors().empty() ? FakeChannel::Error{} : s.send().errors().front();
  }

  // The send was refused and left nothing behind but the count.
  void ExpectRejectedOnly(TestSession& s, std::uint64_t rejected) {
    EXPECT_EQ(CountersOf(s).rejected, rejected);
    EXPECT_EQ(CountersOf(s).accepted, 0u);
    EXPECT_EQ(CountersOf(s).in_flight, 0u);
    EXPECT_EQ(ledger_.totals().rejected, rejected);
    EXPECT_EQ(ledger_.totals().accepted, 0u);
    EXPECT_EQ(ledger_.size(), 0u);
    EXPECT_EQ(store_.size(), 0u);
    EXPECT_EQ(transits_.queued(0), 0u);
  }

  TestLoop loop_;
  DaemonConfig config_ = TestConfig();
  ClientRegistry apps_;
  MessageLedger ledger_{apps_};
  FakePayloadStore store_;
  ScriptedDestinationLookup destinations_{apps_};
  SimulatorAssignment assignment_{SimAssignment::kSystem};
  TransitDispatcher transits_{config_, ledger_, apps_, assignment_};
  SendAdmission admission_{config_, ledger_, apps_, store_, destinations_, assignment_, transits_};
  TestSession a_{loop_.get(), apps_, "a", {.id_prefix = 7}};
};

TEST_F(SendAdmissionTest, AnAcceptedSendIsStoredCountedAndQueuedWithItsFields) {
  wire::Send send;
  send.set_dst("b");
  send.set_payload("hello");
  send.set_tclass(3);
  send.set_t_send(100);
  send.set_app_sent(55);
  send.set_notify_drop(true);
  admission_.OnSend(*a_, send);

  EXPECT_TRUE(a_.send().errors().empty());
  const ClientEntry* b = apps_.Find("b");
  ASSERT_NE(b, nullptr) << "a destination no app has used yet gets an entry";
  MessageRecord* r = ledger_.Find(Id(7, 1));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->src, a_.client());
  EXPECT_EQ(r->dst, b->index);
  EXPECT_EQ(r->queue, 0u);
  EXPECT_EQ(r->size, 5u);
  EXPECT_EQ(r->tclass, 3u);
  EXPECT_EQ(r->t_send, 100u);
  EXPECT_EQ(r->app_sent, 55u);
  EXPECT_TRUE(r->notify_drop);
  EXPECT_NE(r->accepted, 0u);
  EXPECT_EQ(r->state, MessageRecord::State::kQueued);
  EXPECT_TRUE(store_.holds(Id(7, 1)));
  EXPECT_EQ(CountersOf(a_).accepted, 1u);
  EXPECT_EQ(CountersOf(a_).in_flight, 1u);
  EXPECT_EQ(CountersOf(a_).rejected, 0u);
  EXPECT_EQ(transits_.queued(0), 1u);

  // The same name resolves to the same entry.
  Send(a_, "b", "again");
  ASSERT_NE(ledger_.Find(Id(7, 2)), nullptr);
  EXPECT_EQ(ledger_.Find(Id(7, 2))->dst, b->index);
}

TEST_F(SendAdmissionTest, IdsAreConsecutivePerSessionAndRefusedSendsUseTheirs) {
  TestSession c(loop_.get(), apps_, "c", {.id_prefix = 8});
  Send(a_, "b", "1");
  Send(a_, "", "2");  // refused: its id is spent
  Send(c, "b", "x");
  Send(a_, "b", "3");
  EXPECT_NE(ledger_.Find(Id(7, 1)), nullptr);
  EXPECT_EQ(ledger_.Find(Id(7, 2)), nullptr);
  EXPECT_EQ(OnlyError(a_).ref_id, Id(7, 2));
  EXPECT_NE(ledger_.Find(Id(7, 3)), nullptr);
  EXPECT_NE(ledger_.Find(Id(8, 1)), nullptr);
  EXPECT_EQ(a_->next_seq(), 4u);
  EXPECT_EQ(c->next_seq(), 2u);
  EXPECT_EQ(ledger_.size(), 3u);
}

TEST_F(SendAdmissionTest, AnEmptyDestinationIsRefusedNamingTheField) {
  Send(a_, "", "payload");
  const FakeChannel::Error e = OnlyError(a_);
  EXPECT_EQ(e.code, wire::BAD_REQUEST);
  EXPECT_EQ(e.text, "Send.dst is empty: name the destination app");
  EXPECT_EQ(e.ref_id, Id(7, 1));
  EXPECT_FALSE(e.close_after) << "a refused send does not end the session";
  ExpectRejectedOnly(a_, 1);
  EXPECT_EQ(apps_.Find(""), nullptr) << "no entry for an empty name";
}

TEST_F(SendAdmissionTest, APayloadTooLargeToDeliverIsRefusedNamingTheLimit) {
  Send(a_, "b", std::string(3073, 'x'));
  const FakeChannel::Error e = OnlyError(a_);
  EXPECT_EQ(e.code, wire::BAD_REQUEST);
  EXPECT_EQ(e.text,
            "payload of 3073 bytes is too large to deliver: at most max_frame_bytes - 1024 = 3072");
  EXPECT_EQ(e.ref_id, Id(7, 1));
  ExpectRejectedOnly(a_, 1);

  // The largest that fits is accepted.
  Send(a_, "b", std::string(3072, 'x'));
  EXPECT_EQ(a_.send().errors().size(), 1u);
  EXPECT_EQ(CountersOf(a_).accepted, 1u);
  EXPECT_EQ(transits_.queued(0), 1u);
}

TEST_F(SendAdmissionTest, AModelSizeIsWhatTheSimulatorIsToldAndThePayloadStaysAsSent) {
  ClientRegistry sims;
  TestSession sim(loop_.get(), sims, "sim", {.role = wire::ROLE_SIM});
  transits_.OnSimReady(*sim, 0);
  wire::Send send;
  send.set_dst("b");
  send.set_payload("hdr");
  send.set_model_size(std::uint64_t{1} << 20);
  admission_.OnSend(*a_, send);
  send.set_model_size(0);  // modelled as empty, though it carries 3 bytes
  admission_.OnSend(*a_, send);
  Send(a_, "b", "plain");  // no model_size: the payload's size
  EXPECT_TRUE(a_.send().errors().empty());
  ASSERT_NE(ledger_.Find(Id(7, 1)), nullptr);
  EXPECT_EQ(ledger_.Find(Id(7, 1))->size, 3u) << "the payload's bytes are what the daemon keeps";

  transits_.Pump();
  ASSERT_EQ(sim.recv().frames().size(), 1u);
  const wire::TransitBatch& batch = sim.recv().frames()[0].transits();
  ASSERT_EQ(batch.transits_size(), 3);
  EXPECT_EQ(batch.transits(0).size(), std::uint64_t{1} << 20);
  EXPECT_EQ(batch.transits(1).size(), 0u);
  EXPECT_EQ(batch.transits(2).size(), 5u);
}

TEST_F(SendAdmissionTest, AModelSizeOverTheLimitIsRefusedNamingIt) {
  wire::Send send;
  send.set_dst("b");
  send.set_payload("hdr");
  send.set_model_size(wire::kMaxModelSizeBytes + 1);
  admission_.OnSend(*a_, send);
  const FakeChannel::Error e = OnlyError(a_);
  EXPECT_EQ(e.code, wire::BAD_REQUEST);
  EXPECT_EQ(e.text, "Send.model_size of 1125899906842625 bytes is over the limit of "
                    "1125899906842624 (2^50)");
  EXPECT_EQ(e.ref_id, Id(7, 1));
  ExpectRejectedOnly(a_, 1);

  send.set_model_size(wire::kMaxModelSizeBytes);  // the largest is accepted
  admission_.OnSend(*a_, send);
  EXPECT_EQ(a_.send().errors().size(), 1u);
  EXPECT_EQ(CountersOf(a_).accepted, 1u);
}

TEST_F(SendAdmissionTest, WhileDrainingSendsAreRefusedAsShuttingDown) {
  admission_.set_draining(true);
  EXPECT_TRUE(admission_.draining());
  Send(a_, "b", "late");
  const FakeChannel::Error e = OnlyError(a_);
  EXPECT_EQ(e.code, wire::SHUTTING_DOWN);
  EXPECT_EQ(e.text, "the daemon is draining: no new sends are accepted");
  EXPECT_EQ(e.ref_id, Id(7, 1));
  ExpectRejectedOnly(a_, 1);

  admission_.set_draining(false);
  Send(a_, "b", "on time");
  EXPECT_EQ(CountersOf(a_).accepted, 1u);
}

TEST_F(SendAdmissionTest, ALookupThatRefusesGivesItsTextAndCode) {
  destinations_.set_error(absl::ResourceExhaustedError("peer daemon 3 has no room for 'b'"));
  Send(a_, "b", "x");
  FakeChannel::Error e = OnlyError(a_);
  EXPECT_EQ(e.code, wire::RESOURCE_EXHAUSTED);
  EXPECT_EQ(e.text, "peer daemon 3 has no room for 'b'");
  EXPECT_EQ(e.ref_id, Id(7, 1));
  ExpectRejectedOnly(a_, 1);

  a_.send().ClearRecorded();
  destinations_.set_error(absl::NotFoundError("no daemon of the bridge knows 'zz'"));
  Send(a_, "zz", "x");
  e = OnlyError(a_);
  EXPECT_EQ(e.code, wire::BAD_REQUEST);
  EXPECT_EQ(e.text, "no daemon of the bridge knows 'zz'");
  EXPECT_EQ(e.ref_id, Id(7, 2));
  ExpectRejectedOnly(a_, 2);
}

TEST_F(SendAdmissionTest, AStoreThatRefusesGivesUnavailableNamingTheStore) {
  store_.RefusePuts(absl::UnavailableError("connection refused"));
  Send(a_, "b", "x");
  const FakeChannel::Error e = OnlyError(a_);
  EXPECT_EQ(e.code, wire::UNAVAILABLE);
  EXPECT_EQ(e.text, "payload store fake://store did not take the payload: connection refused");
  EXPECT_EQ(e.ref_id, Id(7, 1));
  ExpectRejectedOnly(a_, 1);
}

TEST_F(SendAdmissionTest, ASendIsAcceptedOnlyOnceTheStoreHasIt) {
  store_.HoldPuts(true);
  Send(a_, "b", "x");
  Send(a_, "b", "y");
  ASSERT_NE(ledger_.Find(Id(7, 1)), nullptr);
  EXPECT_EQ(ledger_.Find(Id(7, 1))->state, MessageRecord::State::kStoring);
  EXPECT_EQ(CountersOf(a_).accepted, 0u);
  EXPECT_EQ(CountersOf(a_).in_flight, 0u);
  EXPECT_EQ(transits_.queued(0), 0u);

  store_.AnswerPuts(absl::OkStatus());
  EXPECT_EQ(CountersOf(a_).accepted, 2u);
  EXPECT_EQ(CountersOf(a_).in_flight, 2u);
  EXPECT_EQ(ledger_.Find(Id(7, 1))->state, MessageRecord::State::kQueued);
  EXPECT_EQ(transits_.queued(0), 2u);
  EXPECT_TRUE(a_.send().errors().empty());

  // A later refusal, asynchronously: rejected, never accepted.
  Send(a_, "b", "z");
  store_.AnswerPuts(absl::UnavailableError("timed out"));
  const FakeChannel::Error e = OnlyError(a_);
  EXPECT_EQ(e.code, wire::UNAVAILABLE);
  EXPECT_EQ(e.text, "payload store fake://store did not take the payload: timed out");
  EXPECT_EQ(e.ref_id, Id(7, 3));
  EXPECT_EQ(ledger_.Find(Id(7, 3)), nullptr);
  EXPECT_EQ(CountersOf(a_).accepted, 2u);
  EXPECT_EQ(CountersOf(a_).rejected, 1u);
  EXPECT_EQ(transits_.queued(0), 2u);
}

TEST_F(SendAdmissionTest, ASendPastTheTransitQueueLimitPausesItsSender) {
  config_.transit_queue_limit = 2;
  Send(a_, "b", "1");
  EXPECT_FALSE(a_.send().reading_paused());
  Send(a_, "b", "2");
  EXPECT_TRUE(a_.send().reading_paused());
  EXPECT_EQ(a_.send().pause_calls(), 1);
}

TEST_F(SendAdmissionTest, AnIdInUseIsRefusedNamingIt) {
  // Session ids wrapped onto a message still in flight.
  MessageRecord* old = ledger_.Open(Id(7, 1), a_.client(), a_.client());
  ASSERT_NE(old, nullptr);
  ledger_.Accept(*old);
  Send(a_, "b", "x");
  const FakeChannel::Error e = OnlyError(a_);
  EXPECT_EQ(e.code, wire::BAD_REQUEST);
  EXPECT_EQ(e.text, "message id " + std::to_string(Id(7, 1)) +
                        " is already in use (session ids wrapped)");
  EXPECT_EQ(e.ref_id, Id(7, 1));
  EXPECT_EQ(CountersOf(a_).rejected, 1u);
  EXPECT_EQ(CountersOf(a_).accepted, 1u) << "only the old message";
}

// Refusing a Send whose id is in use must leave the record under that id
// alone: it is another message's, in flight. (It used to be erased, and that
// message's outcome then found no record.)
TEST_F(SendAdmissionTest, AnIdInUseLeavesTheMessageHoldingIt) {
  MessageRecord* old = ledger_.Open(Id(7, 1), a_.client(), a_.client());
  ASSERT_NE(old, nullptr);
  old->size = 99;
  ledger_.Accept(*old);
  Send(a_, "b", "x");
  ASSERT_NE(ledger_.Find(Id(7, 1)), nullptr) << "the message in flight lost its record";
  EXPECT_EQ(ledger_.Find(Id(7, 1))->size, 99u);
}

}  // namespace
}  // namespace trestle::daemon

namespace trestle::daemon {
namespace {

// Payloads by key: the store is checked (Adopt), not written; a Send by key
// the daemon cannot take is refused naming why.
class SendByKeyTest : public SendAdmissionTest {
 protected:
  SendByKeyTest() { config_.store = StoreKind::kRedis; }
  void SendByKey(TestSession& s, std::uint64_t size, std::string payload = "") {
    wire::Send send;
    send.set_dst("b");
    send.set_by_key(true);
    send.set_size(size);
    send.set_payload(std::move(payload));
    admission_.OnSend(*s, send);
  }
};

TEST_F(SendByKeyTest, APayloadTheClientWroteIsAdoptedAndTheMessageGoesOn) {
  store_.WriteAsClient(Id(7, 1), std::string(3000, '\0'));
  SendByKey(a_, 3000);
  EXPECT_TRUE(a_.send().errors().empty());
  MessageRecord* r = ledger_.Find(Id(7, 1));
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->by_key);
  EXPECT_EQ(r->size, 3000u);
  EXPECT_EQ(CountersOf(a_).accepted, 1u);
  EXPECT_EQ(transits_.queued(0), 1u);
  // An inline send next to it is not by key.
  Send(a_, "b", "inline");
  ASSERT_NE(ledger_.Find(Id(7, 2)), nullptr);
  EXPECT_FALSE(ledger_.Find(Id(7, 2))->by_key);
}

TEST_F(SendByKeyTest, AMissingKeyIsNotFoundNamingTheKey) {
  SendByKey(a_, 10);
  const FakeChannel::Error e = OnlyError(a_);
  EXPECT_EQ(e.code, wire::NOT_FOUND);
  EXPECT_EQ(e.ref_id, Id(7, 1));
  EXPECT_NE(e.text.find("payload key 'fake:" + std::to_string(Id(7, 1)) + "'"),
            std::string::npos)
      << e.text;
  ExpectRejectedOnly(a_, 1);
}

TEST_F(SendByKeyTest, AnotherSizeThanAnnouncedIsABadRequestNamingTheKey) {
  store_.WriteAsClient(Id(7, 1), "abc");
  SendByKey(a_, 10);
  const FakeChannel::Error e = OnlyError(a_);
  EXPECT_EQ(e.code, wire::BAD_REQUEST);
  EXPECT_NE(e.text.find("holds 3 bytes"), std::string::npos) << e.text;
  EXPECT_EQ(CountersOf(a_).rejected, 1u);
  EXPECT_EQ(ledger_.size(), 0u);
}

TEST_F(SendByKeyTest, RefusedWithMemoryStoreWhenOffWithAPayloadEmptyOrTooLarge) {
  struct Case {
    const char* name;
    std::function<void(DaemonConfig&)> configure;
    std::uint64_t size;
    std::string payload;
    std::string expect;
  };
  const Case cases[] = {
      {"memory store", [](DaemonConfig& c) { c.store = StoreKind::kMemory; }, 10, "",
       "payload store is memory"},
      {"switched off", [](DaemonConfig& c) { c.payload_by_key = false; }, 10, "",
       "payload_by_key: false"},
      {"inline payload too", [](DaemonConfig&) {}, 3, "abc", "carries a payload of 3 bytes"},
      {"size 0", [](DaemonConfig&) {}, 0, "", "Send.size is 0"},
      {"too large", [](DaemonConfig&) {}, 3073, "", "payload of 3073 bytes is too large"},
  };
  std::uint64_t rejected = 0;
  for (const Case& c : cases) {
    config_ = TestConfig();
    config_.store = StoreKind::kRedis;
    c.configure(config_);
    a_.send().ClearRecorded();
    SendByKey(a_, c.size, c.payload);
    ++rejected;
    const FakeChannel::Error e = OnlyError(a_);
    EXPECT_EQ(e.code, wire::BAD_REQUEST) << c.name;
    EXPECT_NE(e.text.find(c.expect), std::string::npos) << c.name << ": " << e.text;
    ExpectRejectedOnly(a_, rejected);
  }
}

}  // namespace
}  // namespace trestle::daemon
