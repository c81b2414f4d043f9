// End to end through real processes: SDK apps -> trestled -> the ghost
// simulator (trestle-sim ghost) -> trestled -> SDK apps, in PUSH and PULL,
// with 1 and 100 apps on one event loop. Every message must arrive exactly
// once, at the right app, bytes intact, and the counters must balance.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "app_fleet.h"
#include "counters_check.h"
#include "daemon_process.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"

namespace trestle::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

struct RelayCase {
  int apps;
  int messages_per_app;
  DeliveryMode mode;
  bool shared_connection = false;  // one socket per app instead of three
};

std::string CaseName(const ::testing::TestParamInfo<RelayCase>& info) {
  return std::to_string(info.param.apps) + "Apps" +
         (info.param.mode == DeliveryMode::kPush ? "Push" : "Pull") +
         (info.param.shared_connection ? "Shared" : "");
}

// Payload: a header naming sender and sequence, then bytes derived from both,
// NULs included, so that any corruption or mix-up shows.
std::string MakePayload(int src, int seq) {
  std::string p = absl::StrCat(src, ":", seq, ":");
  const int extra = (src * 31 + seq * 17) % 200;
  for (int i = 0; i < extra; ++i) p.push_back(static_cast<char>((src + seq + i) % 256));
  return p;
}

class RelayEndToEnd : public ::testing::TestWithParam<RelayCase> {};

TEST_P(RelayEndToEnd, EveryMessageArrivesExactlyOnceAtTheRightAppIntact) {
  const RelayCase c = GetParam();
  DaemonProcess daemon;
  std::vector<std::string> ghost_args = {"ghost", "--daemon", daemon.address()};
  if (c.mode == DeliveryMode::kPull) ghost_args.push_back("--pull");
  ChildProcess ghost(TRESTLE_SIM_PATH, ghost_args);

  EventLoop loop;
  auto apps = ConnectApps(loop, daemon.address(), c.apps, c.mode, c.shared_connection);
  ASSERT_EQ(static_cast<int>(apps.size()), c.apps);

  struct Received {
    int at;
    Message message;
  };
  std::vector<Received> received;
  for (int i = 0; i < c.apps; ++i) {
    apps[i]->OnMessage([&received, i](Message&& m) { received.push_back({i, std::move(m)}); });
  }

  // Each app sends to random peers (itself included): expected[id] = (src, dst, seq).
  struct Sent {
    int src, dst, seq;
  };
  std::map<std::uint64_t, Sent> expected;
  std::mt19937 rng(12345);
  for (int seq = 0; seq < c.messages_per_app; ++seq) {
    for (int src = 0; src < c.apps; ++src) {
      const int dst = static_cast<int>(rng() % c.apps);
      auto id = apps[src]->Send(absl::StrCat("app-", dst), MakePayload(src, seq));
      ASSERT_TRUE(id.ok()) << id.status();
      ASSERT_TRUE(expected.emplace(*id, Sent{src, dst, seq}).second) << "id reused: " << *id;
    }
  }
  const std::size_t total = expected.size();
  ASSERT_TRUE(loop.RunUntil([&] { return received.size() >= total; }, seconds(60)))
      << "received " << received.size() << " of " << total;
  loop.RunFor(milliseconds(200));  // anything extra would be a duplicate

  ASSERT_EQ(received.size(), total);
  std::set<std::uint64_t> seen;
  for (const Received& r : received) {
    auto it = expected.find(r.message.id);
    ASSERT_NE(it, expected.end()) << "unknown id " << r.message.id;
    EXPECT_TRUE(seen.insert(r.message.id).second) << "duplicate " << r.message.id;
    const Sent& s = it->second;
    EXPECT_EQ(r.at, s.dst) << "delivered to the wrong app";
    EXPECT_EQ(r.message.src, absl::StrCat("app-", s.src));
    EXPECT_EQ(r.message.dst, absl::StrCat("app-", s.dst));
    EXPECT_EQ(r.message.payload, MakePayload(s.src, s.seq));
    EXPECT_FALSE(r.message.dropped);
    EXPECT_EQ(r.message.t_deliver, r.message.t_send) << "the ghost adds no time";
    EXPECT_GE(r.message.stamps.app_received, r.message.stamps.daemon_delivered);
    EXPECT_GE(r.message.stamps.daemon_delivered, r.message.stamps.sim_posted);
    EXPECT_GE(r.message.stamps.sim_posted, r.message.stamps.sim_handed);
    EXPECT_GE(r.message.stamps.sim_handed, r.message.stamps.daemon_accepted);
    EXPECT_GE(r.message.stamps.daemon_accepted, r.message.stamps.app_sent);
  }
  EXPECT_EQ(seen.size(), total);

  const wire::StatsReply stats = SettledStats(*apps[0]);
  const wire::Counters& t = stats.total();
  EXPECT_EQ(t.accepted(), total);
  EXPECT_EQ(t.delivered(), total);
  EXPECT_EQ(t.in_flight(), 0u);
  ExpectBalanced(stats);
  for (const wire::ClientStats& cs : stats.clients()) {
    const wire::Counters& k = cs.counters();
    if (cs.role() == wire::ROLE_APP) {
      EXPECT_EQ(k.accepted(), static_cast<std::uint64_t>(c.messages_per_app)) << cs.client_id();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, RelayEndToEnd,
                         ::testing::Values(RelayCase{1, 100, DeliveryMode::kPush},
                                           RelayCase{1, 100, DeliveryMode::kPull},
                                           RelayCase{100, 100, DeliveryMode::kPush},
                                           RelayCase{100, 100, DeliveryMode::kPull},
                                           RelayCase{100, 100, DeliveryMode::kPush, true}),
                         CaseName);

TEST(SharedConnectionScale, ASharedConnectionTakesTheDaemonsFrameLimit) {
  // Above the 16 MiB a client accepts on ctrl before Welcome names the limit.
  DaemonProcess daemon({"--max-frame-bytes", "40MiB"});
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon.address()});
  EventLoop loop;
  auto apps = ConnectApps(loop, daemon.address(), 2, DeliveryMode::kPush, true);
  ASSERT_EQ(apps.size(), 2u);
  const std::string big(20u << 20, 'z');
  ASSERT_TRUE(apps[0]->Send("app-1", big).ok());
  auto m = apps[1]->Receive(seconds(20));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->payload.size(), big.size());
}

