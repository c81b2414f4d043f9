// Three rules of docs/protocol.md, through the C++ SDK against a real
// trestled (tests/python/test_protocol_rules.py checks the same through the
// Python SDK):
// - PULL: each Fetch gets exactly one TransitBatch, of at most max_count
//   transits, sent as soon as there is one (never held back to fill it);
// - Errors: ref_id names the refused message (a Send's id, an Outcome's
//   transit), on a shared connection too; an Error without one names none;
// - lockstep: after a resume, Clock.seen_delivery_seq counts what the
//   session before took in, so the resumed app's blocked report counts and
//   it wakes.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "daemon_process.h"
#include "raw_connection.h"
#include "sdk_test_options.h"
#include "trestle/app_client.h"
#include "trestle/sim_client.h"
#include "trestle/status.h"
#include "trestle/wire/frame_format.h"

namespace trestle::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

std::vector<std::uint64_t> IdsOf(const std::vector<Transit>& transits) {
  std::vector<std::uint64_t> ids;
  for (const Transit& t : transits) ids.push_back(t.id);
  return ids;
}

// Client `id`'s statistics, read through `app` until `holds` them (5 s at
// most; then the last read).
wire::ClientStats StatsOf(AppClient& app, const std::string& id,
                          const std::function<bool(const wire::ClientStats&)>& holds) {
  wire::ClientStats last;
  const auto deadline = std::chrono::steady_clock::now() + seconds(5);
  do {
    absl::StatusOr<wire::StatsReply> stats = app.Stats(seconds(5));
    if (!stats.ok()) {
      ADD_FAILURE() << stats.status();
      return last;
    }
    for (const wire::ClientStats& c : stats->clients()) {
      if (c.client_id() == id) last = c;
    }
    if (holds(last)) return last;
    std::this_thread::sleep_for(milliseconds(10));
  } while (std::chrono::steady_clock::now() < deadline);
  return last;
}

TEST(ProtocolRules, EachFetchIsAnsweredByOneBatchOfAtMostMaxCountAsSoonAsOneIsThere) {
  DaemonProcess daemon;
  ClientOptions so = TestClientOptions(daemon.address(), "pull-sim");
  so.mode = DeliveryMode::kPull;
  so.shared_connection = true;  // a Ping's Pong follows the Fetches written before it
  SimClient sim(so);
  ASSERT_TRUE(sim.Connect().ok());
  AppClient a(TestClientOptions(daemon.address(), "a"));
  ASSERT_TRUE(a.Connect().ok());
  std::vector<std::uint64_t> ids;
  for (int i = 0; i < 10; ++i) {
    absl::StatusOr<std::uint64_t> id = a.Send("a", absl::StrCat("m", i));
    ASSERT_TRUE(id.ok()) << id.status();
    ids.push_back(*id);
  }
  wire::ClientStats s = StatsOf(a, "pull-sim", [](auto& c) { return c.queued() == 10; });
  ASSERT_EQ(s.queued(), 10u);

  absl::StatusOr<std::vector<Transit>> first = sim.Fetch(4, seconds(5));
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(IdsOf(*first), std::vector<std::uint64_t>(ids.begin(), ids.begin() + 4));
  s = StatsOf(a, "pull-sim", [](auto& c) { return c.held() == 4; });
  EXPECT_EQ(s.held(), 4u) << "one Fetch for 4 took other than 4";
  EXPECT_EQ(s.queued(), 6u);
  absl::StatusOr<std::vector<Transit>> rest = sim.Fetch(0, seconds(5));  // 0: max_batch
  ASSERT_TRUE(rest.ok()) << rest.status();
  EXPECT_EQ(IdsOf(*rest), std::vector<std::uint64_t>(ids.begin() + 4, ids.end()));
  s = StatsOf(a, "pull-sim", [](auto& c) { return c.held() == 10; });
  EXPECT_EQ(s.held(), 10u);
  EXPECT_EQ(s.queued(), 0u);
  absl::StatusOr<std::vector<Transit>> none = sim.Fetch(0, milliseconds(200));
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(none->empty()) << "answered at its timeout, empty";

  // Waiting Fetches (the callback mode keeps two, for max_batch each) are
  // answered by the first transit to come, alone: the next is sent only
  // once that answer is in.
  std::vector<std::vector<std::uint64_t>> answers;
  sim.OnTransits([&](std::span<const Transit> batch) {
    answers.push_back(IdsOf(std::vector<Transit>(batch.begin(), batch.end())));
  });
  ASSERT_TRUE(sim.Ping(seconds(5)).ok());  // the shared connection: both Fetches wait now
  absl::StatusOr<std::uint64_t> eleventh = a.Send("a", "m10");
  ASSERT_TRUE(eleventh.ok()) << eleventh.status();
  EXPECT_TRUE(sim.loop().RunUntil([&] { return !answers.empty(); }, seconds(10)))
      << "a waiting Fetch was not answered when a transit came";
  absl::StatusOr<std::uint64_t> twelfth = a.Send("a", "m11");
  ASSERT_TRUE(twelfth.ok()) << twelfth.status();
  EXPECT_TRUE(sim.loop().RunUntil([&] { return answers.size() == 2; }, seconds(10)));
  EXPECT_EQ(answers, (std::vector<std::vector<std::uint64_t>>{{*eleventh}, {*twelfth}}));
}

