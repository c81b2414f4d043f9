// End to end through real processes: SDK apps -> trestled -> the live fabric
// adapter (trestle-sim fabric) -> trestled -> SDK apps. Every delivery's
// t_deliver must be t_send plus what the fabric library computes for the
// apps' endpoints; paced mode must never deliver before start + t_deliver ×
// dilation; unmappable ids and --loss-rate give DROPPED; the daemon's
// counters must balance; and a --time-mode that is not the daemon's stops
// the adapter.
#include <gtest/gtest.h>
#include <unistd.h>
#include <uv.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "app_fleet.h"
#include "counters_check.h"
#include "daemon_process.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"
#include "trestle/fabric/message_time_model.h"
#include "trestle/fabric/routing.h"
#include "trestle/fabric/topology_builder.h"

namespace trestle::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// The fabric parameters the adapter is started with, to price messages here.
fabric::FabricParams Links(const std::string& bw, const std::string& latency) {
  fabric::FabricParams params;
  params.link_bandwidth = *fabric::Bandwidth::Parse(bw);
  params.injection_bandwidth = params.link_bandwidth;  // as --link-bw sets both
  params.link_latency = *fabric::Duration::Parse(latency);
  return params;
}

// What the adapter posts for a message of `size` bytes between endpoints.
class ExpectedTime {
 public:
  ExpectedTime(const std::string& spec, const fabric::FabricParams& params)
      : topology_(*fabric::TopologyBuilder::FromText(spec, params)),
        routing_(fabric::MakeRouting(fabric::RoutingKind::kMinimal, *topology_, 1)),
        model_(*topology_) {}

  std::uint64_t DeliverAt(std::uint64_t t_send, fabric::NodeId src, fabric::NodeId dst,
                          std::uint64_t size) {
    return t_send +
           static_cast<std::uint64_t>(std::llround(model_.TimeNs(src, dst, size, 0, *routing_)));
  }

 private:
  fabric::TopologyPtr topology_;
  fabric::RoutingPtr routing_;
  fabric::MessageTimeModel model_;
};

// The daemon's counters once nothing is in flight, checked to balance in
// total and per client.
wire::Counters ExpectBalanced(AppClient& app) {
  const wire::StatsReply stats = SettledStats(app);
  testing::ExpectBalanced(stats);
  return stats.total();
}

