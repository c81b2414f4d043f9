// Connections end to end, in lockstep time: app "a" sends app "b" 100,000 B
// at t = 0 and then 1,000 B at t = 500, through a real trestled and a real
// adapter. By default (--ordering connection) b gets them in that order, the
// second no earlier than the first: its bytes leave once the first's have.
// With --ordering message the fabric models let the small one overtake. The
// ns-3 adapter keeps the order (one TCP stream per pair).
//
// switch:2, 400 Gbps (50 B/ns), 500 ns links, 100 ns switch: fixed 1,100 ns.
//   connection  100,000 B: 2,000 ns of transfer, at 3,100; 1,000 B behind
//               it, 20 ns from 2,000: at 3,120 (both models).
//   message     unaware: 1,000 B alone, 500 + 20 + 1,100 = 1,620; flow: the
//               two share 50 B/ns from 500, the small one is through at 540,
//               at 1,640, and the large one at 2,020 + 1,100 = 3,120.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "daemon_process.h"
#include "sdk_test_options.h"
#include "trestle/app_client.h"
#include "trestle/status.h"

namespace trestle::testing {
namespace {

using std::chrono::seconds;

ClientOptions Lockstep(const std::string& daemon, const std::string& id) {
  ClientOptions options = TestClientOptions(daemon, id);
  options.lockstep = true;
  return options;
}

struct Received {
  std::size_t size;
  std::uint64_t t_deliver;
};

// What b receives, in order, with the adapter started as `sim_args`.
std::vector<Received> RunPair(std::vector<std::string> sim_args) {
  DaemonProcess daemon({"--time-mode", "lockstep", "--lockstep-apps", "2"});
  sim_args.insert(sim_args.begin() + 1, {"--daemon", daemon.address()});
  ChildProcess sim(TRESTLE_SIM_PATH, sim_args);
  AppClient a(Lockstep(daemon.address(), "a"));
  AppClient b(Lockstep(daemon.address(), "b"));
  EXPECT_TRUE(a.Connect().ok());
  EXPECT_TRUE(b.Connect().ok());
  EXPECT_TRUE(a.Send("b", std::string(100000, 'L')).ok());
  SendOptions later;
  later.t_send = 500;
  EXPECT_TRUE(a.Send("b", std::string(1000, 's'), later).ok());
  std::thread ta([&] { EXPECT_TRUE(IsQuiescent(a.Receive(seconds(20)).status())); });
  std::vector<Received> received;
  for (int i = 0; i < 2; ++i) {
    absl::StatusOr<Message> m = b.Receive(seconds(20));
    EXPECT_TRUE(m.ok()) << m.status();
    if (!m.ok()) break;
    received.push_back(Received{m->payload.size(), m->t_deliver});
  }
  EXPECT_TRUE(IsQuiescent(b.Receive(seconds(20)).status()));
  ta.join();
  sim.Stop();
  EXPECT_EQ(daemon.Stop(), 0);
  return received;
}

std::vector<std::string> Fabric(const std::string& model, const std::string& ordering) {
  return {"fabric", "--topology", "switch:2,link_bw=400Gbps,link_latency=500ns,switch_latency=100ns",
          "--model", model, "--ordering", ordering};
}

TEST(ConnectionOrder, TheFabricModelsDeliverAConnectionsMessagesInTheOrderSent) {
  for (const std::string model : {"unaware", "flow"}) {
    SCOPED_TRACE(model);
    const std::vector<Received> got = RunPair(Fabric(model, "connection"));
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0].size, 100000u);
    EXPECT_EQ(got[0].t_deliver, 3100u);
    EXPECT_EQ(got[1].size, 1000u);
    EXPECT_EQ(got[1].t_deliver, 3120u);
  }
}

TEST(ConnectionOrder, OrderedByMessageTheSmallOneOvertakes) {
  const std::vector<Received> unaware = RunPair(Fabric("unaware", "message"));
  ASSERT_EQ(unaware.size(), 2u);
  EXPECT_EQ(unaware[0].size, 1000u);
  EXPECT_EQ(unaware[0].t_deliver, 1620u);
  EXPECT_EQ(unaware[1].t_deliver, 3100u);
  const std::vector<Received> flow = RunPair(Fabric("flow", "message"));
  ASSERT_EQ(flow.size(), 2u);
  EXPECT_EQ(flow[0].size, 1000u);
  // Sharing the link, and behind the large one's packet in transmission at
  // the receiver's port (half a 4 KiB packet at 50 B/ns: 41 ns).
  EXPECT_EQ(flow[0].t_deliver, 1640u + 41);
  EXPECT_EQ(flow[1].t_deliver, 3120u);
}

TEST(ConnectionOrder, Ns3DeliversAConnectionsMessagesInTheOrderSent) {
  for (const std::string transport : {"tcp", "udp"}) {
    SCOPED_TRACE(transport);
    const std::vector<Received> got =
        RunPair({"ns3", "--topology", "switch:2,link_bw=400Gbps,link_latency=500ns",
                 "--transport", transport});
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0].size, 100000u);
    EXPECT_EQ(got[1].size, 1000u);
    EXPECT_GE(got[1].t_deliver, got[0].t_deliver);
  }
}

}  // namespace
}  // namespace trestle::testing