TEST(ProtocolRules, OnASharedConnectionAnErrorsRefIdNamesTheRefusedSendOrOutcome) {
  DaemonProcess daemon({"--max-absent-destinations", "1"});
  ClientOptions so = TestClientOptions(daemon.address(), "pull-sim");
  so.mode = DeliveryMode::kPull;
  so.shared_connection = true;
  SimClient sim(so);
  std::vector<absl::Status> sim_errors;
  sim.OnError([&](const absl::Status& e) { sim_errors.push_back(e); });
  ASSERT_TRUE(sim.Connect().ok());
  ClientOptions ao = TestClientOptions(daemon.address(), "a");
  ao.shared_connection = true;
  AppClient a(ao);
  std::vector<absl::Status> app_errors;
  a.OnError([&](const absl::Status& e) { app_errors.push_back(e); });
  ASSERT_TRUE(a.Connect().ok());
  AppClient b(TestClientOptions(daemon.address(), "b"));
  ASSERT_TRUE(b.Connect().ok());

  absl::StatusOr<std::uint64_t> one = a.Send("b", "one");
  absl::StatusOr<std::uint64_t> absent = a.Send("nobody-1", "waits for nobody-1");
  absl::StatusOr<std::uint64_t> refused = a.Send("nobody-2", "over max_absent_destinations");
  absl::StatusOr<std::uint64_t> four = a.Send("b", "four");
  ASSERT_TRUE(one.ok() && absent.ok() && refused.ok() && four.ok());
  // A refused Send used its id: the ids go on one by one.
  EXPECT_EQ(*absent, *one + 1);
  EXPECT_EQ(*refused, *one + 2);
  EXPECT_EQ(*four, *one + 3);
  ASSERT_TRUE(a.Ping(seconds(5)).ok());  // read after the Sends: their Errors came first
  ASSERT_EQ(app_errors.size(), 1u);
  EXPECT_EQ(app_errors[0].code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(MessageIdOf(app_errors[0]), std::optional<std::uint64_t>(*refused));
  EXPECT_EQ(app_errors[0].message().rfind(absl::StrCat("send #", *refused, " rejected: "), 0), 0u)
      << app_errors[0];
  EXPECT_NE(app_errors[0].message().find("max_absent_destinations"), std::string::npos)
      << app_errors[0];

  std::vector<Transit> transits;
  while (transits.size() < 3) {
    absl::StatusOr<std::vector<Transit>> got = sim.Fetch(0, seconds(5));
    ASSERT_TRUE(got.ok() && !got->empty()) << got.status();
    transits.insert(transits.end(), got->begin(), got->end());
  }
  EXPECT_EQ(IdsOf(transits), (std::vector<std::uint64_t>{*one, *absent, *four}));
  for (const Transit& t : transits) sim.Post({t.id, Outcome::Status::kDelivered, t.t_send + 5, 0});
  ASSERT_TRUE(sim.Flush(seconds(5)).ok());
  std::vector<std::uint64_t> got;
  for (int i = 0; i < 2; ++i) {
    absl::StatusOr<Message> m = b.Receive(seconds(5));
    ASSERT_TRUE(m.ok()) << m.status();
    got.push_back(m->id);
  }
  EXPECT_EQ(got, (std::vector<std::uint64_t>{*one, *four}));

  // The simulator on its shared connection: an Outcome for a transit it does
  // not hold is refused naming it; Reached at a wallclock daemon names none.
  sim.Post({777, Outcome::Status::kDelivered, 5, 0});
  ASSERT_TRUE(sim.Flush(seconds(5)).ok());
  sim.ReportReached(5, 5);
  ASSERT_TRUE(sim.Ping(seconds(5)).ok());
  ASSERT_EQ(sim_errors.size(), 2u);
  EXPECT_EQ(sim_errors[0].code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(MessageIdOf(sim_errors[0]), std::optional<std::uint64_t>(777));
  EXPECT_NE(sim_errors[0].message().find("CHANNEL_SEND channel: Outcome for transit 777"),
            std::string::npos)
      << sim_errors[0];
  EXPECT_EQ(sim_errors[1].code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(MessageIdOf(sim_errors[1]), std::nullopt);
  EXPECT_NE(sim_errors[1].message().find("CHANNEL_CTRL channel: Reached"), std::string::npos)
      << sim_errors[1];
}

TEST(ProtocolRules, AfterAResumeSeenDeliverySeqCountsWhatTheSessionBeforeTookIn) {
  DaemonProcess daemon({"--time-mode", "lockstep"});
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon.address()});
  ClientOptions o = TestClientOptions(daemon.address(), "b");
  o.lockstep = true;
  AppClient b(o);
  ASSERT_TRUE(b.Connect().ok());
  ASSERT_TRUE(b.Send("b", "one").ok());  // at 0; the ghost delivers at 0: delivery_seq 1
  absl::StatusOr<Message> m = b.Receive(seconds(10));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->payload, "one");
  // Acknowledged, so nothing is written again to the resumed session; and no
  // Clock of this session said it had seen delivery 1.
  for (int i = 0; i < 500; ++i) {
    absl::StatusOr<wire::StatsReply> stats = b.Stats(seconds(5));
    ASSERT_TRUE(stats.ok()) << stats.status();
    if (stats->total().delivered() == 1) break;
    std::this_thread::sleep_for(milliseconds(10));
  }
  const std::string token = b.session_token();
  b.Disconnect();
  b.set_resume_token(token);
  ASSERT_TRUE(b.Connect().ok());
  ASSERT_TRUE(b.resumed());
  // Its blocked report says seen_delivery_seq 1, the last delivery released
  // to it: the report counts, and b wakes at 5000. Had it said 0 (counting
  // this session alone), it would never count.
  absl::StatusOr<std::optional<Message>> woke = b.ReceiveUntil(5000, seconds(10));
  ASSERT_TRUE(woke.ok()) << woke.status();
  EXPECT_FALSE(woke->has_value());
  EXPECT_EQ(b.Now(), 5000u);
}