// A map file in a fresh directory, removed with the object.
class MapFile {
 public:
  explicit MapFile(const std::string& yaml)
      : dir_(std::filesystem::temp_directory_path() /
             absl::StrCat("fabric_adapter_", ::getpid(), "_",
                          ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    std::filesystem::create_directories(dir_);
    std::ofstream(path()) << yaml;
  }
  ~MapFile() { std::filesystem::remove_all(dir_); }
  std::string path() const { return (dir_ / "map.yaml").string(); }

 private:
  std::filesystem::path dir_;
};

TEST(FabricAdapter, VirtualTimeDeliversAtTSendPlusTheModelledTimeOfTheMappedEndpoints) {
  // app-i sits on endpoint (3i + 1) mod 8: not the order in which they appear.
  std::string yaml;
  auto endpoint_of = [](int app) { return static_cast<fabric::NodeId>((3 * app + 1) % 8); };
  for (int i = 0; i < 8; ++i) yaml += absl::StrCat("app-", i, ": ", endpoint_of(i), "\n");
  MapFile map(yaml);
  DaemonProcess daemon({"--time-mode", "virtual"});
  ChildProcess sim(TRESTLE_SIM_PATH,
                   {"fabric", "--daemon", daemon.address(), "--topology", "ring:8", "--link-bw",
                    "400Gbps", "--link-latency", "500ns", "--map", map.path(), "--time",
                    "virtual", "--seed", "1"});
  EventLoop loop;
  auto apps = ConnectApps(loop, daemon.address(), 8);
  ASSERT_EQ(apps.size(), 8u);
  std::vector<Message> received;
  for (auto& app : apps) app->OnMessage([&](Message&& m) { received.push_back(std::move(m)); });

  const std::uint64_t sizes[] = {0, 1, 1500, 65536, 1 << 20};
  struct Sent {
    int src, dst;
    std::uint64_t size, t_send;
  };
  std::map<std::uint64_t, Sent> sent;
  for (int src = 0; src < 8; ++src) {
    for (int k = 0; k < 8; ++k) {
      const int dst = (src + k) % 8;  // every pair, itself included
      const std::uint64_t size = sizes[(src + k) % 5];
      SendOptions options;
      options.t_send = 1'000'000ull * src + 777 * k;
      auto id = apps[src]->Send(absl::StrCat("app-", dst), std::string(size, 'x'), options);
      ASSERT_TRUE(id.ok()) << id.status();
      sent[*id] = Sent{src, dst, size, *options.t_send};
    }
  }
  ASSERT_TRUE(loop.RunUntil([&] { return received.size() >= sent.size(); }, seconds(30)))
      << "received " << received.size() << " of " << sent.size();

  ExpectedTime expected("ring:8", Links("400Gbps", "500ns"));
  int hops_seen = 0;
  for (const Message& m : received) {
    auto it = sent.find(m.id);
    ASSERT_NE(it, sent.end()) << m.id;
    const Sent& s = it->second;
    EXPECT_FALSE(m.dropped);
    EXPECT_EQ(m.t_send, s.t_send);
    EXPECT_EQ(m.t_deliver, expected.DeliverAt(s.t_send, endpoint_of(s.src), endpoint_of(s.dst),
                                              s.size))
        << "app-" << s.src << " -> app-" << s.dst << ", " << s.size << " bytes";
    if (s.src != s.dst) {
      ++hops_seen;
      EXPECT_GE(m.t_deliver, m.t_send + 500) << "at least one 500ns link";
    }
  }
  EXPECT_EQ(hops_seen, 56);

  wire::Counters totals = ExpectBalanced(*apps[0]);
  EXPECT_EQ(totals.accepted(), sent.size());
  EXPECT_EQ(totals.delivered(), sent.size());
  EXPECT_EQ(totals.dropped(), 0u);
  EXPECT_EQ(sim.Stop(), 0) << "SIGTERM ends the adapter with exit code 0";
}

TEST(FabricAdapter, AModelSizeIsPricedInsteadOfThePayloadsAndThePayloadArrivesAsSent) {
  MapFile map("app-0: 0\napp-1: 1\n");
  DaemonProcess daemon({"--time-mode", "virtual"});
  ChildProcess sim(TRESTLE_SIM_PATH,
                   {"fabric", "--daemon", daemon.address(), "--topology", "switch:2", "--link-bw",
                    "400Gbps", "--link-latency", "500ns", "--map", map.path(), "--time",
                    "virtual"});
  EventLoop loop;
  auto apps = ConnectApps(loop, daemon.address(), 2);
  ASSERT_EQ(apps.size(), 2u);
  std::vector<Message> received;
  apps[1]->OnMessage([&](Message&& m) { received.push_back(std::move(m)); });

  // Modelled larger, smaller (zero) and as sent; 100 us apart, so that no
  // message's bytes wait behind the one before on their connection.
  const std::uint64_t model_sizes[] = {std::uint64_t{1} << 20, 0, 16};
  for (int i = 0; i < 3; ++i) {
    SendOptions options;
    options.t_send = 1000 + 100'000 * i;
    if (model_sizes[i] != 16) options.model_size = model_sizes[i];
    ASSERT_TRUE(apps[0]->Send("app-1", std::string(16, 'h'), options).ok());
  }
  ASSERT_TRUE(loop.RunUntil([&] { return received.size() == 3; }, seconds(30)));
  ExpectedTime expected("switch:2", Links("400Gbps", "500ns"));
  std::vector<std::uint64_t> deliver_at;
  for (const Message& m : received) {
    EXPECT_EQ(m.payload, std::string(16, 'h'));
    deliver_at.push_back(m.t_deliver);
  }
  EXPECT_EQ(deliver_at, (std::vector<std::uint64_t>{expected.DeliverAt(1000, 0, 1, 1 << 20),
                                                     expected.DeliverAt(101000, 0, 1, 0),
                                                     expected.DeliverAt(201000, 0, 1, 16)}));
  EXPECT_EQ(deliver_at[0], 1000u + 1000 + 20972) << "1 MiB at 50 bytes/ns, rounded";
  EXPECT_EQ(sim.Stop(), 0);
}

TEST(FabricAdapter, PacedTimeNeverDeliversBeforeStartPlusTDeliverTimesDilation) {
  // 1 ms links make modelled times visible on the wall clock; the adapter's
  // start is after this moment, so start + t × dilation >= spawned + t × dilation.
  // Datagrams (--ordering message): the third message goes to app-1 after
  // the first with an earlier t_send; on a connection it would wait for the
  // first (docs/fabric.md, "Connections"), here every message is priced alone.
  const std::uint64_t spawned = uv_hrtime();
  DaemonProcess daemon({"--time-mode", "paced"});
  ChildProcess sim(TRESTLE_SIM_PATH,
                   {"fabric", "--daemon", daemon.address(), "--topology", "ring:4", "--link-bw",
                    "400Gbps", "--link-latency", "1ms", "--time", "paced", "--dilation", "1",
                    "--ordering", "message"});
  EventLoop loop;
  auto apps = ConnectApps(loop, daemon.address(), 3);
  ASSERT_EQ(apps.size(), 3u);
  std::vector<Message> received;
  apps[1]->OnMessage([&](Message&& m) { received.push_back(std::move(m)); });
  apps[2]->OnMessage([&](Message&& m) { received.push_back(std::move(m)); });

  // t_send is set ahead of the elapsed wall time, so a delivery that is not
  // paced would arrive hundreds of ms early. app-i is endpoint i.
  const std::uint64_t ms = 1'000'000;
  const std::uint64_t elapsed = uv_hrtime() - spawned;
  struct Sent {
    int dst;
    std::uint64_t t_send;
  };
  const Sent plan[] = {{1, elapsed + 300 * ms}, {2, elapsed + 100 * ms}, {1, elapsed + 200 * ms}};
  std::map<std::uint64_t, Sent> sent;
  for (const Sent& s : plan) {
    SendOptions options;
    options.t_send = s.t_send;
    auto id = apps[0]->Send(absl::StrCat("app-", s.dst), "paced", options);
    ASSERT_TRUE(id.ok()) << id.status();
    sent[*id] = s;
  }
  ASSERT_TRUE(loop.RunUntil([&] { return received.size() >= 3; }, seconds(10)));

  ExpectedTime expected("ring:4", Links("400Gbps", "1ms"));
  std::uint64_t previous = 0;
  for (const Message& m : received) {
    const Sent& s = sent.at(m.id);
    const std::uint64_t t_deliver =
        expected.DeliverAt(s.t_send, 0, static_cast<fabric::NodeId>(s.dst), 5);
    EXPECT_EQ(m.t_deliver, t_deliver);
    EXPECT_GE(m.t_deliver - m.t_send, 1 * ms) << "at least one 1 ms link";
    const std::uint64_t due = spawned + t_deliver;  // dilation 1
    EXPECT_GE(m.stamps.sim_posted, due) << "posted early by " << (due - m.stamps.sim_posted) << " ns";
    EXPECT_GE(m.stamps.app_received, due) << "arrived early";
    EXPECT_LT(m.stamps.app_received, due + 2000 * ms) << "scheduling slack beyond reason";
    EXPECT_GE(m.t_deliver, previous) << "released in t_deliver order";
    previous = m.t_deliver;
  }
  wire::Counters totals = ExpectBalanced(*apps[0]);
  EXPECT_EQ(totals.delivered(), 3u);
  EXPECT_EQ(sim.Stop(), 0);
}

TEST(FabricAdapter, AnIdBeyondTheTopologysEndpointsIsDroppedAndTheRestStillFlow) {
  DaemonProcess daemon;
  ChildProcess sim(TRESTLE_SIM_PATH,
                   {"fabric", "--daemon", daemon.address(), "--topology", "switch:2"});
  EventLoop loop;
  auto apps = ConnectApps(loop, daemon.address(), 3);
  ASSERT_EQ(apps.size(), 3u);
  SendOptions notify;
  notify.notify_drop = true;

  // app-0 and app-1 take the two endpoints; app-2 is one too many.
  ASSERT_TRUE(apps[0]->Send("app-1", "first").ok());
  auto first = apps[1]->Receive(seconds(10));
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_FALSE(first->dropped);

  auto from_extra = apps[2]->Send("app-0", "from the third app", notify);
  auto to_extra = apps[0]->Send("app-2", "to the third app", notify);
  ASSERT_TRUE(from_extra.ok() && to_extra.ok());
  auto report2 = apps[2]->Receive(seconds(10));
  ASSERT_TRUE(report2.ok()) << report2.status();
  EXPECT_TRUE(report2->dropped);
  EXPECT_EQ(report2->id, *from_extra);
  auto report0 = apps[0]->Receive(seconds(10));
  ASSERT_TRUE(report0.ok()) << report0.status();
  EXPECT_TRUE(report0->dropped);
  EXPECT_EQ(report0->id, *to_extra);

  ASSERT_TRUE(apps[1]->Send("app-0", "still flowing").ok());
  auto after = apps[0]->Receive(seconds(10));
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_FALSE(after->dropped);
  EXPECT_EQ(after->payload, "still flowing");

  wire::Counters totals = ExpectBalanced(*apps[0]);
  EXPECT_EQ(totals.accepted(), 4u);
  EXPECT_EQ(totals.delivered(), 2u);
  EXPECT_EQ(totals.dropped(), 2u);
  EXPECT_EQ(sim.Stop(), 0);
}

TEST(FabricAdapter, AMapEntryOutOfRangeStopsTheAdapterAtStartWithExitCodeOne) {
  MapFile map("app-0: 0\napp-1: 8\n");
  DaemonProcess daemon;
  ChildProcess sim(TRESTLE_SIM_PATH, {"fabric", "--daemon", daemon.address(), "--topology",
                                      "ring:8", "--map", map.path()});
  EXPECT_EQ(sim.Wait(10000), 1);
}

TEST(FabricAdapter, LossRateOneDropsEverythingAndTellsASenderThatAsked) {
  DaemonProcess daemon;
  ChildProcess sim(TRESTLE_SIM_PATH, {"fabric", "--daemon", daemon.address(), "--topology",
                                      "ring:8", "--loss-rate", "1", "--seed", "7"});
  EventLoop loop;
  auto apps = ConnectApps(loop, daemon.address(), 2);
  ASSERT_EQ(apps.size(), 2u);
  std::vector<Message> at_sender, at_receiver;
  apps[0]->OnMessage([&](Message&& m) { at_sender.push_back(std::move(m)); });
  apps[1]->OnMessage([&](Message&& m) { at_receiver.push_back(std::move(m)); });
  SendOptions notify;
  notify.notify_drop = true;
  std::set<std::uint64_t> ids;
  for (int i = 0; i < 20; ++i) {
    auto id = apps[0]->Send("app-1", absl::StrCat("lost ", i), notify);
    ASSERT_TRUE(id.ok());
    ids.insert(*id);
  }
  ASSERT_TRUE(apps[1]->Send("app-0", "lost silently").ok());  // no notify_drop
  ASSERT_TRUE(loop.RunUntil([&] { return at_sender.size() >= 20; }, seconds(10)));
  loop.RunFor(milliseconds(200));  // anything more would be wrong

  ASSERT_EQ(at_sender.size(), 20u);
  for (const Message& m : at_sender) {
    EXPECT_TRUE(m.dropped);
    EXPECT_TRUE(m.payload.empty());
    EXPECT_EQ(ids.erase(m.id), 1u) << "unexpected or repeated report " << m.id;
  }
  EXPECT_TRUE(at_receiver.empty());
  wire::Counters totals = ExpectBalanced(*apps[0]);
  EXPECT_EQ(totals.accepted(), 21u);
  EXPECT_EQ(totals.dropped(), 21u);
  EXPECT_EQ(totals.delivered(), 0u);
  EXPECT_EQ(totals.in_flight(), 0u);
  EXPECT_EQ(sim.Stop(), 0);
}

TEST(FabricAdapter, ATimeModeThatIsNotTheDaemonsStopsTheAdapterWithExitCodeOne) {
  DaemonProcess daemon({"--time-mode", "virtual"});
  ChildProcess sim(TRESTLE_SIM_PATH, {"fabric", "--daemon", daemon.address(), "--topology",
                                      "ring:8", "--time-mode", "paced"});
  EXPECT_EQ(sim.Wait(10000), 1);
  // Without the flag it follows the daemon, and runs until stopped.
  ChildProcess follower(TRESTLE_SIM_PATH,
                        {"fabric", "--daemon", daemon.address(), "--topology", "ring:8"});
  EXPECT_EQ(follower.Wait(1000), -2) << "still running";
  EXPECT_EQ(follower.Stop(), 0);
}

}  // namespace
}  // namespace trestle::testing
