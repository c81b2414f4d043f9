// A simulator that leaves mid-run: the transits it held go back to the
// queue and the next simulator delivers them, each exactly once.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "app_fleet.h"
#include "counters_check.h"
#include "daemon_process.h"
#include "sdk_test_options.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"
#include "trestle/sim_client.h"

namespace trestle::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

std::string Numbered(int i) { return absl::StrCat("m", i); }

const wire::ClientStats* FindClient(const wire::StatsReply& stats, const std::string& id,
                                    wire::Role role) {
  for (const auto& c : stats.clients()) {
    if (c.client_id() == id && c.role() == role) return &c;
  }
  return nullptr;
}

TEST(SimFailover, HeldTransitsGoBackToTheQueueAndTheNextSimulatorDeliversThem) {
  DaemonProcess daemon;
  EventLoop loop;
  AppClient a(loop, TestClientOptions(daemon.address(), "a"));
  AppClient b(loop, TestClientOptions(daemon.address(), "b"));
  ASSERT_TRUE(a.Connect().ok());
  ASSERT_TRUE(b.Connect().ok());

  // The first simulator answers the first 20 transits, then vanishes holding the rest.
  auto first = std::make_unique<SimClient>(loop, TestClientOptions(daemon.address(), "flaky"));
  std::vector<Transit> taken;
  first->OnTransits([&](std::span<const Transit> ts) { taken.insert(taken.end(), ts.begin(), ts.end()); });
  ASSERT_TRUE(first->Connect().ok());

  std::set<std::uint64_t> sent;
  for (int i = 0; i < 50; ++i) {
    auto id = a.Send("b", Numbered(i));
    ASSERT_TRUE(id.ok());
    sent.insert(*id);
  }
  ASSERT_TRUE(loop.RunUntil([&] { return taken.size() == 50; }, seconds(10)));
  for (int i = 0; i < 20; ++i) {
    first->Post({taken[i].id, Outcome::Status::kDelivered, taken[i].t_send + 10});
  }
  ASSERT_TRUE(first->Flush(seconds(5)).ok());

  std::vector<Message> got;
  b.OnMessage([&](Message&& m) { got.push_back(std::move(m)); });
  ASSERT_TRUE(loop.RunUntil([&] { return got.size() == 20; }, seconds(10)));
  auto stats = a.Stats(seconds(5));
  ASSERT_TRUE(stats.ok());
  const wire::ClientStats* flaky = FindClient(*stats, "flaky", wire::ROLE_SIM);
  ASSERT_NE(flaky, nullptr);
  EXPECT_EQ(flaky->held(), 30u);

  first->Disconnect();  // as a crash: no Bye
  first.reset();

  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon.address(), "--id", "next"});
  ASSERT_TRUE(loop.RunUntil([&] { return got.size() >= 50; }, seconds(20)))
      << "got " << got.size();
  loop.RunFor(milliseconds(200));
  ASSERT_EQ(got.size(), 50u);
  std::set<std::uint64_t> ids;
  for (const Message& m : got) {
    EXPECT_TRUE(ids.insert(m.id).second) << "duplicate " << m.id;
    EXPECT_EQ(sent.count(m.id), 1u);
  }
  // The requeued transits kept their order: payloads m20..m49 after m0..m19.
  for (int i = 0; i < 50; ++i) EXPECT_EQ(got[i].payload, Numbered(i));

  const wire::StatsReply settled = SettledStats(a);
  EXPECT_EQ(settled.total().accepted(), 50u);
  EXPECT_EQ(settled.total().delivered(), 50u);
  EXPECT_EQ(settled.total().in_flight(), 0u);
  ExpectBalanced(settled);
}

TEST(SimFailover, OutcomeFromASimulatorForATransitItNoLongerHoldsIsRefused) {
  DaemonProcess daemon;
  EventLoop loop;
  AppClient a(loop, TestClientOptions(daemon.address(), "a"));
  ASSERT_TRUE(a.Connect().ok());
  SimClient sim(loop, TestClientOptions(daemon.address(), "sim"));
  std::vector<Transit> taken;
  sim.OnTransits([&](std::span<const Transit> ts) { taken.insert(taken.end(), ts.begin(), ts.end()); });
  std::vector<absl::Status> errors;
  sim.OnError([&](const absl::Status& s) { errors.push_back(s); });
  ASSERT_TRUE(sim.Connect().ok());
  ASSERT_TRUE(a.Send("a", "x").ok());
  ASSERT_TRUE(loop.RunUntil([&] { return taken.size() == 1; }, seconds(5)));
  sim.Post({taken[0].id, Outcome::Status::kDelivered, 1});
  sim.Post({taken[0].id, Outcome::Status::kDelivered, 2});  // a second answer
  ASSERT_TRUE(sim.Flush(seconds(5)).ok());
  ASSERT_TRUE(loop.RunUntil([&] { return !errors.empty(); }, seconds(5)));
  EXPECT_EQ(errors[0].code(), absl::StatusCode::kNotFound);
  EXPECT_NE(errors[0].message().find(std::to_string(taken[0].id)), absl::string_view::npos)
      << errors[0];
  auto m = a.Receive(seconds(5));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->t_deliver, 1u) << "the first outcome counts";
}

}  // namespace
}  // namespace trestle::testing