// The daemon's side of that rule: a Clock saying the app saw more than was
// ever written to it (an SDK that kept its count across a new numbering) is
// refused naming both; one within what was written is taken.
TEST(ProtocolRules, AClockThatSawMoreThanWasWrittenIsRefusedNamingBoth) {
  DaemonProcess daemon({"--time-mode", "lockstep"});
  RawConnection app(daemon.port());
  wire::Frame hello;
  wire::Hello* h = hello.mutable_hello();
  h->set_protocol_version(wire::kProtocolVersion);
  h->set_role(wire::ROLE_APP);
  h->set_client_id("b");
  h->set_delivery_acks(true);
  h->set_lockstep(true);
  h->set_shared_connection(true);
  app.WriteFrame(hello);
  std::optional<wire::Frame> welcome = app.ReadFrame();
  ASSERT_TRUE(welcome.has_value() && welcome->has_welcome());

  wire::Frame clock;
  clock.mutable_clock()->set_now_ns(10);
  clock.mutable_clock()->set_seen_delivery_seq(3);
  app.WriteFrame(clock);
  std::optional<wire::Frame> error = app.ReadFrame();
  ASSERT_TRUE(error.has_value() && error->has_error());
  EXPECT_EQ(error->error().code(), wire::BAD_REQUEST);
  EXPECT_EQ(error->error().ref_id(), 0u);
  EXPECT_NE(error->error().text().find(
                "seen_delivery_seq 3 is above the last delivery_seq written to this app, 0"),
            std::string::npos)
      << error->error().text();

  clock.mutable_clock()->set_seen_delivery_seq(0);
  app.WriteFrame(clock);
  wire::Frame ping;
  ping.mutable_ping()->set_nonce(9);
  app.WriteFrame(ping);
  std::optional<wire::Frame> pong = app.ReadFrame();
  ASSERT_TRUE(pong.has_value());
  EXPECT_TRUE(pong->has_pong()) << "refused: " << pong->ShortDebugString();
}

}  // namespace
}  // namespace trestle::testing
