// End to end through real processes: SDK apps -> trestled -> the live ns-3
// adapter (trestle-sim ns3) -> trestled -> SDK apps, on a ring, a switch and
// a wifi-adhoc network: every message arrives exactly once, with t_deliver
// after t_send; UDP losses reach the sender as DROPPED and the counters
// balance; paced time never delivers before start + t_deliver x dilation;
// lockstep time delivers in order, ends quiescent and repeats. And `trestle-sim sweep --backend ns3` writes the fabric backend's CSV
// columns; `trestle-sim validate` compares the models with ns-3.
#include <gtest/gtest.h>
#include <unistd.h>
#include <uv.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "app_fleet.h"
#include "counters_check.h"
#include "daemon_process.h"
#include "trestle/app_client.h"
#include "trestle/event_loop.h"

namespace trestle::testing {
namespace {

using std::chrono::seconds;

constexpr int kApps = 4;
constexpr int kPerPair = 3;

wire::Counters BalancedTotals(AppClient& app) {
  auto stats = app.Stats(seconds(5));
  EXPECT_TRUE(stats.ok()) << stats.status();
  if (!stats.ok()) return {};
  ExpectBalanced(*stats);
  return stats->total();
}

struct Network {
  const char* name;
  std::vector<std::string> flags;
};

// Test names and failure messages show the network by name.
void PrintTo(const Network& network, std::ostream* os) { *os << network.name; }

class Ns3AdapterExchange : public ::testing::TestWithParam<Network> {};

TEST_P(Ns3AdapterExchange, EveryMessageArrivesExactlyOnceAfterItsTSend) {
  DaemonProcess daemon({"--time-mode", "virtual"});
  std::vector<std::string> args = {"ns3", "--daemon", daemon.address()};
  for (const std::string& flag : GetParam().flags) args.push_back(flag);
  ChildProcess sim(TRESTLE_SIM_PATH, args);
  EventLoop loop;
  auto apps = ConnectApps(loop, daemon.address(), kApps);
  ASSERT_EQ(apps.size(), static_cast<std::size_t>(kApps));
  std::vector<Message> received;
  for (auto& app : apps) app->OnMessage([&](Message&& m) { received.push_back(std::move(m)); });

  std::map<std::uint64_t, std::string> sent;  // id -> payload
  for (int src = 0; src < kApps; ++src) {
    for (int dst = 0; dst < kApps; ++dst) {
      if (src == dst) continue;
      for (int k = 0; k < kPerPair; ++k) {
        SendOptions options;
        options.t_send = 10'000ull * k + 1'000ull * src;
        const std::string payload = absl::StrCat("m-", src, "-", dst, "-", k, std::string(500 * k, 'x'));
        auto id = apps[src]->Send(absl::StrCat("app-", dst), payload, options);
        ASSERT_TRUE(id.ok()) << id.status();
        sent[*id] = payload;
      }
    }
  }
  ASSERT_TRUE(loop.RunUntil([&] { return received.size() >= sent.size(); }, seconds(60)))
      << "received " << received.size() << " of " << sent.size();
  loop.RunFor(std::chrono::milliseconds(200));  // a duplicate would show up now

  EXPECT_EQ(received.size(), sent.size());
  std::set<std::uint64_t> seen;
  for (const Message& m : received) {
    EXPECT_TRUE(seen.insert(m.id).second) << "message " << m.id << " twice";
    ASSERT_EQ(sent.count(m.id), 1u) << "unknown message " << m.id;
    EXPECT_FALSE(m.dropped);
    EXPECT_EQ(m.payload, sent.at(m.id));
    EXPECT_GT(m.t_deliver, m.t_send) << m.src << " -> " << m.dst;
  }
  wire::Counters totals = BalancedTotals(*apps[0]);
  EXPECT_EQ(totals.delivered(), sent.size());
  EXPECT_EQ(sim.Stop(), 0) << "SIGTERM ends the adapter with exit code 0";
}

INSTANTIATE_TEST_SUITE_P(
    Networks, Ns3AdapterExchange,
    ::testing::Values(
        Network{"Ring", {"--topology", "ring:4,link_bw=400Gbps,link_latency=500ns"}},
        Network{"Switch", {"--topology", "switch:4", "--transport", "udp"}},
        Network{"WifiAdhoc", {"--scenario", "wifi-adhoc:4", "--wifi-routing", "aodv"}}),
    [](const ::testing::TestParamInfo<Network>& info) { return std::string(info.param.name); });

// Lockstep: four apps on one loop (AwaitNext) send to each other through
// ns-3 on a ring; every message arrives once, each app in t_deliver order,
// no transit reaches ns-3 behind a grant, every app ends quiescent, and a
// second run gives the same t_deliver to every message.
std::map<std::string, std::uint64_t> LockstepExchange() {
  DaemonProcess daemon({"--time-mode", "lockstep", "--lockstep-apps", std::to_string(kApps)});
  ChildProcess sim(TRESTLE_SIM_PATH, {"ns3", "--daemon", daemon.address(), "--topology",
                                      "ring:4,link_bw=10Gbps,link_latency=2us"});
  EventLoop loop;
  std::vector<std::unique_ptr<AppClient>> apps;
  int connected = 0;
  for (int i = 0; i < kApps; ++i) {
    ClientOptions o;
    o.daemon = daemon.address();
    o.client_id = absl::StrCat("app-", i);
    o.lockstep = true;
    apps.push_back(std::make_unique<AppClient>(loop, o));
    EXPECT_TRUE(apps.back()->ConnectAsync([&](absl::Status s) { connected += s.ok(); }).ok());
  }
  EXPECT_TRUE(loop.RunUntil([&] { return connected == kApps; }, seconds(10)));
  std::map<std::string, std::uint64_t> t_deliver;  // payload -> t_deliver
  int quiescent = 0;
  for (int i = 0; i < kApps; ++i) {
    AppClient& app = *apps[i];
    auto last = std::make_shared<std::uint64_t>(0);
    app.OnMessage([&, last](Message&& m) {
      EXPECT_GE(m.t_deliver, *last) << "out of t_deliver order";
      EXPECT_GT(m.t_deliver, m.t_send);
      *last = m.t_deliver;
      EXPECT_TRUE(t_deliver.emplace(m.payload.substr(0, m.payload.find('x')), m.t_deliver).second);
      EXPECT_TRUE(app.AwaitNext().ok());
    });
    app.OnQuiescent([&] { quiescent++; });
  }
  int sent = 0;
  for (int src = 0; src < kApps; ++src) {
    for (int k = 0; k < kPerPair; ++k) {
      apps[src]->Advance(1'000);
      for (int dst = 0; dst < kApps; ++dst) {
        if (dst == src) continue;
        EXPECT_TRUE(apps[src]->Send(absl::StrCat("app-", dst),
                                    absl::StrCat("m-", src, "-", dst, "-", k, "x",
                                                 std::string(2000 * k, 'x'))).ok());
        sent++;
      }
    }
    EXPECT_TRUE(apps[src]->AwaitNext().ok());
  }
  EXPECT_TRUE(loop.RunUntil([&] { return quiescent == kApps; }, seconds(60)))
      << t_deliver.size() << " of " << sent << " arrived, " << quiescent << " quiescent";
  EXPECT_EQ(t_deliver.size(), static_cast<std::size_t>(sent));
  auto stats = apps[0]->Stats(seconds(5));
  EXPECT_TRUE(stats.ok()) << stats.status();
  if (stats.ok()) {
    EXPECT_EQ(stats->lockstep().transits_behind_grant(), 0u);
    EXPECT_GT(stats->lockstep().grants(), 0u);
  }
  EXPECT_EQ(sim.Stop(), 0);
  return t_deliver;
}

TEST(Ns3Adapter, LockstepDeliversInOrderEndsQuiescentAndRepeats) {
  const std::map<std::string, std::uint64_t> first = LockstepExchange();
  ASSERT_EQ(first.size(), static_cast<std::size_t>(kApps * (kApps - 1) * kPerPair));
  EXPECT_EQ(LockstepExchange(), first) << "a second run gave other times";
}

TEST(Ns3Adapter, UdpLossesInASmallQueueReachTheSenderAsDroppedAndTheCountersBalance) {
  DaemonProcess daemon({"--time-mode", "virtual"});
  ChildProcess sim(TRESTLE_SIM_PATH,
                   {"ns3", "--daemon", daemon.address(), "--topology", "switch:3,link_bw=10Gbps",
                    "--transport", "udp", "--queue", "fifo", "--queue-size", "4p"});
  EventLoop loop;
  auto apps = ConnectApps(loop, daemon.address(), 3);
  ASSERT_EQ(apps.size(), 3u);
  int delivered = 0;
  int drop_reports = 0;
  apps[2]->OnMessage([&](Message&&) { ++delivered; });
  for (int i : {0, 1}) {
    apps[i]->OnMessage([&](Message&& m) { drop_reports += m.dropped ? 1 : 0; });
  }
  // Whichever endpoints the apps take (first appearance), two of the
  // switch's three send into the third.
  SendOptions options;
  options.notify_drop = true;
  options.t_send = 1'000'000;
  const int kMessages = 40;
  for (int i = 0; i < kMessages; ++i) {
    ASSERT_TRUE(apps[i % 2]->Send("app-2", std::string(8000, 'u'), options).ok());
  }
  ASSERT_TRUE(
      loop.RunUntil([&] { return delivered + drop_reports >= kMessages; }, seconds(30)))
      << delivered << " delivered, " << drop_reports << " drop reports";
  EXPECT_GT(drop_reports, 0);
  EXPECT_GT(delivered, 0);
  wire::Counters totals = BalancedTotals(*apps[0]);
  EXPECT_EQ(totals.dropped(), static_cast<std::uint64_t>(drop_reports));
  EXPECT_EQ(sim.Stop(), 0);
}

TEST(Ns3Adapter, PacedTimeNeverDeliversBeforeStartPlusTDeliverTimesDilation) {
  // 1 ms links make simulated times visible on the wall clock; the adapter's
  // start is after this moment, so start + t x dilation >= spawned + t x dilation.
  const std::uint64_t spawned = uv_hrtime();
  const std::uint64_t dilation = 2;
  DaemonProcess daemon({"--time-mode", "paced"});
  ChildProcess sim(TRESTLE_SIM_PATH,
                   {"ns3", "--daemon", daemon.address(), "--topology",
                    "ring:4,link_bw=400Gbps,link_latency=1ms", "--time-mode", "paced",
                    "--dilation", std::to_string(dilation)});
  EventLoop loop;
  auto apps = ConnectApps(loop, daemon.address(), 3);
  ASSERT_EQ(apps.size(), 3u);
  std::vector<Message> received;
  apps[1]->OnMessage([&](Message&& m) { received.push_back(std::move(m)); });
  apps[2]->OnMessage([&](Message&& m) { received.push_back(std::move(m)); });

  // t_send ahead of the elapsed wall time: a delivery ns-3 did not pace would
  // arrive hundreds of ms early.
  const std::uint64_t ms = 1'000'000;
  const std::uint64_t elapsed = (uv_hrtime() - spawned) / dilation;
  std::map<std::uint64_t, std::uint64_t> sent;  // id -> t_send
  for (const auto& [dst, ahead] : std::vector<std::pair<int, std::uint64_t>>{
           {1, 300 * ms}, {2, 100 * ms}, {1, 200 * ms}}) {
    SendOptions options;
    options.t_send = elapsed + ahead;
    auto id = apps[0]->Send(absl::StrCat("app-", dst), std::string(3000, 'p'), options);
    ASSERT_TRUE(id.ok()) << id.status();
    sent[*id] = options.t_send.value();
  }
  ASSERT_TRUE(loop.RunUntil([&] { return received.size() >= sent.size(); }, seconds(20)));

  for (const Message& m : received) {
    ASSERT_EQ(sent.count(m.id), 1u) << "unknown message " << m.id;
    EXPECT_EQ(m.t_send, sent.at(m.id));
    EXPECT_GE(m.t_deliver - m.t_send, 1 * ms) << "at least one 1 ms link";
    const std::uint64_t due = spawned + m.t_deliver * dilation;
    EXPECT_GE(m.stamps.sim_posted, due) << "posted early by " << (due - m.stamps.sim_posted) << " ns";
    EXPECT_GE(m.stamps.app_received, due) << "arrived early";
    EXPECT_LT(m.stamps.app_received, due + 2000 * ms) << "scheduling slack beyond reason";
  }
  EXPECT_EQ(received.size(), sent.size());
  // The daemon counts a delivery once the app has acknowledged it: wait
  // (bounded) for the last acknowledgement.
  for (int i = 0; i < 100; ++i) {
    auto stats = apps[0]->Stats(seconds(5));
    if (stats.ok() && stats->total().delivered() >= sent.size()) break;
    loop.RunFor(std::chrono::milliseconds(50));
  }
  wire::Counters totals = BalancedTotals(*apps[0]);
  EXPECT_EQ(totals.delivered(), sent.size());
  EXPECT_EQ(sim.Stop(), 0);
}

// A temporary directory for one test.
class TempDir {
 public:
  TempDir()
      : path_(std::filesystem::temp_directory_path() /
              absl::StrCat("ns3_adapter_", ::getpid(), "_",
                           ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string File(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

std::vector<std::string> Lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(Ns3Adapter, TheSweepBackendWritesTheFabricBackendsCsvColumns) {
  TempDir dir;
  auto sweep = [&](const std::string& backend) {
    const std::string csv = dir.File(backend + ".csv");
    ChildProcess run(TRESTLE_SIM_PATH,
                     {"sweep", "--backend", backend, "--topology", "switch:4", "--topology",
                      "ring:4", "--collective", "allreduce", "--algorithm", "ring", "--sizes",
                      "16KiB,64KiB", "--link-bw", "400Gbps", "--link-latency", "500ns", "--csv",
                      csv});
    EXPECT_EQ(run.Wait(60000), 0) << backend;
    return Lines(csv);
  };
  const std::vector<std::string> fabric = sweep("fabric");
  const std::vector<std::string> ns3 = sweep("ns3");
  ASSERT_EQ(fabric.size(), 5u);
  ASSERT_EQ(ns3.size(), fabric.size());
  EXPECT_EQ(ns3[0], fabric[0]);
  EXPECT_EQ(ns3[0], "backend,topology,algorithm,collective,size_bytes,time_ns");
  for (std::size_t i = 1; i < ns3.size(); ++i) {
    EXPECT_EQ(ns3[i].substr(0, 4), "ns3,") << ns3[i];
    // The same row keys (topology, algorithm, collective, size) in the same order.
    const std::string keys_fabric = fabric[i].substr(7, fabric[i].rfind(',') - 7);
    const std::string keys_ns3 = ns3[i].substr(4, ns3[i].rfind(',') - 4);
    EXPECT_EQ(keys_ns3, keys_fabric);
  }
}

// `trestle-sim validate`: one row per workload and backend with the CSV's
// columns; ns-3's own row has no error, the models' rows their error
// against it (the flow model close on an incast, the unaware model far
// below); every message in the --messages file.
TEST(Ns3Adapter, ValidateComparesTheModelsWithNs3OnTheSameWorkload) {
  TempDir dir;
  const std::string csv = dir.File("validate.csv");
  const std::string messages = dir.File("messages.csv");
  ChildProcess run(TRESTLE_SIM_PATH,
                   {"validate", "--topology", "switch:5", "--workload", "incast:4:256KiB",
                    "--backend", "unaware", "--backend", "flow", "--backend", "ns3-dctcp", "--csv",
                    csv, "--messages", messages});
  ASSERT_EQ(run.Wait(60000), 0);
  const std::vector<std::string> rows = Lines(csv);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0],
            "topology,workload,backend,samples,lost,p50_ns,p99_ns,p50_error,p99_error,wall_seconds");
  auto field = [](const std::string& row, int n) {
    std::size_t at = 0;
    for (int i = 0; i < n; ++i) at = row.find(',', at) + 1;
    return row.substr(at, row.find(',', at) - at);
  };
  EXPECT_EQ(field(rows[1], 2), "unaware");
  EXPECT_EQ(field(rows[2], 2), "flow");
  EXPECT_EQ(field(rows[3], 2), "ns3-dctcp");
  EXPECT_EQ(field(rows[3], 3), "4");
  EXPECT_EQ(field(rows[3], 7), "nan");
  EXPECT_LT(std::stod(field(rows[1], 7)), -0.5) << "four senders on one link: the unaware model";
  EXPECT_LT(std::abs(std::stod(field(rows[2], 7))), 0.1) << "the flow model shares it";
  EXPECT_EQ(Lines(messages).size(), 1u + 3 * 4);
}

}  // namespace
}  // namespace trestle::testing