// Open descriptors of process `pid` (sockets, listeners, files).
int OpenDescriptors(pid_t pid) {
  int n = 0;
  for ([[maybe_unused]] const auto& entry :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd")) {
    ++n;
  }
  return n;
}

TEST(SharedConnectionScale, EachAppHoldsOneDaemonSocketInsteadOfThree) {
  DaemonProcess daemon;
  EventLoop loop;
  const int before = OpenDescriptors(daemon.pid());
  auto shared = ConnectApps(loop, daemon.address(), 40, DeliveryMode::kPush, true);
  ASSERT_EQ(shared.size(), 40u);
  EXPECT_EQ(OpenDescriptors(daemon.pid()) - before, 40);
  auto separate = ConnectApps(loop, daemon.address(), 10, DeliveryMode::kPush, false, "three-");
  ASSERT_EQ(separate.size(), 10u);
  EXPECT_EQ(OpenDescriptors(daemon.pid()) - before, 40 + 30);
  // Both kinds reach each other.
  ASSERT_TRUE(shared[0]->Send("three-1", "hi").ok());
  ASSERT_TRUE(separate[1]->Send("app-1", "ho").ok());
  ChildProcess ghost(TRESTLE_SIM_PATH, {"ghost", "--daemon", daemon.address()});
  auto m = separate[1]->Receive(seconds(10));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->payload, "hi");
  m = shared[1]->Receive(seconds(10));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->payload, "ho");
}

class PayloadEdges : public ::testing::TestWithParam<DeliveryMode> {};

TEST_P(PayloadEdges, ZeroLengthAndOneMebibyteOfNulsArriveIntact) {
  DaemonProcess daemon;
  std::vector<std::string> ghost_args = {"ghost", "--daemon", daemon.address()};
  if (GetParam() == DeliveryMode::kPull) ghost_args.push_back("--pull");
  ChildProcess ghost(TRESTLE_SIM_PATH, ghost_args);
  EventLoop loop;
  auto apps = ConnectApps(loop, daemon.address(), 2, GetParam());
  ASSERT_EQ(apps.size(), 2u);

  const std::string nuls(1 << 20, '\0');
  auto empty_id = apps[0]->Send("app-1", "");
  auto big_id = apps[0]->Send("app-1", nuls);
  auto big_id2 = apps[1]->Send("app-0", nuls);
  ASSERT_TRUE(empty_id.ok() && big_id.ok() && big_id2.ok());

  auto m1 = apps[1]->Receive(seconds(10));
  ASSERT_TRUE(m1.ok()) << m1.status();
  auto m2 = apps[1]->Receive(seconds(10));
  ASSERT_TRUE(m2.ok()) << m2.status();
  auto m3 = apps[0]->Receive(seconds(10));
  ASSERT_TRUE(m3.ok()) << m3.status();
  // Both messages from app-0 come from one sender through one simulator: in order.
  EXPECT_EQ(m1->id, *empty_id);
  EXPECT_TRUE(m1->payload.empty());
  EXPECT_EQ(m2->id, *big_id);
  EXPECT_EQ(m2->payload.size(), nuls.size());
  EXPECT_TRUE(m2->payload == nuls);
  EXPECT_EQ(m3->id, *big_id2);
  EXPECT_TRUE(m3->payload == nuls);

  const wire::StatsReply stats = SettledStats(*apps[0]);
  EXPECT_EQ(stats.total().accepted(), 3u);
  EXPECT_EQ(stats.total().delivered(), 3u);
  EXPECT_EQ(stats.total().in_flight(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Modes, PayloadEdges,
                         ::testing::Values(DeliveryMode::kPush, DeliveryMode::kPull),
                         [](const auto& info) {
                           return std::string(info.param == DeliveryMode::kPush ? "Push" : "Pull");
                         });

}  // namespace
}  // namespace trestle::testing
